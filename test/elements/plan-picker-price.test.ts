import { expect } from '@open-wc/testing';
import type { Offer } from '../../src/contract/catalog.js';
import { discountedPrice } from '../../src/elements/plan-picker/offer-card.js';

// The price a plan card shows after the subscription's discounts, counted as the billing service
// counts it (src/sandbox/billing/pricing.ts): shares rounded each, then amounts, never below 0.

const offer = (amount?: number) => ({ ReferenceOffer: 'pro', AmountRecurrence: amount }) as Offer;
const share = (perTenThousand: number) => ({ reference: 's', title: 's', off: { perTenThousand } });
const flat = (amount: number) => ({ reference: 'f', title: 'f', off: { amount } });

describe('the price a plan card shows after discounts', () => {
  it('takes each share off, rounded to the hundredth, then the amounts', () => {
    expect(discountedPrice(offer(4900), [share(2000)])).to.equal(3920);
    // 1999 × 15 % = 299.85 → 300; 1999 × 5 % = 99.95 → 100.
    expect(discountedPrice(offer(1999), [share(1500), share(500)])).to.equal(1599);
    expect(discountedPrice(offer(4900), [share(1000), flat(500)])).to.equal(3910);
  });

  it('never goes below 0', () => {
    expect(discountedPrice(offer(1900), [share(15_000)])).to.equal(0);
    expect(discountedPrice(offer(1900), [flat(5000)])).to.equal(0);
  });

  it('tells nothing when a discount does not say what it takes off, or without a price', () => {
    const unknown = { reference: 'x', title: 'x' };
    expect(discountedPrice(offer(4900), [share(2000), unknown])).to.equal(undefined);
    expect(discountedPrice(offer(undefined), [share(2000)])).to.equal(undefined);
  });
});

import { expect } from '@open-wc/testing';
import type { Offer, OfferFeature } from '../../src/contract/catalog.js';
import type { Usage } from '../../src/contract/resources.js';
import {
  discountedAddOn,
  discountedPrice,
  priceAtUse,
} from '../../src/elements/plan-picker/offer-card.js';

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

describe('the price of an add-on the picker shows after discounts', () => {
  it('takes the shares off, as the service counts an add-on switched on', () => {
    // 20% off: $9.00 becomes $7.20, the overview's price for it.
    expect(discountedAddOn(900, [share(2000)])).to.equal(720);
  });

  it('leaves an amount off to the whole period: the add-on still adds its price', () => {
    expect(discountedAddOn(900, [flat(500)])).to.equal(900);
    expect(discountedAddOn(900, [share(1000), flat(500)])).to.equal(810);
  });

  it('shows the list price when a discount does not say what it takes off', () => {
    expect(discountedAddOn(900, [share(2000), { reference: 'x', title: 'x' }])).to.equal(900);
  });
});

describe('the price of a plan at the customer’s use', () => {
  const feature = (terms: Partial<OfferFeature> & { ReferenceFeature: string }) =>
    ({
      Id: 1,
      TypeFeature: 'Limitation',
      TitleLocalized: terms.ReferenceFeature,
      ...terms,
    }) as OfferFeature;
  const usage = (terms: Partial<Usage> & { ReferenceFeature: string }) =>
    ({ IdSubscription: 1, TypeFeature: 'Limitation', ...terms }) as Usage;
  const pro = {
    ReferenceOffer: 'pro',
    AmountRecurrence: 4900,
    Features: [
      feature({ ReferenceFeature: 'seats', QuantityIncluded: 5, AmountUnit: 1000 }),
      feature({ ReferenceFeature: 'projects', QuantityIncluded: 10, AmountUnit: 500 }),
      feature({
        ReferenceFeature: 'support',
        TypeFeature: 'OnOff',
        IsAddOn: true,
        AmountRecurrence: 900,
      }),
    ],
  } as Offer;
  const business = {
    ReferenceOffer: 'business',
    AmountRecurrence: 19_900,
    IsCurrent: true,
    Features: [
      feature({ ReferenceFeature: 'seats', QuantityIncluded: -1 }),
      feature({ ReferenceFeature: 'projects', QuantityIncluded: -1 }),
      feature({ ReferenceFeature: 'support', TypeFeature: 'OnOff', IsIncluded: true }),
    ],
  } as Offer;
  const usages = [
    usage({ ReferenceFeature: 'seats', QuantityCurrent: 42, QuantityIncluded: -1 }),
    usage({ ReferenceFeature: 'projects', QuantityCurrent: 17, QuantityIncluded: -1 }),
    usage({ ReferenceFeature: 'support', TypeFeature: 'OnOff', IsEnabled: true }),
  ];

  it('adds the units above what the plan includes, at its unit price', () => {
    // 42 seats and 17 projects on Pro: $49 + 37 × $10 + 7 × $5 = $454, the service's quote.
    expect(priceAtUse(pro, business, usages)).to.deep.equal({
      amount: 45_400,
      extras: [
        { label: 'seats', count: 37, amount: 37_000 },
        { label: 'projects', count: 7, amount: 3500 },
      ],
    });
    // Unlimited on the current plan: its list price.
    expect(priceAtUse(business, business, usages)).to.deep.equal({ amount: 19_900, extras: [] });
  });

  it('carries over an add-on bought on the current plan, never an included feature', () => {
    const onPro = { ...pro, IsCurrent: true } as Offer;
    const bought = [usage({ ReferenceFeature: 'support', TypeFeature: 'OnOff', IsEnabled: true })];
    expect(priceAtUse(onPro, onPro, bought)?.amount).to.equal(5800);
    expect(priceAtUse(pro, business, bought)?.amount).to.equal(4900);
  });

  it('tells nothing for a plan without a price', () => {
    expect(priceAtUse(offer(undefined), business, usages)).to.equal(undefined);
  });
});

import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { configureBilling, getBillingConfig } from '../../src/client/config.js';
import type { BillingPurchaseEvent } from '../../src/client/events.js';
import type { BuyFeature } from '../../src/elements/buy-feature/buy-feature.js';
import { getUsageStore } from '../../src/client/usage-store.js';
import { waitFor } from '../time.js';
import { createPendingPurchase } from '../../src/elements/buy-feature/pending-purchase.js';
import { proxyRequestCount, requestsAfter } from '../browser/billing.js';
import {
  addFault,
  openConfirmation,
  part,
  partText,
  pricedElement,
  quote,
  sandboxStats,
  purchasesAfterLaterRequest,
  freshStart,
  sandbox,
  waitForText,
  pricedSeats,
  sandboxAnsweredAll,
} from './buy-feature-helpers.js';

// A confirmed purchase is applied at most once, whatever happens to the page in between:
// its idempotency key waits in sessionStorage until the outcome is known.

/**
 * Resolves once `element` has rendered its latest state and its price block is asked of
 * nothing more: a price or a refusal shown.
 */
async function priceSettled(element: BuyFeature): Promise<void> {
  await element.updateComplete;
  await waitFor(
    () => part(element, 'price')?.getAttribute('aria-busy') === 'false',
    'the price block to settle',
  );
  await element.updateComplete;
}

const pendingKeys = () =>
  Object.keys(sessionStorage).filter((key) => key.includes('pending-purchase'));

/**
 * Buys 4 seats for a service that applies the purchase but answers `lateMs` late, on a page
 * that gives up after `timeoutMs`: resolves once the element says the outcome is unknown.
 */
async function confirmWithLateAnswer(lateMs: number, timeoutMs: number): Promise<BuyFeature> {
  await addFault({ route: 'POST /v1/Usage', mode: 'delay-after-apply', delayMs: lateMs, times: 1 });
  configureBilling({ timeoutMs });
  const element = await pricedSeats(4);
  await openConfirmation(element);
  part<HTMLButtonElement>(element, 'confirm')!.click();
  await waitForText(element, 'error', 'could not confirm');
  return element;
}

describe('<buy-feature> exactly once', () => {
  const defaultTimeout = getBillingConfig().timeoutMs;

  it('learns the outcome of a purchase cut off by a reload, without buying twice', async () => {
    await freshStart('healthy');
    const first = await confirmWithLateAnswer(2500, 800);
    expect(partText(first, 'error')).to.include(
      'could not confirm whether your purchase went through',
    );
    // While the outcome is unknown the only way on is to learn it, never a second purchase.
    expect(part(first, 'retry')).not.to.equal(null);
    expect(part(first, 'buy')!.getAttribute('aria-disabled')).to.equal('true');
    expect(pendingKeys()).to.have.length(1);
    const keptKey = sessionStorage.getItem(pendingKeys()[0]!);
    await expect(first).to.be.accessible();

    // "Reload": the element goes, its pending key stays, a new element comes.
    first.remove();
    configureBilling({ timeoutMs: defaultTimeout });
    const purchased = new Promise<BillingPurchaseEvent>((resolve) =>
      document.addEventListener('billing-purchase', resolve, { once: true }),
    );
    const second = await fixture<BuyFeature>(
      html`<buy-feature feature="seats" label="seats"></buy-feature>`,
    );
    expect(sessionStorage.getItem(pendingKeys()[0]!)).to.equal(keptKey);
    const event = await purchased;
    expect(event.detail.increment).to.equal(4);
    expect(event.detail.usage.QuantityCurrent).to.equal(7);
    await waitForText(second, 'success', 'You now have 7 seats');

    await sandboxAnsweredAll(); // the first request's late answer too
    const stats = await sandboxStats();
    expect(stats.appliedUsageChanges).to.equal(1);
    expect(pendingKeys()).to.have.length(0);
  });

  it('sends a pending purchase found on load once, then forgets it', async () => {
    await freshStart('healthy');
    const price = await quote('seats', 4);
    const pending = createPendingPurchase('/billing', 'seats', 4, price.AmountTotal, 'healthy');

    const element = await fixture<BuyFeature>(html`<buy-feature feature="seats"></buy-feature>`);
    const event = (await oneEvent(element, 'billing-purchase')) as BillingPurchaseEvent;
    expect(event.detail.replayed).to.equal(false);
    expect(event.detail.amountTotal).to.equal(pending.confirmedAmountTotal);
    expect(pendingKeys()).to.have.length(0);
    element.remove();

    // Another page load: nothing pending any more, nothing sent.
    const sent = await proxyRequestCount('POST', '/billing/usage');
    const again = await pricedElement(html`<buy-feature feature="seats"></buy-feature>`);
    expect(await purchasesAfterLaterRequest()).to.equal(sent);
    expect(partText(again, 'status')).to.equal('');
    const stats = await sandboxStats();
    expect(stats.appliedUsageChanges).to.equal(1);
    expect(stats.requests['POST /v1/Usage']).to.equal(1);
  });

  it('retries a timed-out purchase with the same key: one application', async () => {
    await freshStart('healthy');
    const element = await confirmWithLateAnswer(1500, 600);
    configureBilling({ timeoutMs: defaultTimeout });
    const purchased = oneEvent(element, 'billing-purchase');
    part<HTMLButtonElement>(element, 'retry')!.click();
    await purchased;
    await waitForText(element, 'success', 'Seats: 7 in all');
    await sandboxAnsweredAll(); // the first request's late answer too
    expect((await sandboxStats()).appliedUsageChanges).to.equal(1);
  });

  it('keeps a purchase of unknown outcome when the usages refresh over a refused price', async () => {
    await freshStart('healthy');
    const element = await confirmWithLateAnswer(2500, 800);
    configureBilling({ timeoutMs: defaultTimeout });
    // Another quantity is refused with a remedy (no payment method any more), then the usages
    // refresh, as after a remedy's workflow: the pending purchase must not give way to a new one.
    await sandbox('customers/healthy/payment-method', { state: 'absent' });
    const priced = await proxyRequestCount('POST', '/billing/pricing');
    const input = part<HTMLInputElement>(element, 'input')!;
    input.value = '5';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    // The price of 5 seats is asked (after the typing pause) and its refusal shown.
    await requestsAfter('POST', '/billing/pricing', priced);
    await priceSettled(element);
    const refreshed = await proxyRequestCount('GET', '/billing/usages');
    await getUsageStore().refresh();
    // The element has taken in the new usages, and whatever it asked again has its answer.
    await requestsAfter('GET', '/billing/usages', refreshed);
    await priceSettled(element);
    expect(partText(element, 'error')).to.include('could not confirm');
    expect(part(element, 'retry')).not.to.equal(null);
    expect(part(element, 'buy')!.getAttribute('aria-disabled')).to.equal('true');
    expect(pendingKeys()).to.have.length(1);
  });

  it('keeps the key through a failure of the service, and the retry applies once', async () => {
    await freshStart('healthy');
    // The service fails the apply call: the proxy reads back, sees nothing applied, gives up.
    await addFault({ route: 'POST /v1/Usage', mode: 'status-500', times: 1 });
    const element = await pricedSeats(4);
    await openConfirmation(element);
    part<HTMLButtonElement>(element, 'confirm')!.click();
    await waitForText(element, 'error', 'could not confirm');
    expect(pendingKeys()).to.have.length(1);
    expect((await sandboxStats()).appliedUsageChanges).to.equal(0);

    const purchased = oneEvent(element, 'billing-purchase');
    part<HTMLButtonElement>(element, 'retry')!.click();
    await purchased;
    await waitForText(element, 'success', 'Seats: 7 in all');
    expect((await sandboxStats()).appliedUsageChanges).to.equal(1);
    expect(pendingKeys()).to.have.length(0);
  });

  it('waits for a retry when the signed-in customer cannot be checked, then learns the outcome', async () => {
    await freshStart('healthy');
    const price = await quote('seats', 4);
    createPendingPurchase('/billing', 'seats', 4, price.AmountTotal, 'healthy');
    // Neither a price nor the usages can be read: nobody can tell who is signed in.
    await addFault({ route: 'POST /v1/Pricing/Usage', mode: 'status-500', times: 20 });
    await addFault({ route: 'GET /v1/Usages', mode: 'status-500', times: 20 });
    const element = await fixture<BuyFeature>(html`<buy-feature feature="seats"></buy-feature>`);
    await waitForText(element, 'error', 'could not confirm');
    expect(pendingKeys()).to.have.length(1);
    expect((await sandboxStats()).requests['POST /v1/Usage'] ?? 0).to.equal(0);

    await sandbox('faults', undefined, 'DELETE');
    part<HTMLButtonElement>(element, 'retry')!.click();
    await waitForText(element, 'success', 'Seats: 7 in all');
    expect((await sandboxStats()).appliedUsageChanges).to.equal(1);
    expect(pendingKeys()).to.have.length(0);
  });

  it('never re-sends a pending purchase of another customer signed in on the same tab', async () => {
    await freshStart('discounted');
    const price = await quote('seats', 4);
    createPendingPurchase('/billing', 'seats', 4, price.AmountTotal, 'healthy');
    const element = await pricedElement(html`<buy-feature feature="seats"></buy-feature>`);
    expect(await purchasesAfterLaterRequest()).to.equal(0);
    expect(pendingKeys()).to.have.length(0);
    expect(part(element, 'success')).to.equal(null);
    expect((await sandboxStats()).appliedUsageChanges).to.equal(0);
  });
});

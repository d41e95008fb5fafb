import { expect, fixture, html } from '@open-wc/testing';
import type { BuyFeature } from '../../src/elements/buy-feature/buy-feature.js';
import { proxyRequestCount, serviceApi } from '../browser/billing.js';
import {
  freshStart,
  openConfirmation,
  part,
  partText,
  pricedSeats,
  requestsAfterLaterRequest,
  sleep,
  streamOpen,
  waitFor,
  waitForPrice,
  waitForText,
} from './buy-feature-helpers.js';

// What <buy-feature> asks the proxy, counted at the real proxy over the real sandbox: a price
// is asked when something it depends on changed, never for a quantity the proxy refuses.

const PRICING = ['POST', '/billing/pricing'] as const;

/** Types a value in the quantity field as a person does (an input event per change). */
async function type(element: BuyFeature, value: string): Promise<void> {
  const input = part<HTMLInputElement>(element, 'input')!;
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await element.updateComplete;
}

describe('<buy-feature> requests', () => {
  it('says the limit per purchase at once and never asks the price of a larger quantity', async () => {
    await freshStart('healthy');
    // Priced once: the proxy's answer states its limit per purchase (10,000 by default).
    const element = await pricedSeats(1);
    const before = await proxyRequestCount(...PRICING);
    await type(element, '20000');
    expect(partText(element, 'invalid')).to.equal(
      'You can buy up to 10,000 at once. Choose a smaller quantity.',
    );
    expect(part(element, 'input')!.getAttribute('aria-invalid')).to.equal('true');
    // Time is the subject: the typing debounce (250 ms) passes and nothing is asked.
    await sleep(600);
    expect(await requestsAfterLaterRequest(...PRICING)).to.equal(before);
    expect(part(element, 'error'), 'no refusal from the proxy').to.equal(null);
    // A quantity within it is priced, as before.
    await type(element, '400');
    expect(part(element, 'invalid')).to.equal(null);
    await waitForPrice(element);
    expect(await proxyRequestCount(...PRICING)).to.equal(before + 1);
    await expect(element).to.be.accessible();
  });

  it('asks the price once after a purchase, whatever the live updates that follow it', async function () {
    this.timeout(30_000);
    await freshStart('healthy');
    const element = await fixture<BuyFeature>(html`<buy-feature feature="seats"></buy-feature>`);
    await waitForPrice(element);
    // The page follows the proxy's event stream before buying: the purchase's signals reach it.
    await streamOpen();
    let updates = 0;
    const count = () => (updates += 1);
    document.addEventListener('billing-updated', count);
    try {
      await openConfirmation(element);
      const before = await proxyRequestCount(...PRICING);
      part<HTMLButtonElement>(element, 'confirm')!.click();
      await waitForText(element, 'success', 'Seats: 4 in all');
      // The sandbox notifies the proxy of the purchase, and the page re-reads its usages.
      await waitFor(() => updates > 0, 'a live update after the purchase');
      // Time is the subject: the notifications of the purchase that come later, each a re-read.
      await sleep(1500);
      await waitForPrice(element);
      expect(
        (await requestsAfterLaterRequest(...PRICING)) - before,
        `one price after the purchase (${updates} live updates)`,
      ).to.equal(1);
    } finally {
      document.removeEventListener('billing-updated', count);
    }
  });

  it('does not ask its price again when only another feature’s use moves', async function () {
    this.timeout(30_000);
    await freshStart('healthy');
    const root = await fixture<HTMLElement>(
      html`<div>
        <buy-feature feature="seats"></buy-feature>
        <buy-feature feature="priority-support"></buy-feature>
      </div>`,
    );
    const [seats, addOn] = [...root.querySelectorAll<BuyFeature>('buy-feature')];
    await waitForPrice(seats!);
    await waitFor(() => part(addOn!, 'price-now') !== null, 'the add-on priced');
    await streamOpen();
    let updates = 0;
    const count = () => (updates += 1);
    document.addEventListener('billing-updated', count);
    try {
      const before = await proxyRequestCount(...PRICING);
      // The product in use: the host's back end reports API calls, and the service tells the
      // page each time; the usages are read again, the prices shown cannot have changed.
      for (let report = 0; report < 5; report++) {
        await serviceApi('Usage', {
          ReferenceCustomer: 'healthy',
          ReferenceFeature: 'api-calls',
          Increment: 250,
        });
        await sleep(150);
      }
      await waitFor(() => updates > 0, 'a live update after the reports');
      // Time is the subject: the re-reads the reports cause, and any price they would ask.
      await sleep(1500);
      expect(
        (await requestsAfterLaterRequest(...PRICING)) - before,
        `prices asked after ${updates} live updates of API calls`,
      ).to.equal(0);
      expect(part(seats!, 'error')).to.equal(null);
      expect(part(addOn!, 'error')).to.equal(null);
    } finally {
      document.removeEventListener('billing-updated', count);
    }
  });
});

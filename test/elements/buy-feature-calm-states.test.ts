import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import type { PricingResponse } from '../../src/contract/proxy-api.js';
import type { BuyFeature } from '../../src/elements/buy-feature/buy-feature.js';
import { proxyRequestCount } from '../browser/billing.js';
import {
  animationsDone,
  closePortalDialogs,
  dialogOf,
  freshStart,
  part,
  openConfirmation,
  partText,
  quote,
  shownPrice,
  waitForDialog,
  waitForPrice,
  waitForText,
  standing,
} from './buy-feature-helpers.js';

/** Hundredths of a dollar as the element writes them in English. */
const shownMoney = (amount: number) =>
  new Intl.NumberFormat('en', { style: 'currency', currency: 'USD' }).format(amount / 100);
import '../../src/elements/buy-feature/define.js';

// What a newcomer driving the demo found wrong in <buy-feature> (session 3, "a fresh pair of
// eyes"): states where nothing needs buying, or where something was just bought, must read as
// calm and settled, not as a purchase to make. Against the real proxy over the real sandbox.

afterEach(() => closePortalDialogs());

describe('<buy-feature> when Buy cannot act', () => {
  it('shows Buy neutral, not in the accent, and the remedy beside it leads (light and dark)', async () => {
    // No card on file and all seats in use: the refusal offers "Add a payment method"; a Buy
    // still filled with the accent would be the most prominent thing, and do nothing.
    await freshStart('no-payment-method');
    for (const theme of ['light', 'dark']) {
      const element = await fixture<BuyFeature>(
        html`<buy-feature
          feature="seats"
          theme=${theme}
          style="--billing-accent: rgb(0, 128, 0)"
        ></buy-feature>`,
      );
      await waitUntil(() => part(element, 'remedy') !== null, 'the remedy', { timeout: 8000 });
      const buy = part(element, 'buy')!;
      expect(buy.getAttribute('aria-disabled')).to.equal('true');
      const look = getComputedStyle(buy);
      expect(look.backgroundColor, theme).to.not.equal('rgb(0, 128, 0)');
      // Still a button: a border, and its words readable (not faded out as a whole).
      expect(look.borderTopStyle).to.equal('solid');
      expect(look.opacity).to.equal('1');
      const remedy = getComputedStyle(part(element, 'remedy')!);
      expect(remedy.color, theme).to.not.equal(look.color);
      expect(remedy.opacity).to.equal('1');
      // One element per region offers the remedy: the next theme's starts alone.
      fixtureCleanup();
    }
  });
});

describe('<buy-feature> when nothing needs buying', () => {
  it('says an unlimited feature has nothing to buy, and prices nothing', async () => {
    // The unlimited customer's Business plan gives unlimited seats: no "Buy 1 seat · $0.00".
    await freshStart('unlimited');
    const before = await proxyRequestCount('POST', '/billing/pricing');
    const element = await fixture<BuyFeature>(
      html`<buy-feature feature="seats" label="seats" label-one="seat"></buy-feature>`,
    );
    await waitForText(element, 'unlimited', 'Seats: unlimited in your plan, nothing to buy.');
    expect(part(element, 'buy')).to.equal(null);
    expect(part(element, 'input')).to.equal(null);
    expect(part(element, 'price')).to.equal(null);
    expect(partText(element, 'unlimited')).to.not.contain('$');
    await expect(element).to.be.accessible();
    expect((await proxyRequestCount('POST', '/billing/pricing')) - before).to.equal(0);
  });
});

/** Adds priority support through the proxy, as the element would after its confirmation. */
async function addPrioritySupport(): Promise<void> {
  const call = (path: string, body: unknown) =>
    fetch(path, {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  const on = (await (
    await call('/billing/pricing', { feature: 'priority-support', enabled: true })
  ).json()) as PricingResponse;
  const added = await call('/billing/usage', {
    feature: 'priority-support',
    enabled: true,
    idempotencyKey: crypto.randomUUID(),
    confirmedAmountTotal: on.AmountTotal,
    confirmedNextTermAmountTotal: on.NextTerm!.AmountTotal,
  });
  expect(added.status).to.equal(200);
}

describe('<buy-feature> on an add-on switched on', () => {
  it('knows from the plan that an add-on is included, without a refused price', async () => {
    // Business includes priority support: the element used to price its removal to learn it,
    // and the proxy's 422 showed in the console.
    await freshStart('unlimited');
    const before = await proxyRequestCount('POST', '/billing/pricing');
    const element = await fixture<BuyFeature>(
      html`<buy-feature feature="priority-support"></buy-feature>`,
    );
    await standing(element, 'included');
    expect(partText(element, 'add-on-text')).to.equal('Priority support: included in your plan.');
    expect(part(element, 'remove') === null && part(element, 'error') === null).to.equal(true);
    expect((await proxyRequestCount('POST', '/billing/pricing')) - before).to.equal(0);
    await expect(element).to.be.accessible();
  });

  it('shows an owned add-on and Remove, its removal quote only in the confirmation', async () => {
    await freshStart('starter-plan');
    await addPrioritySupport();
    const before = await proxyRequestCount('POST', '/billing/pricing');
    const element = await fixture<BuyFeature>(
      html`<buy-feature feature="priority-support"></buy-feature>`,
    );
    await standing(element, 'owned');
    await waitUntil(
      () => part(element, 'remove')?.getAttribute('aria-disabled') === 'false',
      'Remove enabled',
      { timeout: 8000 },
    );
    expect(partText(element, 'add-on')).to.equal(
      'Priority support: added to your plan as an add-on. Remove Priority support',
    );
    // No "Nothing to pay now $0.00" beside Remove: it read as if the add-on were free.
    expect(part(element, 'price') === null, 'no price beside Remove').to.equal(true);
    expect((await proxyRequestCount('POST', '/billing/pricing')) - before).to.equal(0);
    await expect(element).to.be.accessible();

    // Remove prices the removal for its confirmation, which says what changes.
    part<HTMLButtonElement>(element, 'remove')!.click();
    await waitForDialog(element);
    await animationsDone(element);
    expect(partText(element, 'dialog-title')).to.equal('Remove Priority support?');
    expect(dialogOf(element).textContent).to.match(/New recurring price/);
    expect((await proxyRequestCount('POST', '/billing/pricing')) - before).to.equal(1);
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
    expect(part(element, 'price') === null, 'still no price beside Remove').to.equal(true);
  });
});

describe('<buy-feature> after a purchase', () => {
  it('goes back to its first state: the default quantity, priced afresh', async () => {
    await freshStart('healthy');
    const element = await fixture<BuyFeature>(
      html`<buy-feature feature="seats" quantity="2" label="seats" label-one="seat"></buy-feature>`,
    );
    await waitForPrice(element);
    // The customer types 3 (3 of 5 seats used: 2 included, 1 extra) and buys them.
    const input = part<HTMLInputElement>(element, 'input')!;
    input.value = '3';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const three = await quote('seats', 3);
    await waitForPrice(element, shownMoney(three.AmountTotal));
    await openConfirmation(element);
    part<HTMLButtonElement>(element, 'confirm')!.click();
    await waitForText(element, 'success', 'Done. You now have 6 seats.');
    // As soon as "Done" shows, the quantity is the page's default again, and the price beside it
    // is never the one of the 3 seats just bought (a placeholder until the new one comes).
    expect(part<HTMLInputElement>(element, 'input')!.value).to.equal('2');
    expect(
      shownPrice(element) === undefined || shownPrice(element) !== shownMoney(three.AmountTotal),
      `the price beside Done: ${shownPrice(element)}`,
    ).to.equal(true);
    // The 2 seats' price now: both extra, since the plan's five are in use.
    const two = await quote('seats', 2);
    expect(two.AmountTotal).to.not.equal(three.AmountTotal);
    await waitForPrice(element, shownMoney(two.AmountTotal));
    expect(partText(element, 'success')).to.equal('Done. You now have 6 seats.');
    expect(part<HTMLButtonElement>(element, 'buy')!.getAttribute('aria-disabled')).to.equal(
      'false',
    );
    await expect(element).to.be.accessible();
    // Changing the quantity again starts a new purchase: the last outcome goes.
    input.value = '1';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await element.updateComplete;
    expect(part(element, 'success') === null, 'the success is gone').to.equal(true);
  });
});

import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { configureBilling, getBillingConfig } from '../../src/client/config.js';
import { loadLanguage } from '../../src/client/i18n.js';
import type { BillingAddOnChangeEvent, BillingRemedyEvent } from '../../src/client/events.js';
import type { PricingResponse } from '../../src/contract/proxy-api.js';
import type { BuyFeature } from '../../src/elements/buy-feature/buy-feature.js';
import { createPendingAddOnChange } from '../../src/elements/buy-feature/pending-add-on.js';
import { proxyRequestCount } from '../browser/billing.js';
import {
  addFault,
  animationsDone,
  closePortalDialogs,
  daysLeftInPeriod,
  dialogOf,
  focusedPart,
  freshStart,
  openedPortalPath,
  part,
  partText,
  requestsAfterLaterRequest,
  requestsTo,
  sandbox,
  sandboxStats,
  waitForDialog,
  waitForText,
  standing,
  sandboxAnsweredAll,
} from './buy-feature-helpers.js';

// <buy-feature> on an on/off feature: the add-on mode ("Add Priority support"), against the real
// proxy and sandbox. Priority support is sold apart at 9.00 a month on Starter and Pro, included
// in Business; single sign-on is part of Pro and Business, absent from Starter.

afterEach(() => closePortalDialogs());

const FEATURE = 'priority-support';
const pendingKeys = () =>
  Object.keys(sessionStorage).filter((key) => key.includes('pending-add-on'));

/** Dollars as the element writes them in English. */
const dollars = (amount: number) =>
  new Intl.NumberFormat('en', { style: 'currency', currency: 'USD' }).format(amount / 100);

/** The price of switching the add-on, asked of the proxy as the element asks it. */
async function switchPrice(enabled: boolean): Promise<PricingResponse> {
  const response = await fetch('/billing/pricing', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ feature: FEATURE, enabled }),
  });
  if (!response.ok) throw new Error(`pricing answered ${response.status}`);
  return (await response.json()) as PricingResponse;
}

async function addOnElement(feature = FEATURE): Promise<BuyFeature> {
  return fixture<BuyFeature>(html`<buy-feature feature=${feature}></buy-feature>`);
}

/**
 * Presses Add (or Remove) once it can be pressed, as a person would, and waits for the
 * confirmation, its opening animation done. The button is briefly disabled while the usages are
 * read again (a change made through the proxy signals the page), and a click then does nothing.
 */
async function askToConfirm(element: BuyFeature, button: 'add' | 'remove'): Promise<void> {
  await waitUntil(
    () => part(element, button)?.getAttribute('aria-disabled') === 'false',
    `${button} enabled`,
    { timeout: 8000 },
  );
  part<HTMLButtonElement>(element, button)!.click();
  await waitForDialog(element);
  // The dialog opens on the element's next render of its quote: wait for its Confirm, as a
  // person would.
  await waitUntil(() => part(element, 'confirm') !== null, 'the dialog shows its Confirm', {
    timeout: 8000,
  });
  await element.updateComplete;
  await animationsDone(element);
}

async function applied(customer: string): Promise<number> {
  return (await sandboxStats()).appliedUsageChangesByCustomer[customer] ?? 0;
}

describe('<buy-feature> add-on mode', () => {
  const defaultTimeout = getBillingConfig().timeoutMs;
  afterEach(() => configureBilling({ timeoutMs: defaultTimeout }));

  it('prices an on/off feature as an add-on only: never first as a quantity', async () => {
    // A first load, usages not read yet: the mode waits for them rather than asking the proxy
    // the price of "1 Priority support", which it refuses (a red line in the console).
    await freshStart('starter-plan');
    const before = await requestsTo('POST /v1/Pricing/Usage');
    const askedBefore = await proxyRequestCount('POST', '/billing/pricing');
    const errors: string[] = [];
    const recordError = (event: Event) => errors.push((event as CustomEvent).type);
    document.addEventListener('billing-error', recordError);
    try {
      const element = await addOnElement();
      await standing(element, 'available');
      await element.updateComplete;
      // A price asked first as a quantity would be asked on connecting, before the standing is
      // known: it has reached the proxy before a later request of the test's own is answered,
      // and the sandbox has answered what the proxy passed on.
      const asked = await requestsAfterLaterRequest('POST', '/billing/pricing');
      await sandboxAnsweredAll();
      expect(asked - askedBefore, 'prices asked of the proxy').to.equal(1);
      expect((await requestsTo('POST /v1/Pricing/Usage')) - before).to.equal(1);
      expect(errors).to.deep.equal([]);
    } finally {
      document.removeEventListener('billing-error', recordError);
    }
  });

  it('offers an add-on with its price now and per period, confirmed in the dialog, once', async () => {
    await freshStart('starter-plan');
    const price = await switchPrice(true);
    const element = await addOnElement();
    await standing(element, 'available');
    expect(partText(element, 'add')).to.equal('Add Priority support');
    expect(partText(element, 'price-now')).to.include(dollars(price.AmountTotal));
    expect(partText(element, 'price-next')).to.include(dollars(price.NextTerm!.AmountTotal));
    // No quantity to choose: an on/off feature is added as a whole.
    expect(part(element, 'input')).to.equal(null);
    await expect(element).to.be.accessible();

    await askToConfirm(element, 'add');
    expect(partText(element, 'dialog-title')).to.equal('Add Priority support?');
    expect(partText(element, 'amount')).to.equal(dollars(price.AmountTotal));
    expect(partText(element, 'next-term')).to.include(dollars(price.NextTerm!.AmountTotal));
    // A stray Enter must never spend money: the focus is on Cancel.
    expect(focusedPart(element)).to.equal('button cancel');
    await expect(element).to.be.accessible();
    expect(await applied('starter-plan')).to.equal(0);

    const changed = oneEvent(element, 'billing-add-on-change');
    const confirm = part<HTMLButtonElement>(element, 'confirm')!;
    // A double click on Confirm: one change.
    confirm.click();
    confirm.click();
    const event = (await changed) as BillingAddOnChangeEvent;
    expect(event.detail).to.include({ feature: FEATURE, enabled: true, replayed: false });
    expect(event.detail.amountTotal).to.equal(price.AmountTotal);
    // Said once: the panel says what is owned, the success line that it is done.
    await waitForText(element, 'success', 'Done.');
    await standing(element, 'owned');
    expect(partText(element, 'add-on-text')).to.equal(
      'Priority support: added to your plan as an add-on.',
    );
    expect(partText(element, 'remove')).to.equal('Remove Priority support');
    await expect(element).to.be.accessible();
    const stats = await sandboxStats();
    expect(stats.appliedUsageChanges).to.equal(1);
    expect(stats.requests['POST /v1/Usage']).to.equal(1);
    expect(pendingKeys()).to.have.length(0);
  });

  /** Adds the add-on through the proxy at its price, as a confirmed purchase would. */
  async function addedBefore(idempotencyKey: string): Promise<void> {
    const on = await switchPrice(true);
    const response = await fetch('/billing/usage', {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        feature: FEATURE,
        enabled: true,
        idempotencyKey,
        confirmedAmountTotal: on.AmountTotal,
        confirmedNextTermAmountTotal: on.NextTerm!.AmountTotal,
      }),
    });
    expect(response.ok, 'the add-on added first').to.equal(true);
  }

  it('removes it after its own confirmation of the new recurring price', async () => {
    await freshStart('starter-plan');
    await addedBefore('add-before-remove-key');
    const off = await switchPrice(false);
    const element = await addOnElement();
    await standing(element, 'owned');
    expect(partText(element, 'add-on-text')).to.equal(
      'Priority support: added to your plan as an add-on.',
    );
    // What removing costs is said in the removal's confirmation only (below), not beside Remove.
    expect(part(element, 'price') === null, 'no price beside Remove').to.equal(true);

    // Removing costs nothing now (the proxy says no confirmation is required), and is confirmed.
    expect(off.confirmationRequired).to.equal(false);
    await askToConfirm(element, 'remove');
    expect(partText(element, 'dialog-title')).to.equal('Remove Priority support?');
    // A destructive change: its consequence is the headline, the figure is the new recurring
    // price (no "$0.00"), and the button says what it does, in the critical colour.
    expect(part(element, 'dialog')!.querySelector('.summary')!.textContent!.trim()).to.equal(
      'Priority support ends now, and what was already billed for it is not refunded.',
    );
    expect(partText(element, 'amount')).to.include(dollars(off.NextTerm!.AmountTotal));
    expect(partText(element, 'quote')).to.include('New recurring price');
    expect(partText(element, 'quote')).not.to.include('$0.00');
    expect(partText(element, 'destructive')).to.equal('Remove Priority support');
    await expect(element).to.be.accessible();

    // Cancel: nothing changes.
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
    expect(await applied('starter-plan')).to.equal(1);

    await askToConfirm(element, 'remove');
    const changed = oneEvent(element, 'billing-add-on-change');
    part<HTMLButtonElement>(element, 'confirm')!.click();
    expect(((await changed) as BillingAddOnChangeEvent).detail.enabled).to.equal(false);
    await waitForText(element, 'success', 'Priority support: removed from your plan');
    await standing(element, 'available');
    expect(await applied('starter-plan')).to.equal(2);
  });

  it('says in French that removing ends it now and refunds nothing', async () => {
    // French texts load on demand (English meanwhile): loaded first, the element speaks French
    // from its first render.
    await loadLanguage('fr');
    await freshStart('starter-plan');
    await addedBefore('add-before-french-removal-key');
    const wrapper = await fixture<HTMLElement>(
      html`<div lang="fr"><buy-feature feature=${FEATURE}></buy-feature></div>`,
    );
    const element = wrapper.querySelector<BuyFeature>('buy-feature')!;
    await standing(element, 'owned');
    await askToConfirm(element, 'remove');
    expect(part(element, 'dialog')!.querySelector('.summary')!.textContent!.trim()).to.match(
      /prend fin immédiatement, et ce qui a déjà été facturé n’est pas remboursé\.$/,
    );
    expect(partText(element, 'destructive')).to.match(/^Retirer l’option /);
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
    expect(await applied('starter-plan')).to.equal(1);
  });

  it('learns the outcome of a change cut off by a reload, without applying it twice', async () => {
    await freshStart('starter-plan');
    await addFault({ route: 'POST /v1/Usage', mode: 'delay-after-apply', delayMs: 2500, times: 1 });
    configureBilling({ timeoutMs: 800 });
    const first = await addOnElement();
    await standing(first, 'available');
    await askToConfirm(first, 'add');
    part<HTMLButtonElement>(first, 'confirm')!.click();
    await waitForText(first, 'error', 'could not confirm whether your change went through');
    expect(part(first, 'retry')).not.to.equal(null);
    expect(pendingKeys()).to.have.length(1);
    await expect(first).to.be.accessible();

    // "Reload": the element goes, its pending key stays, a new element re-sends it.
    first.remove();
    configureBilling({ timeoutMs: defaultTimeout });
    const changed = new Promise<BillingAddOnChangeEvent>((resolve) =>
      document.addEventListener('billing-add-on-change', resolve, { once: true }),
    );
    const second = await addOnElement();
    expect((await changed).detail.enabled).to.equal(true);
    await waitForText(second, 'success', 'Done.');
    await waitForText(second, 'add-on-text', 'Priority support: added to your plan as an add-on.');
    await sandboxAnsweredAll(); // the first request's late answer too
    expect((await sandboxStats()).appliedUsageChanges).to.equal(1);
    expect(pendingKeys()).to.have.length(0);
  });

  it('drops a change confirmed before a reload that names no customer, never sending it', async () => {
    await freshStart('starter-plan');
    const price = await switchPrice(true);
    // Recorded from a price that named no customer: nothing can prove whose it is.
    createPendingAddOnChange('/billing', {
      feature: FEATURE,
      enabled: true,
      confirmedAmountTotal: price.AmountTotal,
      confirmedNextTermAmountTotal: price.NextTerm?.AmountTotal ?? 0,
    });
    const element = await addOnElement();
    await standing(element, 'available');
    expect(pendingKeys()).to.have.length(0);
    // (A text, not the node: a failure message that prints a node can stall the page.)
    expect(partText(element, 'success')).to.equal('');
    expect(await applied('starter-plan')).to.equal(0);
  });

  it('says an add-on the plan includes is included, with nothing to do', async () => {
    await freshStart('unlimited');
    const element = await addOnElement();
    await standing(element, 'included');
    expect(partText(element, 'add-on-text')).to.equal('Priority support: included in your plan.');
    expect(part(element, 'add')).to.equal(null);
    expect(part(element, 'remove')).to.equal(null);
    expect(part(element, 'error')).to.equal(null);
    await expect(element).to.be.accessible();
  });

  it('points a feature not sold separately to the plan that includes it', async () => {
    await freshStart('starter-plan');
    const errors: Event[] = [];
    document.addEventListener('billing-error', (event) => errors.push(event));
    const element = await addOnElement('sso');
    await standing(element, 'elsewhere');
    await waitForText(element, 'add-on-text', 'included in the Pro plan');
    expect(partText(element, 'add-on-text')).to.include('Single sign-on: not sold separately');
    // Not a refusal: no error shown, none reported.
    expect(part(element, 'error')).to.equal(null);
    expect(errors).to.have.length(0);
    await expect(element).to.be.accessible();
    // Without a plan picker on the page: the portal's change-plan workflow.
    part<HTMLButtonElement>(element, 'see-plans')!.click();
    expect(await openedPortalPath()).to.match(/change-plan|upgrade|offers/);
  });

  // Each refusal with its remedy; Add stays in view, unavailable, and nothing is applied.
  const refusals = [
    ['no-payment-method', 'register'],
    // Suspended because the payment method no longer works: a new one comes first.
    ['suspended', 'register'],
    ['pending', 'subscribe'],
  ] as const;
  for (const [customer, page] of refusals) {
    it(`shows the refusal for ${customer} with its remedy (${page})`, async () => {
      await freshStart(customer);
      const element = await addOnElement();
      await standing(element, 'refused');
      await waitUntil(() => part(element, 'remedy') !== null, 'a remedy', { timeout: 8000 });
      expect(part(element, 'add')!.getAttribute('aria-disabled')).to.equal('true');
      await expect(element).to.be.accessible();
      const remedy = oneEvent(element, 'billing-remedy');
      part<HTMLButtonElement>(element, 'remedy')!.click();
      expect(((await remedy) as BillingRemedyEvent).detail.page).to.equal(page);
      expect((await sandboxStats()).appliedUsageChanges).to.equal(0);
    });
  }

  it('asks again at the new price when it changed before the confirmation', async () => {
    await freshStart('starter-plan');
    const element = await addOnElement();
    await standing(element, 'available');
    await askToConfirm(element, 'add');
    const shown = partText(element, 'amount');
    // Days pass behind the page: less of the period is left, the prorated price is lower.
    await sandbox('clock', { advance: { days: 3 } });
    part<HTMLButtonElement>(element, 'confirm')!.click();
    await waitUntil(() => part(element, 'price-changed') !== null, 'the price-changed notice', {
      timeout: 10000,
    });
    expect(dialogOf(element).open).to.equal(true);
    expect(partText(element, 'amount')).not.to.equal(shown);
    expect(partText(element, 'amount')).to.equal(dollars((await switchPrice(true)).AmountTotal));
    expect((await sandboxStats()).appliedUsageChanges).to.equal(0);
    await expect(element).to.be.accessible();
  });

  it('says where an add-on stands as the meters do, "Name: state.", in French too', async () => {
    // French texts load on demand (English meanwhile): loaded first, the element speaks French
    // from its first render.
    await loadLanguage('fr');
    // A French page: the usages, which name the feature, are read in the page's language.
    const pageLang = document.documentElement.getAttribute('lang');
    document.documentElement.lang = 'fr';
    try {
      await freshStart('healthy');
      const included = await addOnElement('sso');
      await standing(included, 'included');
      await waitForText(included, 'add-on-text', 'Authentification unique');
      expect(partText(included, 'add-on-text')).to.equal(
        'Authentification unique : inclus dans votre offre.',
      );
      await freshStart('starter-plan');
      const elsewhere = await addOnElement('sso');
      await standing(elsewhere, 'elsewhere');
      await waitForText(elsewhere, 'add-on-text', 'l’offre Pro');
      expect(partText(elsewhere, 'add-on-text')).to.equal(
        'Authentification unique : non vendu séparément, inclus dans l’offre Pro.',
      );
    } finally {
      if (pageLang === null) document.documentElement.removeAttribute('lang');
      else document.documentElement.lang = pageLang;
    }
  });

  it("shows the service's lines in French, also when the price changed", async () => {
    // French texts load on demand (English meanwhile): loaded first, the element speaks French
    // from its first render.
    await loadLanguage('fr');
    await freshStart('starter-plan');
    // 4.3 days left in the period: a day count with a decimal, written "4,3" in French.
    await daysLeftInPeriod('starter-plan', 4.3);
    const wrapper = await fixture<HTMLElement>(
      html`<div lang="fr"><buy-feature feature=${FEATURE}></buy-feature></div>`,
    );
    const element = wrapper.querySelector<BuyFeature>('buy-feature')!;
    await standing(element, 'available');
    await askToConfirm(element, 'add');
    const firstLabel = () =>
      part(element, 'details')?.querySelector('li span')?.textContent?.trim() ?? '';
    expect(firstLabel()).to.match(/^Support prioritaire, d’aujourd’hui au /);
    // A day later the switch answers with a new price: its lines are in French too.
    await sandbox('clock', { advance: { days: 1 } });
    part<HTMLButtonElement>(element, 'confirm')!.click();
    await waitUntil(() => part(element, 'price-changed') !== null, 'the price-changed notice', {
      timeout: 10000,
    });
    expect(firstLabel()).to.match(/^Support prioritaire, d’aujourd’hui au /);
    expect((await sandboxStats()).appliedUsageChanges).to.equal(0);
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
  });
});

describe('<buy-feature> add-on beside a purchase of the page', () => {
  it('prices the add-on again after seats are bought beside it', async () => {
    await freshStart('healthy');
    const host = await fixture<HTMLDivElement>(
      html`<div>
        <buy-feature feature="seats" label="seats" label-one="seat"></buy-feature>
        <buy-feature feature=${FEATURE}></buy-feature>
      </div>`,
    );
    const [seats, addOn] = [...host.querySelectorAll<BuyFeature>('buy-feature')] as [
      BuyFeature,
      BuyFeature,
    ];
    await waitUntil(() => part(addOn, 'price-next') !== null, 'the add-on price', {
      timeout: 8000,
    });
    const before = (await switchPrice(true)).NextTerm?.AmountTotal;
    await waitForText(addOn, 'price-next', dollars(before!));
    // Three seats: one beyond the five of the plan raises the recurring price.
    const input = part<HTMLInputElement>(seats, 'input')!;
    input.value = '3';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    // The price of 3 seats: the one of the quantity before is gone once the element rendered
    // the new quantity, and the price block is complete again.
    await seats.updateComplete;
    await waitUntil(
      () =>
        part(seats, 'price')?.getAttribute('data-state') === 'complete' &&
        partText(seats, 'price-now') !== '',
      'the seats price',
      { timeout: 8000 },
    );
    part(seats, 'buy')!.click();
    await waitForDialog(seats);
    part(seats, 'confirm')!.click();
    await waitUntil(() => part(seats, 'success') !== null, 'the seats purchase', {
      timeout: 8000,
    });
    const after = (await switchPrice(true)).NextTerm?.AmountTotal;
    expect(after).to.not.equal(before);
    await waitForText(addOn, 'price-next', dollars(after!));
  });
});

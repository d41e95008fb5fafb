import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { BillingBeforePurchaseEvent, BillingPurchaseEvent } from '../../src/client/events.js';
import { configureBilling } from '../../src/client/config.js';
import { BuyFeature } from '../../src/elements/buy-feature/buy-feature.js';
import {
  addFault,
  daysLeftInPeriod,
  dialogOf,
  focusedPart,
  openConfirmation,
  part,
  partText,
  pricedElement,
  purchasesAfterLaterRequest,
  quote,
  requestsTo,
  sandbox,
  sandboxAnsweredAll,
  sandboxStats,
  serviceApi,
  shownPrice,
  freshStart,
  waitFor,
  waitForDialog,
  waitForFocus,
  waitForPrice,
  waitForText,
  pricedSeats,
} from './buy-feature-helpers.js';
import { engine } from '../browser/engine.js';
import { signIn } from '../browser/billing.js';
import { changePlan, getPlanQuote } from '../../src/client/plan-client.js';

// <buy-feature> against the real proxy over the real sandbox: the live price, the
// confirmation rule, applying once, events, keyboard use and accessibility in each state.

/** The label of the first of the service's lines in the confirmation. */
function firstLineLabel(element: Element): string {
  return part(element, 'details')?.querySelector('li span')?.textContent?.trim() ?? '';
}

describe('<buy-feature> live price', () => {
  it('shows the price the service quotes for the chosen quantity, now and next term', async () => {
    await freshStart('healthy');
    const expected = await quote('seats', 4);
    expect(expected.AmountTotal).to.be.greaterThan(0);
    const element = await pricedSeats(4);
    // The element's own words, the service's amounts formatted with Intl (as the service does).
    expect(shownPrice(element)).to.equal(expected.PricingLocalized);
    expect(partText(element, 'price-now')).to.include('Due now');
    expect(partText(element, 'price-next')).to.include(
      expected.NextTerm!.PricingLocalized.replace(/\s+/g, ' '),
    );
    expect(partText(element, 'price-next')).to.include('New recurring price');
    await expect(element).to.be.accessible();
  });

  it('prices only the last of quickly typed quantities, and never shows an older answer', async () => {
    await freshStart('healthy');
    const priceOfThree = (await quote('seats', 3)).PricingLocalized;
    const priceOfSix = (await quote('seats', 6)).PricingLocalized;
    expect(priceOfThree).not.to.equal(priceOfSix);

    // The answer for 3 is held back by the sandbox so that it would arrive after the one for 6.
    await addFault({
      route: 'POST /v1/Pricing/Usage',
      mode: 'delay',
      delayMs: 1500,
      times: 1,
    });
    const before = await requestsTo('POST /v1/Pricing/Usage');
    // The element's own price requests, to wait for the one for 3 to end (its answer is the
    // older one that must never show). They go to the proxy as they are.
    const priceRequests: Promise<unknown>[] = [];
    const realFetch = window.fetch;
    window.fetch = (input, init) => {
      const request = realFetch(input, init);
      if (String(input).endsWith('/pricing')) priceRequests.push(request.catch(() => undefined));
      return request;
    };
    try {
      const element = await fixture<BuyFeature>(
        html`<buy-feature feature="seats" quantity="3"></buy-feature>`,
      );
      const seen: string[] = [];
      const observer = new MutationObserver(() => {
        const price = shownPrice(element);
        if (price) seen.push(price);
      });
      observer.observe(element.shadowRoot!, {
        subtree: true,
        childList: true,
        characterData: true,
      });

      // The element reads the usages before it prices: a quantity changed before then is never
      // asked for. Typing starts once the request for 3 is held at the sandbox, its answer late.
      await waitUntil(
        async () => (await requestsTo('POST /v1/Pricing/Usage')) === before + 1,
        'the price of 3 asked of the service',
        { timeout: 8000 },
      );
      const input = part<HTMLInputElement>(element, 'input')!;
      for (const value of ['4', '5', '6']) {
        input.value = value;
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }
      await waitForPrice(element, priceOfSix);
      // Every request the element made has ended, the one for 3 too (aborted in the browser).
      await Promise.all(priceRequests);
      observer.disconnect();

      expect(shownPrice(element)).to.equal(priceOfSix);
      expect(seen).not.to.include(priceOfThree);
      // The one for 3, then one for 6: none for 4 or 5.
      expect(priceRequests).to.have.length(2);
      expect((await requestsTo('POST /v1/Pricing/Usage')) - before).to.equal(2);
    } finally {
      window.fetch = realFetch;
    }
  });

  it('never asks the price of a quantity changed before the usages arrive', async () => {
    await freshStart('healthy');
    const priceOfSix = (await quote('seats', 6)).PricingLocalized;
    // The element reads the usages (is the feature bought by quantity?) before it prices: the
    // sandbox holds them back, and the quantity changes while they are on their way.
    await addFault({ route: 'GET /v1/Usages', mode: 'delay', delayMs: 1500, times: 1 });
    const usagesBefore = await requestsTo('GET /v1/Usages');
    const pricesBefore = await requestsTo('POST /v1/Pricing/Usage');
    const element = await fixture<BuyFeature>(
      html`<buy-feature feature="seats" quantity="3"></buy-feature>`,
    );
    await waitUntil(
      async () => (await requestsTo('GET /v1/Usages')) > usagesBefore,
      'the usages asked of the service',
      { timeout: 8000 },
    );
    const input = part<HTMLInputElement>(element, 'input')!;
    input.value = '6';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await waitForPrice(element, priceOfSix);
    // 3 was dropped before it was sent: only 6 was priced.
    expect((await requestsTo('POST /v1/Pricing/Usage')) - pricesBefore).to.equal(1);
  });

  it('says why a quantity out of range cannot be bought, and prices nothing for it', async () => {
    await freshStart('healthy');
    const element = await pricedElement(html`<buy-feature feature="seats" max="10"></buy-feature>`);
    const input = part<HTMLInputElement>(element, 'input')!;
    input.value = '12';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await element.updateComplete;
    expect(partText(element, 'invalid')).to.include('1 to 10');
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(shownPrice(element)).to.equal(undefined);
    expect(part(element, 'buy')!.getAttribute('aria-disabled')).to.equal('true');
    await expect(element).to.be.accessible();

    // The field's own stepping (its arrow keys here) brings it back to the largest allowed
    // quantity, which is priced again.
    input.focus();
    await sendKeys({ press: 'ArrowDown' });
    await element.updateComplete;
    expect(input.value).to.equal('10');
    expect(part(element, 'invalid')).to.equal(null);
    await waitForPrice(element, (await quote('seats', 10)).PricingLocalized);
  });
});

describe('<buy-feature> quantity', () => {
  it('says so when a letter is typed, in the engines whose number field keeps it', async () => {
    await freshStart('healthy');
    const element = await pricedElement(html`<buy-feature feature="seats" max="10"></buy-feature>`);
    const input = part<HTMLInputElement>(element, 'input')!;
    input.focus();
    input.select();
    await sendKeys({ type: '2x' });
    await element.updateComplete;
    if (engine === 'chromium') {
      // Chromium's number field refuses the letter: 2 stays, and is priced.
      expect(input.value).to.equal('2');
      expect(part(element, 'invalid')).to.equal(null);
      await waitForPrice(element, (await quote('seats', 2)).PricingLocalized);
    } else {
      // Firefox's and WebKit's keep "2x" on screen, with an empty value and badInput set: the
      // element says what it takes, prices nothing and cannot buy.
      expect(input.validity.badInput).to.equal(true);
      expect(partText(element, 'invalid')).to.include('1 to 10');
      expect(input.getAttribute('aria-invalid')).to.equal('true');
      expect(shownPrice(element)).to.equal(undefined);
      expect(part(element, 'buy')!.getAttribute('aria-disabled')).to.equal('true');
    }
  });

  it('is a number input whose arrow keys step by step from min, within the range', async () => {
    // No feature: nothing is priced, the quantity control alone is under test.
    const element = await fixture<BuyFeature>(
      html`<buy-feature min="2" max="10" step="3" quantity="2"></buy-feature>`,
    );
    const input = part<HTMLInputElement>(element, 'input')!;
    expect(input.type).to.equal('number');
    expect([input.min, input.max, input.step]).to.deep.equal(['2', '10', '3']);
    const type = async (value: string) => {
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await element.updateComplete;
    };
    const press = async (key: 'ArrowDown' | 'ArrowUp') => {
      input.focus();
      await sendKeys({ press: key });
      await element.updateComplete;
      return input.value;
    };
    expect(await press('ArrowDown')).to.equal('2');
    expect(await press('ArrowUp')).to.equal('5');
    expect(await press('ArrowUp')).to.equal('8');
    // 11 is past max: 8 stays.
    expect(await press('ArrowUp')).to.equal('8');
    expect(element.quantity).to.equal(8);
    // Off the steps: said so, then the next allowed quantity in the key's direction.
    await type('6');
    expect(part(element, 'invalid')).not.to.equal(null);
    expect(await press('ArrowDown')).to.equal('5');
    expect(part(element, 'invalid')).to.equal(null);
    expect(element.quantity).to.equal(5);
    await type('6');
    expect(await press('ArrowUp')).to.equal('8');
    expect(element.quantity).to.equal(8);
  });
});

describe('<buy-feature> confirmation', () => {
  it('applies nothing before Confirm, and nothing after Cancel or Escape', async () => {
    await freshStart('healthy');
    const element = await pricedSeats(4);
    const expected = await quote('seats', 4);

    await openConfirmation(element);
    const dialog = dialogOf(element);
    expect(dialog.matches(':modal')).to.equal(true);
    expect(partText(element, 'amount')).to.equal(expected.PricingLocalized);
    expect(partText(element, 'quote')).to.include('Due now');
    expect(partText(element, 'next-term')).to.include(
      expected.NextTerm!.PricingLocalized.replace(/\s+/g, ' '),
    );
    // Focus is moved in, on the choice that spends nothing.
    expect(focusedPart(element)).to.equal('button cancel');
    await expect(element).to.be.accessible();
    expect(await purchasesAfterLaterRequest()).to.equal(0);
    expect(await requestsTo('POST /v1/Usage')).to.equal(0);

    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
    await waitForFocus(element, 'button buy');

    await openConfirmation(element);
    await sendKeys({ press: 'Escape' });
    await waitForDialog(element, false);
    await waitForFocus(element, 'button buy');

    const stats = await sandboxStats();
    expect(stats.requests['POST /v1/Usage'] ?? 0).to.equal(0);
    expect(stats.appliedUsageChanges).to.equal(0);
  });

  it('applies once on Confirm, says so, and the meter on the page follows', async () => {
    await freshStart('healthy');
    await import('../../src/elements/usage-meter/define.js');
    const page = await fixture<HTMLElement>(
      html`<div>
        <usage-meter feature="seats"></usage-meter>
        <buy-feature feature="seats" label="seats" quantity="4"></buy-feature>
      </div>`,
    );
    const element = page.querySelector('buy-feature')!;
    const meter = page.querySelector('usage-meter')!;
    await waitForPrice(element);
    await waitUntil(() => meter.shadowRoot?.querySelector('[role="meter"]'), 'meter shown');
    const figures = () => meter.shadowRoot!.querySelector('[part~="figures"]')?.textContent ?? '';
    expect(figures()).to.include('3');

    await openConfirmation(element);
    const purchased = oneEvent(element, 'billing-purchase');
    part<HTMLButtonElement>(element, 'confirm')!.click();
    // Busy while applying: buttons unavailable, dialog and form marked busy.
    await element.updateComplete;
    expect(part(element, 'confirm')!.getAttribute('aria-disabled')).to.equal('true');
    expect(dialogOf(element).getAttribute('aria-busy')).to.equal('true');
    expect(part(element, 'form')!.getAttribute('aria-busy')).to.equal('true');

    const event = (await purchased) as BillingPurchaseEvent;
    expect(event.detail.feature).to.equal('seats');
    expect(event.detail.increment).to.equal(4);
    expect(event.detail.usage.QuantityCurrent).to.equal(7);
    expect(event.detail.replayed).to.equal(false);
    await waitForText(element, 'success', 'You now have 7 seats');
    await waitForDialog(element, false);
    await waitUntil(() => figures().includes('7'), 'the meter shows the new quantity');
    await expect(element).to.be.accessible();

    const stats = await sandboxStats();
    expect(stats.appliedUsageChanges).to.equal(1);
    expect(stats.requests['POST /v1/Usage']).to.equal(1);
  });

  it('says the price may differ when the feature changed elsewhere during the purchase', async () => {
    await freshStart('healthy');
    const element = await pricedElement(
      html`<buy-feature
        feature="projects"
        label="projects"
        quantity="1"
        confirm="always"
      ></buy-feature>`,
    );
    await addFault({ route: 'POST /v1/Usage', mode: 'delay', delayMs: 1000 });
    await openConfirmation(element);
    const purchased = oneEvent(element, 'billing-purchase');
    part<HTMLButtonElement>(element, 'confirm')!.click();
    // While the service holds the purchase, the host's back end reports a project.
    await waitFor(async () => (await requestsTo('POST /v1/Usage')) > 0, 'the purchase to arrive');
    await serviceApi('Usage', {
      ReferenceCustomer: 'healthy',
      ReferenceFeature: 'projects',
      Increment: 1,
      DateStamp: new Date().toISOString(),
    });
    const event = (await purchased) as BillingPurchaseEvent;
    expect(event.detail.amountConfirmed).to.equal(false);
    expect(event.detail.usage.QuantityCurrent).to.equal(6);
    await waitForText(element, 'success', 'You now have 6 projects. The price may differ');
    await expect(element).to.be.accessible();
  });

  it('applies nothing for another account signed in after the price was shown', async () => {
    await freshStart('healthy');
    const element = await pricedSeats(4);
    await openConfirmation(element);
    // Another tab of the site signs in as another customer; this page still shows the first.
    signIn('unlimited');
    part<HTMLButtonElement>(element, 'confirm')!.click();
    await waitForText(
      element,
      'error',
      'Another account has signed in since this page opened. Reload the page to see its billing.',
    );
    const stats = await sandboxStats();
    expect(stats.requests['POST /v1/Usage'] ?? 0).to.equal(0);
    expect(stats.appliedUsageChanges).to.equal(0);
  });

  it('says under the price when the plan changes at the period’s end', async () => {
    await freshStart('healthy');
    // Hannah schedules the move from Pro to Starter at the end of her period.
    const quote = await getPlanQuote({ offer: 'starter' });
    await changePlan({
      offer: 'starter',
      idempotencyKey: crypto.randomUUID(),
      confirmedAmountTotal: quote.AmountTotalDue,
      confirmedNextTermAmountTotal: quote.NextTerm.AmountTotal,
    });
    const date = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(
      new Date(quote.DateEffective!),
    );
    const element = await pricedSeats(2);
    await openConfirmation(element);
    // The price is Pro's, until then: said, not left to be read as the price after that date.
    // Starter has no seats: the seats bought now end with the change, and the dialog says so.
    await waitForText(
      element,
      'effective',
      `Your plan changes to Starter on ${date}: this recurring price applies until then. Seats: not included in Starter.`,
    );
    await expect(element).to.be.accessible();
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
    // Starter includes projects: only the date is said.
    const projects = await pricedElement(
      html`<buy-feature feature="projects" quantity="1"></buy-feature>`,
    );
    await openConfirmation(projects);
    const onlyTheDate = `Your plan changes to Starter on ${date}: this recurring price applies until then.`;
    await waitForText(projects, 'effective', onlyTheDate);
    expect(partText(projects, 'effective')).to.equal(onlyTheDate);
    part<HTMLButtonElement>(projects, 'cancel')!.click();
    await waitForDialog(projects, false);
  });

  it('applies once when Confirm is clicked twice', async () => {
    await freshStart('healthy');
    const element = await pricedSeats(4);
    await openConfirmation(element);
    const confirm = part<HTMLButtonElement>(element, 'confirm')!;
    confirm.click();
    confirm.click();
    confirm.dispatchEvent(new MouseEvent('dblclick', { bubbles: true, composed: true }));
    await waitForText(element, 'success', 'Seats: 7 in all');
    // A second purchase would have been sent with the first: once the sandbox has answered
    // everything it received, it has counted it.
    await sandboxAnsweredAll();
    const stats = await sandboxStats();
    expect(stats.appliedUsageChanges).to.equal(1);
    expect(stats.requests['POST /v1/Usage']).to.equal(1);
  });

  it('asks for a purchase that costs nothing, unless confirm="auto"', async () => {
    // Two more seats fill the five the plan includes (an unlimited plan has nothing to buy).
    await freshStart('healthy');
    const free = await quote('seats', 2);
    expect(free.AmountTotal).to.equal(0);

    // By default every purchase is confirmed: the card above a buy control can promise that
    // the customer sees and confirms each change. Its button says the change, not a payment.
    const always = await pricedElement(
      html`<buy-feature feature="seats" quantity="2" label="seats" label-one="seat"></buy-feature>`,
    );
    await openConfirmation(always);
    expect(partText(always, 'amount')).to.equal(free.PricingLocalized);
    expect(partText(always, 'confirm')).to.equal('Add 2 seats');
    part<HTMLButtonElement>(always, 'cancel')!.click();
    await waitForDialog(always, false);
    expect((await sandboxStats()).appliedUsageChanges).to.equal(0);
    always.remove();

    const element = await pricedElement(
      html`<buy-feature feature="seats" quantity="2" confirm="auto"></buy-feature>`,
    );
    let opened = false;
    dialogOf(element).addEventListener('toggle', () => (opened = true));
    const observer = new MutationObserver(() => (opened ||= dialogOf(element).open));
    observer.observe(dialogOf(element), { attributes: true });
    part<HTMLButtonElement>(element, 'buy')!.click();
    await waitForText(element, 'success', 'Seats: 5 in all');
    observer.disconnect();
    expect(opened).to.equal(false);
    expect((await sandboxStats()).appliedUsageChanges).to.equal(1);
  });

  it('asks before a purchase that costs nothing now but raises the recurring price', async () => {
    await freshStart('healthy');
    // The last minute of the billing period: one seat past the included five prorates to 0.
    const state = await sandbox<{
      subscriptions: { DatePeriodEnd: string; AmountRecurrenceDiscounted: number }[];
    }>('customers/healthy');
    const subscription = state.subscriptions[0]!;
    await sandbox('clock', {
      set: new Date(Date.parse(subscription.DatePeriodEnd) - 60_000).toISOString(),
    });
    const expected = await quote('seats', 3);
    expect(expected.AmountTotal).to.equal(0);
    expect(expected.NextTerm!.AmountTotal).to.be.greaterThan(
      subscription.AmountRecurrenceDiscounted,
    );
    expect(expected.confirmationRequired).to.equal(true);

    const element = await pricedSeats(3);
    await openConfirmation(element);
    expect(dialogOf(element).matches(':modal')).to.equal(true);
    expect(partText(element, 'amount')).to.equal(expected.PricingLocalized);
    expect(partText(element, 'next-term')).to.include(
      expected.NextTerm!.PricingLocalized.replace(/\s+/g, ' '),
    );
    await expect(element).to.be.accessible();
    expect(await purchasesAfterLaterRequest()).to.equal(0);
    expect((await sandboxStats()).appliedUsageChanges).to.equal(0);

    part<HTMLButtonElement>(element, 'confirm')!.click();
    await waitForText(element, 'success', 'Seats: 6 in all');
    expect((await sandboxStats()).appliedUsageChanges).to.equal(1);
  });

  it('shows the new price and asks again when the price changed before Confirm', async () => {
    await freshStart('healthy');
    const element = await pricedSeats(4);
    await openConfirmation(element);
    const firstPrice = partText(element, 'amount');

    // Ten days pass between the quote and the click: the prorated amount falls.
    await sandbox('clock', { advance: { days: 10 } });
    const newPrice = (await quote('seats', 4)).PricingLocalized;
    expect(newPrice).not.to.equal(firstPrice);

    part<HTMLButtonElement>(element, 'confirm')!.click();
    await waitForText(element, 'price-changed', 'price has changed');
    expect(dialogOf(element).open).to.equal(true);
    expect(partText(element, 'amount')).to.equal(newPrice);
    expect(focusedPart(element)).to.equal('button cancel');
    expect((await sandboxStats()).appliedUsageChanges).to.equal(0);
    await expect(element).to.be.accessible();

    part<HTMLButtonElement>(element, 'confirm')!.click();
    await waitForText(element, 'success', 'Seats: 7 in all');
    expect((await sandboxStats()).appliedUsageChanges).to.equal(1);
    // The next purchase is priced again: the new price comes a moment after the success.
    await waitUntil(() => shownPrice(element) !== undefined, 'the next price shown', {
      timeout: 8000,
    });
  });

  it('asks again when only the recurring price changed before Confirm', async () => {
    await freshStart('healthy');
    configureBilling({ live: false });
    try {
      const element = await pricedSeats(4);
      await openConfirmation(element);
      const confirmedNext = partText(element, 'next-term');
      // Priority support is added elsewhere (another tab) while the dialog is open: the seats
      // cost the same now, and $9.00 more a month from the next period.
      const added = await fetch('/billing/pricing', {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ feature: 'priority-support', enabled: true }),
      }).then(
        (response) =>
          response.json() as Promise<{ AmountTotal: number; NextTerm: { AmountTotal: number } }>,
      );
      const switched = await fetch('/billing/usage', {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          feature: 'priority-support',
          enabled: true,
          idempotencyKey: 'recurring-price-moved-key',
          confirmedAmountTotal: added.AmountTotal,
          confirmedNextTermAmountTotal: added.NextTerm.AmountTotal,
        }),
      });
      expect(switched.ok, 'the add-on added elsewhere').to.equal(true);
      const applied = (await sandboxStats()).appliedUsageChanges;

      // The recurring price confirmed is no longer the service's: nothing is bought, the
      // dialog shows the new one and asks again.
      part<HTMLButtonElement>(element, 'confirm')!.click();
      await waitForText(element, 'price-changed', 'price has changed');
      expect(partText(element, 'next-term')).not.to.equal(confirmedNext);
      expect((await sandboxStats()).appliedUsageChanges).to.equal(applied);
      part<HTMLButtonElement>(element, 'confirm')!.click();
      await waitForText(element, 'success', 'Seats: 7 in all');
    } finally {
      configureBilling({ live: true });
    }
  });
});

describe('<buy-feature> busy states', () => {
  it('shows a placeholder while pricing and is busy while applying, accessibly', async () => {
    await freshStart('healthy');
    await addFault({ route: 'POST /v1/Pricing/Usage', mode: 'delay', delayMs: 1000, times: 1 });
    // Long enough for the checks below to run while the purchase is still being applied.
    await addFault({ route: 'POST /v1/Usage', mode: 'delay-after-apply', delayMs: 3000, times: 1 });
    const element = await fixture<BuyFeature>(
      html`<buy-feature feature="seats" quantity="4"></buy-feature>`,
    );
    const price = part(element, 'price')!;
    expect(price.getAttribute('aria-busy')).to.equal('true');
    expect(price.querySelectorAll('.skeleton').length).to.be.greaterThan(0);
    expect(price.textContent).to.include('Calculating the price');
    await expect(element).to.be.accessible();
    await waitForPrice(element);
    expect(price.getAttribute('aria-busy')).to.equal('false');

    await openConfirmation(element);
    part<HTMLButtonElement>(element, 'confirm')!.click();
    await waitForText(element, 'progress', 'Applying your purchase');
    expect(part(element, 'cancel')!.getAttribute('aria-disabled')).to.equal('true');
    expect(part(element, 'buy')!.getAttribute('aria-disabled')).to.equal('true');
    expect(part<HTMLInputElement>(element, 'input')!.readOnly).to.equal(true);
    await expect(element).to.be.accessible();
    // Escape may close the dialog (the browser decides), but the purchase's progress and
    // outcome stay on show in the element. The element cancels the dialog's cancel event: in an
    // engine without close watchers (WebKit) that keeps it open; with them (Chromium, Firefox),
    // a second Escape with no user activation in between cannot be cancelled and closes it.
    await sendKeys({ press: 'Escape' });
    await sendKeys({ press: 'Escape' });
    await element.updateComplete;
    expect(dialogOf(element).open).to.equal(!('CloseWatcher' in window));
    expect(partText(element, 'progress')).to.include('Applying your purchase');
    await waitForText(element, 'success', 'Seats: 7 in all');
    expect((await sandboxStats()).appliedUsageChanges).to.equal(1);
  });
});

describe('<buy-feature> events', () => {
  it('fires billing-before-purchase with the confirmed price; cancelling it applies nothing', async () => {
    await freshStart('healthy');
    const element = await pricedSeats(4);
    const expected = await quote('seats', 4);
    let detail: BillingBeforePurchaseEvent['detail'] | undefined;
    let composedAndBubbling = false;
    document.addEventListener(
      'billing-before-purchase',
      (event) => {
        detail = event.detail;
        composedAndBubbling = event.bubbles && event.composed && event.cancelable;
        event.preventDefault();
      },
      { once: true },
    );
    await openConfirmation(element);
    part<HTMLButtonElement>(element, 'confirm')!.click();
    await waitForDialog(element, false);

    expect(composedAndBubbling).to.equal(true);
    expect(detail?.feature).to.equal('seats');
    expect(detail?.increment).to.equal(4);
    expect(detail?.pricing.AmountTotal).to.equal(expected.AmountTotal);
    expect(detail?.pricing.PricingLocalized).to.equal(expected.PricingLocalized);
    expect(await purchasesAfterLaterRequest()).to.equal(0);
    expect(await requestsTo('POST /v1/Usage')).to.equal(0);
    expect(part(element, 'success')).to.equal(null);
  });
});

describe('<buy-feature> keyboard', () => {
  it('buys with the keyboard alone: Tab, arrows, Enter, Tab, Space', async () => {
    await freshStart('healthy');
    const element = await pricedElement(
      html`<buy-feature feature="seats" label="seats"></buy-feature>`,
    );
    const input = part<HTMLInputElement>(element, 'input')!;
    const expected = (await quote('seats', 4)).PricingLocalized;

    await sendKeys({ press: 'Tab' }); // the quantity
    expect(focusedPart(element)).to.equal('input');
    for (let step = 0; step < 3; step += 1) await sendKeys({ press: 'ArrowUp' });
    expect(input.value).to.equal('4');
    await waitForPrice(element, expected);

    await sendKeys({ press: 'Enter' });
    await waitForDialog(element);
    expect(focusedPart(element)).to.equal('button cancel');
    await sendKeys({ press: 'Tab' });
    expect(focusedPart(element)).to.equal('button confirm');
    // The space character rather than the key name 'Space', which puppeteer's WebDriver BiDi
    // keyboard (Firefox) does not know.
    await sendKeys({ press: ' ' });
    await waitForText(element, 'success', 'You now have 7 seats');
    await waitForDialog(element, false);
    // Back where the purchase started: the quantity field, where Enter was pressed.
    await waitForFocus(element, 'input');
    expect((await sandboxStats()).appliedUsageChanges).to.equal(1);
  });

  it('types a quantity and buys with the buy button', async () => {
    await freshStart('healthy');
    const element = await pricedElement(html`<buy-feature feature="seats"></buy-feature>`);
    const input = part<HTMLInputElement>(element, 'input')!;
    input.focus();
    input.select();
    await sendKeys({ type: '5' });
    await sendKeys({ press: 'Tab' }); // Buy
    expect(focusedPart(element)).to.equal('button buy');
    // Enter right away: the element prices 5 at once instead of waiting for the debounce.
    await sendKeys({ press: 'Enter' });
    await waitForDialog(element);
    expect(partText(element, 'amount')).to.equal((await quote('seats', 5)).PricingLocalized);
    await sendKeys({ press: 'Escape' });
    await waitForDialog(element, false);
    expect((await sandboxStats()).appliedUsageChanges).to.equal(0);
  });
});

describe('<buy-feature> in French', () => {
  it('speaks French under lang="fr"', async () => {
    await freshStart('healthy');
    const wrapper = await fixture<HTMLElement>(
      html`<div lang="fr"><buy-feature feature="seats" quantity="4"></buy-feature></div>`,
    );
    const element = wrapper.querySelector('buy-feature')!;
    await waitForPrice(element);
    // The French texts load on demand: on a slow machine the price can come first.
    await waitFor(() => partText(element, 'buy') === 'Acheter', 'the French texts');
    expect(partText(element, 'buy')).to.equal('Acheter');
    expect(partText(element, 'label')).to.equal('Quantité');
    await openConfirmation(element);
    expect(partText(element, 'dialog-title')).to.equal('Confirmez votre achat');
    expect(partText(element, 'confirm')).to.match(/^Payer .+ et ajouter$/);
    expect(partText(element, 'cancel')).to.equal('Annuler');
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
    // A language switch after rendering reaches it.
    wrapper.lang = 'en';
    await waitUntil(() => partText(element, 'buy') === 'Buy', 'English after the switch');
    expect(partText(element, 'label')).to.equal('Quantity');
  });
  it("shows the service's lines in French, also when the price changed", async () => {
    await freshStart('healthy');
    await daysLeftInPeriod('healthy', 4.3);
    const wrapper = await fixture<HTMLElement>(
      html`<div lang="fr"><buy-feature feature="seats" quantity="4"></buy-feature></div>`,
    );
    const element = wrapper.querySelector('buy-feature')!;
    await waitForPrice(element);
    await openConfirmation(element);
    // The service's prorated line, in French, with the dates it covers.
    expect(firstLineLabel(element)).to.match(/^Sièges\u00a0: 2 en supplément, d’aujourd’hui au /);
    // A day later the purchase answers with a new price: its lines are in French too.
    await sandbox('clock', { advance: { days: 1 } });
    part<HTMLButtonElement>(element, 'confirm')!.click();
    await waitForText(element, 'price-changed', 'prix a changé');
    expect(firstLineLabel(element)).to.match(/^Sièges\u00a0: 2 en supplément, d’aujourd’hui au /);
    expect((await sandboxStats()).appliedUsageChanges).to.equal(0);
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
  });
});

describe('<buy-feature> unit words per language', () => {
  const summary = (element: Element) =>
    element.shadowRoot!.querySelector('dialog .summary')?.textContent?.trim() ?? '';

  it("takes the page's words for its language over the label attributes", async () => {
    await freshStart('healthy');
    configureBilling({
      messages: { fr: { 'unit.seats.one': 'siège', 'unit.seats.other': 'sièges' } },
    });
    const wrapper = await fixture<HTMLElement>(
      html`<div lang="fr">
        <buy-feature feature="seats" quantity="4" label="seats" label-one="seat"></buy-feature>
      </div>`,
    );
    const element = wrapper.querySelector('buy-feature')!;
    await waitForPrice(element);
    await openConfirmation(element);
    expect(summary(element)).to.equal('Ajouter 4 sièges');
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
    // In English, which the page gave no words for, the attributes' words.
    wrapper.lang = 'en';
    await waitUntil(() => partText(element, 'buy') === 'Buy', 'English after the switch');
    await waitForPrice(element);
    await openConfirmation(element);
    expect(summary(element)).to.equal('Add 4 seats');
    part<HTMLButtonElement>(element, 'cancel')!.click();
    await waitForDialog(element, false);
  });
});

describe('<buy-feature> registration', () => {
  it('defines once, and again under another tag', () => {
    expect(customElements.get('buy-feature')).to.equal(BuyFeature);
    expect(() => BuyFeature.define()).not.to.throw();
    class Renamed extends BuyFeature {}
    Renamed.define('renamed-buy-feature');
    expect(customElements.get('renamed-buy-feature')).to.equal(Renamed);
    expect(document.createElement('buy-feature')).to.be.instanceOf(BuyFeature);
  });
});

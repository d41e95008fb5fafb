import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { BillingErrorEvent, BillingRemedyEvent } from '../../src/client/events.js';
import { getUsageStore } from '../../src/client/usage-store.js';
import type { BuyFeature } from '../../src/elements/buy-feature/buy-feature.js';
import {
  closePortalDialogs,
  openConfirmation,
  openedPortalPath,
  part,
  partText,
  sandbox,
  sandboxStats,
  freshStart,
  waitForDialog,
  waitForPrice,
  waitForText,
  pricedSeats,
} from './buy-feature-helpers.js';

// Every refusal of the service is said in customer words, with the action that fixes it,
// and that action opens the right workflow of the real portal (here in the modal portal
// dialog, as the page has no <billing-portal>).

afterEach(() => closePortalDialogs());

interface Case {
  customer: string;
  /** The code the element hears (the proxy may name a suspension itself). */
  codes: string[];
  says: string;
  action: string;
  page: string;
  /** The hosted page the portal shows for that workflow. */
  hosted: RegExp;
}

const CASES: Case[] = [
  {
    customer: 'starter-plan',
    codes: ['Error.Api.Usage.NoneMatching'],
    // Pro is the least expensive plan that includes seats: named, and the switch goes there.
    says: 'Not included in your plan; included in Pro.',
    action: 'Switch to Pro',
    page: 'change-plan',
    hosted: /^\/hosted\/(upgrade|offers)\//,
  },
  {
    customer: 'no-payment-method',
    codes: ['Error.Customer.PaymentSettings.Missing'],
    says: 'Add a payment method',
    action: 'Add a payment method',
    page: 'register',
    hosted: /^\/hosted\/register\//,
  },
  {
    customer: 'capping-reached',
    codes: ['Error.Customer.Billing.CappingReached'],
    says: 'invoices are overdue',
    action: 'Pay overdue invoices',
    page: 'pay-invoice',
    // The first due invoice's payment; the portal's home (its invoice list) when the proxy
    // lists none.
    hosted: /^\/hosted\/(charge|portal)\//,
  },
  {
    // Suspended because the payment method no longer works: the cause, and a new payment
    // method before any restart (suspension-cause.test.ts has the restart once it is fixed).
    customer: 'suspended',
    codes: ['payment-method-invalid'],
    says: 'Your subscription is suspended: your payment method no longer works.',
    action: 'Update payment method',
    page: 'register',
    hosted: /^\/hosted\/register\//,
  },
];

describe('<buy-feature> refusals and their remedies', () => {
  for (const refusal of CASES) {
    it(`${refusal.customer}: says what is wrong and "${refusal.action}" opens the ${refusal.page} workflow`, async () => {
      await freshStart(refusal.customer);
      const errors: BillingErrorEvent[] = [];
      const listener = (event: BillingErrorEvent) => errors.push(event);
      document.addEventListener('billing-error', listener);
      const element = await fixture<BuyFeature>(
        html`<buy-feature feature="seats" quantity="3"></buy-feature>`,
      );
      await waitForText(element, 'error', refusal.says);
      document.removeEventListener('billing-error', listener);

      expect(errors.length).to.be.greaterThan(0);
      expect(refusal.codes).to.include(errors[0]!.detail.error.code);
      expect(errors[0]!.detail.error.message).to.be.a('string').and.not.equal('');
      expect(errors[0]!.detail.code).to.equal(errors[0]!.detail.error.code);
      expect(errors[0]!.detail.message).to.equal(errors[0]!.detail.error.message);
      expect(errors[0]!.bubbles && errors[0]!.composed).to.equal(true);
      expect(errors[0]!.detail.feature).to.equal('seats');
      expect(errors[0]!.detail.remedy).to.equal(refusal.page);
      // Nothing to confirm: the only way on is the remedy.
      expect(part(element, 'buy')!.getAttribute('aria-disabled')).to.equal('true');
      expect(partText(element, 'remedy')).to.equal(refusal.action);
      await expect(element).to.be.accessible();

      const remedy = oneEvent(element, 'billing-remedy');
      part<HTMLButtonElement>(element, 'remedy')!.click();
      expect(((await remedy) as BillingRemedyEvent).detail.page).to.equal(refusal.page);
      expect(await openedPortalPath()).to.match(refusal.hosted);
      expect((await sandboxStats()).requests['POST /v1/Usage'] ?? 0).to.equal(0);
    });
  }

  it('without a payment method, still says what a unit costs on the plan, in its language', async () => {
    await freshStart('no-payment-method');
    const element = await fixture<BuyFeature>(
      html`<buy-feature feature="seats" quantity="1"></buy-feature>`,
    );
    await waitForText(element, 'error', 'Add a payment method');
    // The service quotes nothing before a payment method is added: the plan's terms say what
    // one more seat costs (Pro: $10.00 a month for each seat beyond the 5 included).
    await waitUntil(() => part(element, 'unit-price') !== null, 'the unit price');
    expect(partText(element, 'unit-price')).to.equal(
      'Seats: $10.00 / month each beyond the 5 included.',
    );
    await expect(element).to.be.accessible();
    // A refusal of another cause shows no unit price (alone on the page, it offers the remedy).
    element.remove();
    await freshStart('capping-reached');
    const other = await fixture<BuyFeature>(
      html`<buy-feature feature="seats" quantity="1"></buy-feature>`,
    );
    await waitForText(other, 'error', 'invoices are overdue');
    expect(part(other, 'unit-price')).to.equal(null);
  });

  it('settling opens the oldest due invoice, else the portal where invoices are paid', async () => {
    await freshStart('capping-reached');
    const response = await fetch('/billing/subscription', { credentials: 'include' });
    const { dueInvoices } = (await response.json()) as { dueInvoices: { id: number }[] };
    const element = await fixture<BuyFeature>(html`<buy-feature feature="seats"></buy-feature>`);
    await waitForText(element, 'remedy', 'Pay overdue invoices');
    const portalCalls: URL[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const url = new URL(entry.name);
        if (url.pathname === '/billing/portal') portalCalls.push(url);
      }
    });
    observer.observe({ type: 'resource', buffered: false });
    part<HTMLButtonElement>(element, 'remedy')!.click();
    const hosted = await openedPortalPath();
    await waitUntil(() => portalCalls.length > 0, 'GET /billing/portal observed');
    observer.disconnect();
    const asked = portalCalls[0]!.searchParams;
    if (dueInvoices.length > 0) {
      // The oldest due invoice: named by the element, or chosen by the proxy when it is not.
      expect(asked.get('page')).to.equal('pay-invoice');
      if (asked.has('invoice')) expect(asked.get('invoice')).to.equal(String(dueInvoices[0]!.id));
      expect(hosted).to.match(/^\/hosted\/charge\//);
    } else {
      // No invoice listed: the portal, where the subscription's invoices are paid.
      expect(['pay-invoice', 'home']).to.include(asked.get('page'));
      expect(asked.has('invoice')).to.equal(false);
      expect(hosted).to.match(/^\/hosted\/(portal|charge)\//);
    }
  });

  it('says a quantity the plan does not allow cannot be bought, with nothing to retry', async () => {
    await freshStart('healthy');
    // Seats stop at 500 on the Pro plan: 600 more is refused, whatever the retries.
    const element = await fixture<BuyFeature>(
      html`<buy-feature feature="seats" quantity="600"></buy-feature>`,
    );
    await waitForText(element, 'error', 'Your plan does not allow that many');
    expect(part(element, 'remedy')).to.equal(null);
    expect(part(element, 'retry')).to.equal(null);
    expect(part(element, 'buy')!.getAttribute('aria-disabled')).to.equal('true');
    await expect(element).to.be.accessible();
  });

  it('a refusal met only at Confirm closes the dialog and offers its remedy', async () => {
    await freshStart('healthy');
    const element = await pricedSeats(4);
    await openConfirmation(element);
    const customer = (await sandbox('customers/healthy')) as {
      subscriptions: { Id: number }[];
    };
    await sandbox(`subscriptions/${customer.subscriptions[0]!.Id}/suspend`, {});

    part<HTMLButtonElement>(element, 'confirm')!.click();
    await waitForDialog(element, false);
    await waitForText(element, 'error', 'suspended');
    expect(partText(element, 'remedy')).to.equal('Restart subscription');
    expect((await sandboxStats()).appliedUsageChanges).to.equal(0);
    await expect(element).to.be.accessible();
  });

  it('prices again once the usages refresh after a fixed refusal', async () => {
    await freshStart('no-payment-method');
    const element = await fixture<BuyFeature>(html`<buy-feature feature="seats"></buy-feature>`);
    await waitForText(element, 'error', 'Add a payment method');
    // What a completed "register" workflow does: the payment method exists, the usages refresh.
    await sandbox('customers/no-payment-method/payment-method', {
      state: 'valid',
    });
    await getUsageStore().refresh();
    await waitForPrice(element);
    await waitUntil(() => part(element, 'remedy') === null, 'the remedy is gone');
    expect(part(element, 'buy')!.getAttribute('aria-disabled')).to.equal('false');
  });
});

import { expect, waitUntil } from '@open-wc/testing';
import type { ReactiveController } from 'lit';
import type { PricingResponse } from '../../src/contract/proxy-api.js';
import { configureBilling, getBillingConfig } from '../../src/client/config.js';
import type {
  BillingBeforePurchaseEvent,
  BillingErrorEvent,
  BillingPurchaseEvent,
} from '../../src/client/events.js';
import { getProxyClient } from '../../src/client/proxy-client.js';
import { getUsageStore } from '../../src/client/usage-store.js';
import { LatestTask } from '../../src/elements/shared/latest-task.js';
import { createPendingPurchase } from '../../src/elements/buy-feature/pending-purchase.js';
import {
  PurchaseController,
  type PurchaseHost,
} from '../../src/elements/buy-feature/purchase-controller.js';
import { QuantityRange } from '../../src/elements/buy-feature/quantity-range.js';
import { until } from '../browser/billing.js';
import {
  addFault,
  freshStart,
  quote,
  requestsTo,
  sandbox,
  sandboxStats,
  sandboxAnsweredAll,
  purchasesAfterLaterRequest,
} from './buy-feature-helpers.js';

// <buy-feature>'s purchase flow without its DOM: a plain host (an EventTarget that counts its
// update requests) and a view that records what the element would show, over the real proxy
// and sandbox. The element's own tests drive the same flow through its shadow DOM.

class Host extends EventTarget implements PurchaseHost {
  feature = 'seats';
  endpoint: string | undefined = undefined;
  confirm: 'auto' | 'always' = 'auto';
  updateRequests = 0;
  readonly #controllers: ReactiveController[] = [];

  addController(controller: ReactiveController): void {
    this.#controllers.push(controller);
  }
  removeController(_controller: ReactiveController): void {}
  requestUpdate(): void {
    this.updateRequests += 1;
  }
  get updateComplete(): Promise<boolean> {
    return Promise.resolve(true);
  }
  /** What an element's connection does for its controllers. */
  connected(): void {
    for (const controller of this.#controllers) controller.hostConnected?.();
  }
  /** What an element's disconnection does for its controllers. */
  disconnected(): void {
    for (const controller of this.#controllers) controller.hostDisconnected?.();
  }
  /** What an element's update does for its controllers once rendered. */
  updated(): void {
    for (const controller of this.#controllers) controller.hostUpdated?.();
  }
  /** Every event of `type` the flow dispatches from now on. */
  heard<E extends Event>(type: string): E[] {
    const events: E[] = [];
    this.addEventListener(type, (event) => events.push(event as E));
    return events;
  }
}

/** A flow for `quantity` units of the host's feature, with a dialog that only counts. */
function purchaseFlow(host: Host, quantity = 4) {
  const dialog = {
    open: false,
    openings: 0,
    closings: 0,
    reprices: 0,
    refreshes: 0,
    purchases: 0,
  };
  const preview = new LatestTask<number, PricingResponse>(
    host,
    (increment, signal) =>
      getProxyClient(host.endpoint).getPricing({ feature: host.feature, increment }, signal),
    0,
  );
  const purchase: PurchaseController = new PurchaseController(host, {
    preview,
    refreshPrice() {
      dialog.refreshes += 1;
      preview.run(quantity, true, { keepShown: true });
    },
    reprice() {
      dialog.reprices += 1;
      preview.run(quantity, true);
    },
    purchased() {
      dialog.purchases += 1;
      preview.run(quantity, true);
    },
    language: () => 'en',
    async openDialog() {
      if (!dialog.open) dialog.openings += 1;
      dialog.open = true;
    },
    closeDialog() {
      if (!dialog.open) return;
      dialog.open = false;
      dialog.closings += 1;
      // As a <dialog>'s close event: a task later.
      setTimeout(() => purchase.dialogClosed());
    },
  });
  preview.run(quantity, true);
  return { purchase, preview, dialog };
}

const pendingKeys = () =>
  Object.keys(sessionStorage).filter((key) => key.includes('pending-purchase'));

describe('PurchaseController (the purchase flow of <buy-feature>)', () => {
  const defaultTimeout = getBillingConfig().timeoutMs;
  afterEach(() => configureBilling({ timeoutMs: defaultTimeout }));

  it('asks to confirm the quoted price, then applies it once, however many confirms', async () => {
    await freshStart('healthy');
    const host = new Host();
    const { purchase, dialog } = purchaseFlow(host);
    const before = host.heard<BillingBeforePurchaseEvent>('billing-before-purchase');
    const purchased = host.heard<BillingPurchaseEvent>('billing-purchase');
    const expected = await quote('seats', 4);

    await purchase.buy(4);
    expect(purchase.phase).to.equal('confirming');
    expect(dialog.openings).to.equal(1);
    expect(purchase.quote?.increment).to.equal(4);
    expect(purchase.quote?.pricing.AmountTotal).to.equal(expected.AmountTotal);
    expect(await requestsTo('POST /v1/Usage')).to.equal(0);

    const first = purchase.confirm();
    expect(purchase.phase).to.equal('applying');
    expect(purchase.busy && purchase.underWay).to.equal(true);
    expect(pendingKeys()).to.have.length(1);
    await Promise.all([first, purchase.confirm(), purchase.confirm()]);

    expect(purchase.phase).to.equal('idle');
    expect(purchase.success?.usage.QuantityCurrent).to.equal(7);
    expect(purchase.success?.amountConfirmed).to.equal(true);
    expect(dialog.closings).to.equal(1);
    expect(before.map((event) => event.detail.increment)).to.deep.equal([4]);
    expect(purchased.map((event) => event.detail.amountTotal)).to.deep.equal([
      expected.AmountTotal,
    ]);
    expect(pendingKeys()).to.have.length(0);
    // The view is told once, to go back to its first state (the element's own test checks it).
    expect(dialog.purchases).to.equal(1);
    expect(dialog.reprices).to.equal(0);
    expect((await sandboxStats()).appliedUsageChanges).to.equal(1);
  });

  it('applies a purchase free overall without asking, unless told to always ask', async () => {
    await freshStart('unlimited');
    const asking = new Host();
    asking.confirm = 'always';
    const always = purchaseFlow(asking, 2);
    await always.purchase.buy(2);
    expect(always.purchase.phase).to.equal('confirming');
    expect(always.dialog.openings).to.equal(1);

    const host = new Host();
    const { purchase, dialog } = purchaseFlow(host, 2);
    await purchase.buy(2);
    expect(dialog.openings).to.equal(0);
    expect(purchase.success?.usage.QuantityCurrent).to.equal(44);
    expect((await sandboxStats()).appliedUsageChanges).to.equal(1);
  });

  it('calls off a quote being confirmed when the dialog closes, never a purchase under way', async () => {
    await freshStart('healthy');
    const { purchase } = purchaseFlow(new Host());
    await purchase.buy(4);
    purchase.dialogClosed();
    expect(purchase.phase).to.equal('idle');
    expect(purchase.quote).to.equal(undefined);
    await purchase.confirm();
    expect(await requestsTo('POST /v1/Usage')).to.equal(0);

    await purchase.buy(4);
    const applying = purchase.confirm();
    purchase.dialogClosed();
    expect(purchase.phase).to.equal('applying');
    expect(purchase.quote?.increment).to.equal(4);
    await applying;
    expect(purchase.success?.usage.QuantityCurrent).to.equal(7);
  });

  it('sends nothing when the host cancels billing-before-purchase', async () => {
    await freshStart('healthy');
    const host = new Host();
    const { purchase, dialog } = purchaseFlow(host);
    host.addEventListener('billing-before-purchase', (event) => event.preventDefault());
    await purchase.buy(4);
    await purchase.confirm();
    expect(purchase.phase).to.equal('idle');
    expect(dialog.closings).to.equal(1);
    expect(pendingKeys()).to.have.length(0);
    expect(await purchasesAfterLaterRequest()).to.equal(0);
    expect(await requestsTo('POST /v1/Usage')).to.equal(0);
  });

  it('keeps a purchase of unknown outcome with its key; a retry applies it once', async () => {
    await freshStart('healthy');
    await addFault({
      route: 'POST /v1/Usage',
      mode: 'delay-after-apply',
      delayMs: 1500,
      times: 1,
    });
    configureBilling({ timeoutMs: 500 });
    const host = new Host();
    const errors = host.heard<BillingErrorEvent>('billing-error');
    const { purchase } = purchaseFlow(host);
    await purchase.buy(4);
    await purchase.confirm();

    expect(purchase.failure?.error.code).to.equal('timeout');
    expect(purchase.failure?.pending?.increment).to.equal(4);
    expect(errors.map((event) => event.detail.code)).to.deep.equal(['timeout']);
    // While the outcome is unknown, the only way on is to learn it.
    expect(purchase.canBuy).to.equal(false);
    expect(purchase.canRetry).to.equal(true);
    const key = purchase.failure?.pending?.idempotencyKey;
    expect(sessionStorage.getItem(pendingKeys()[0]!)).to.include(key);

    configureBilling({ timeoutMs: defaultTimeout });
    await purchase.retry();
    expect(purchase.success?.usage.QuantityCurrent).to.equal(7);
    expect(pendingKeys()).to.have.length(0);
    await sandboxAnsweredAll(); // the first request's late answer too
    expect((await sandboxStats()).appliedUsageChanges).to.equal(1);
  });

  it("resumes a pending purchase of the signed-in customer, and drops another customer's", async () => {
    await freshStart('healthy');
    const price = await quote('seats', 4);
    createPendingPurchase('/billing', 'seats', 4, price.AmountTotal, 'healthy');
    const host = new Host();
    const purchased = host.heard<BillingPurchaseEvent>('billing-purchase');
    const { purchase } = purchaseFlow(host);
    purchase.retarget();
    expect(purchase.phase).to.equal('resuming');
    expect(purchase.underWay).to.equal(true);
    await until(() => purchase.phase === 'idle', 'the resumed purchase', 8000);
    expect(purchase.success?.usage.QuantityCurrent).to.equal(7);
    expect(purchased).to.have.length(1);
    // Looked for once per proxy and feature.
    purchase.retarget();
    expect(purchase.phase).to.equal('idle');

    await freshStart('discounted');
    createPendingPurchase('/billing', 'seats', 4, price.AmountTotal, 'healthy');
    const other = purchaseFlow(new Host());
    other.purchase.retarget();
    await until(() => other.purchase.phase === 'idle', 'the check of the customer', 8000);
    expect(other.purchase.success).to.equal(undefined);
    expect(pendingKeys()).to.have.length(0);
    expect((await sandboxStats()).appliedUsageChanges).to.equal(0);
  });

  it('drops a pending purchase that names no customer, without asking or sending it', async () => {
    await freshStart('healthy');
    const price = await quote('seats', 4);
    // Recorded from a price that named no customer: nothing can prove whose it is.
    createPendingPurchase('/billing', 'seats', 4, price.AmountTotal);
    const { purchase } = purchaseFlow(new Host());
    purchase.retarget();
    expect(purchase.phase).to.equal('idle');
    expect(pendingKeys()).to.have.length(0);
    expect(purchase.failure).to.equal(undefined);
    expect(await requestsTo('POST /v1/Usage')).to.equal(0);
  });

  it('drops a pending purchase when the signed-in customer has no usages to name them', async () => {
    await freshStart('no-subscription');
    createPendingPurchase('/billing', 'seats', 4, 800, 'healthy');
    const purchaseCalls: string[] = [];
    const realFetch = window.fetch;
    window.fetch = (input, init) => {
      // POST /usage applies a purchase (GET /usages reads them).
      if (String(input).endsWith('/usage')) purchaseCalls.push(String(input));
      return realFetch(input, init);
    };
    try {
      const { purchase } = purchaseFlow(new Host());
      purchase.retarget();
      expect(purchase.phase).to.equal('resuming');
      await until(() => purchase.phase === 'idle', 'the check of the customer', 8000);
      // Never sent to the proxy: not even a refusal to show.
      expect(purchaseCalls).to.deep.equal([]);
      expect(purchase.failure).to.equal(undefined);
      expect(purchase.success).to.equal(undefined);
      expect(pendingKeys()).to.have.length(0);
    } finally {
      window.fetch = realFetch;
    }
  });

  it("reports each of the preview's failures once, and prices again after the usages refresh", async () => {
    await freshStart('no-payment-method');
    const host = new Host();
    const errors = host.heard<BillingErrorEvent>('billing-error');
    const { purchase, preview, dialog } = purchaseFlow(host);
    // Connected, the flow follows the usages.
    host.connected();
    purchase.retarget();
    await preview.settled();
    host.updated();
    host.updated();
    expect(errors.map((event) => event.detail.remedy)).to.deep.equal(['register']);
    expect(purchase.error?.code).to.equal('Error.Customer.PaymentSettings.Missing');
    expect(purchase.canBuy).to.equal(false);
    // A refusal with a remedy is not retried: its workflow is the way on.
    expect(purchase.canRetry).to.equal(false);

    // What a completed "register" workflow does: a payment method, then the usages refresh.
    await sandbox('customers/no-payment-method/payment-method', { state: 'valid' });
    await getUsageStore().refresh();
    // Priced again: through the usages' refresh (the refusal cleared, `reprice`), or through
    // the live update the sandbox's notification of the change brings first (`refreshPrice`),
    // whichever comes first; both lead to the same price.
    await waitUntil(
      () => dialog.reprices + dialog.refreshes > 0,
      'priced again after the usages refresh',
    );
    await preview.settled();
    expect(purchase.error).to.equal(undefined);
    expect(purchase.canBuy).to.equal(true);
    expect(errors.length, 'the refusal was reported once, never again').to.equal(1);
    host.disconnected();
  });
});

describe('QuantityRange (the quantities of <buy-feature>)', () => {
  it('allows whole numbers from min, by step, up to max', () => {
    const range = new QuantityRange(2, 10, 2);
    expect([2, 4, 10].map((value) => range.allows(value))).to.deep.equal([true, true, true]);
    expect([0, 3, 12, 4.5, Number.NaN].map((value) => range.allows(value))).to.deep.equal([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(range.hasMax).to.equal(true);
    expect(range.invalidMessage).to.equal('buy.invalid.step');
  });

  it('reads a missing max as no upper bound and a step that is not a positive whole as 1', () => {
    for (const max of [null, Number.NaN, Number.POSITIVE_INFINITY]) {
      const range = new QuantityRange(1, max, 0.5);
      expect(range.max).to.equal(Infinity);
      expect(range.hasMax).to.equal(false);
      expect(range.step).to.equal(1);
      expect(range.allows(1_000_000)).to.equal(true);
      expect(range.invalidMessage).to.equal('buy.invalid.min');
    }
    expect(new QuantityRange(1, null, 5).invalidMessage).to.equal('buy.invalid.min-step');
    expect(new QuantityRange(1, 9, -3).invalidMessage).to.equal('buy.invalid');
  });
});

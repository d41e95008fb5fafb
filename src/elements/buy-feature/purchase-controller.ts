import type { ReactiveController } from 'lit';
import type { PricingResponse } from '../../contract/proxy-api.js';
import type { Usage } from '../../contract/resources.js';
import { toBillingError, type BillingError } from '../../client/errors.js';
import {
  BillingBeforePurchaseEvent,
  BillingPurchaseEvent,
  BillingUpdatedEvent,
} from '../../client/events.js';
import { remedyFor } from '../../client/portal.js';
import { getProxyClient } from '../../client/proxy-client.js';
import type { UsageStoreState } from '../../client/usage-store.js';
import { UsageStoreController } from '../../client/usage-store-controller.js';
import { sessionChangedUnder } from './priced-against.js';
import {
  ConfirmedChange,
  newPriceOf,
  signedInCustomer,
  type Application,
  type ChangeHost,
  type ChangeView,
} from '../shared/change-flow.js';
import type { LatestTask, LatestTaskState } from '../shared/latest-task.js';
import {
  createPendingPurchase,
  purchaseRequestOf,
  readPendingPurchase,
  settlePendingPurchase,
  type PendingPurchase,
} from './pending-purchase.js';

/** The price the dialog asks the user to confirm. */
export interface Quote {
  increment: number;
  pricing: PricingResponse;
  /**
   * Why the price is asked again: the service's price differs from the one the user was last
   * shown (`price-changed`), or the billing period was ending when it was confirmed
   * (`period-ending`).
   */
  changed?: 'price-changed' | 'period-ending';
}

/** The outcome of the last purchase. */
export interface PurchaseSuccess {
  /** The feature's usage after it. */
  usage: Usage;
  /** False when the amount charged may differ from the one confirmed (see `PurchaseDetail`). */
  amountConfirmed: boolean;
}

/** The element the flow runs in: what it buys, through which proxy, and where events go. */
export interface PurchaseHost extends ChangeHost {
  readonly feature: string;
  /** The element's own proxy; unset, the page's. */
  readonly endpoint: string | undefined;
  /** `always` asks for confirmation even when the purchase costs nothing. */
  readonly confirm: 'auto' | 'always';
}

/** What the flow needs of the element's view. */
export interface PurchaseView extends ChangeView {
  /** The live price of the chosen quantity: what a purchase confirms. */
  readonly preview: LatestTask<number, PricingResponse>;
  /** Prices the chosen quantity again at once (after a retry, a remedy). */
  reprice(): void;
  /**
   * After a purchase: the form as it first was, the quantity back to its default and priced
   * afresh (the price of the quantity just bought is no longer the news).
   */
  purchased(): void;
  /**
   * Prices the chosen quantity again, keeping the price shown until the new one comes (billing
   * changed elsewhere: nothing the customer did here).
   */
  refreshPrice(): void;
}

/**
 * The purchase flow of `<buy-feature>`, apart from its DOM: Buy prices the quantity and asks
 * for confirmation (unless the proxy says the purchase is free overall), Confirm records an
 * idempotency key and sends the purchase, and the outcome is shown, or kept as a failure with
 * its key when it is unknown, so that "Try again" or a later page re-sends the very same
 * request. The flow reports every failure, the preview's included, as `billing-error`.
 */
export class PurchaseController
  extends ConfirmedChange<Quote, PurchaseSuccess, PendingPurchase, PurchaseHost, PurchaseView>
  implements ReactiveController
{
  protected override readonly settle = settlePendingPurchase;

  /** The preview state last seen after an update, to report each of its errors once. */
  #reportedPreview: LatestTaskState<number, PricingResponse> | undefined;
  /**
   * The usages of the element's proxy, followed while it is connected: they name the feature and
   * tell what the plan includes, and their refresh may lift the refusal shown.
   */
  readonly #usages = new UsageStoreController(this.host, (state) => this.#usagesChanged(state));

  constructor(host: PurchaseHost, view: PurchaseView) {
    super(host, view);
    host.addController(this);
  }

  /** The preview's failure, when it failed. */
  get previewError(): BillingError | undefined {
    const state = this.view.preview.state;
    return state.status === 'error' ? toBillingError(state.error) : undefined;
  }

  /** The quantity last priced (whose price, then purchase, may have been refused). */
  get pricedIncrement(): number | undefined {
    const { state } = this.view.preview;
    return state.status === 'idle' ? undefined : state.args;
  }

  /** The failure to show: the purchase's, else the preview's. */
  get error(): BillingError | undefined {
    return this.failure?.error ?? this.previewError;
  }

  /**
   * Whether "Try again" can help: for a purchase, when its outcome is unknown (it re-sends the
   * same key); for the preview, when the way to the service failed, not the request itself.
   */
  get canRetry(): boolean {
    if (this.failure) return this.failure.pending !== undefined;
    const error = this.previewError;
    return error !== undefined && (error.retryable || error.code === 'invalid-response');
  }

  /**
   * Only a priced quantity can be bought (the preview is idle without a feature or for a
   * quantity that cannot be bought; a refusal's remedy or "Try again" is the way on after an
   * error). While a purchase's outcome is unknown, the only way on is to learn it.
   */
  get canBuy(): boolean {
    const { status } = this.view.preview.state;
    return (status === 'pending' || status === 'complete') && !this.failure?.pending;
  }

  hostUpdated(): void {
    const state = this.view.preview.state;
    if (state === this.#reportedPreview) return;
    this.#reportedPreview = state;
    this.report(this.previewError);
  }

  hostConnected(): void {
    document.addEventListener(BillingUpdatedEvent.type, this.#onUpdated);
  }

  hostDisconnected(): void {
    document.removeEventListener(BillingUpdatedEvent.type, this.#onUpdated);
  }

  /**
   * The element's feature or proxy changed, or it was connected: learn the outcome of a purchase
   * of that feature confirmed earlier and still pending.
   */
  retarget(): void {
    const { feature } = this.host;
    if (feature) this.resumeRecorded(feature, (endpoint) => readPendingPurchase(endpoint, feature));
  }

  /** Buy: prices `increment` now if it is not yet, then asks for confirmation or applies. */
  async buy(increment: number): Promise<void> {
    if (this.phase !== 'idle' || !this.canBuy) return;
    // Typed faster than the debounce: price the current quantity now rather than wait.
    const state = await this.prepare(() => this.view.preview.settled());
    if (state?.status !== 'complete' || state.args !== increment) return;
    const quote = { increment, pricing: state.value };
    // Only the proxy can tell a change that is free overall from one that costs nothing now
    // but raises the recurring price: anything short of its explicit `false` is confirmed.
    const free = quote.pricing.confirmationRequired === false;
    if (free && this.host.confirm !== 'always') await this.apply(quote);
    else await this.#ask(quote);
  }

  /**
   * "Try again": re-sends a purchase of unknown outcome with its key, or prices again; a
   * resumed purchase whose customer could not be checked is checked first.
   */
  async retry(): Promise<void> {
    await this.retryWith(() => this.view.reprice());
  }

  /** Another quantity was chosen: the last outcome goes, unless it is a purchase still unknown. */
  quantityChanged(): void {
    this.setSuccess(undefined);
    if (!this.failure?.pending) this.setFailure(undefined);
  }

  /** The quantity typed cannot be bought: the last purchase's success is no longer the news. */
  forgetSuccess(): void {
    this.setSuccess(undefined);
  }

  /**
   * Opens the dialog (or refreshes it) with the price to confirm, once the usages are known: the
   * dialog says how much of the quantity the plan includes.
   */
  async #ask(quote: Quote): Promise<void> {
    await this.#usages.store.load().catch(() => undefined);
    await this.ask(quote);
  }

  protected override applying({ increment, pricing }: Quote): Application<PendingPurchase> {
    const { feature } = this.host;
    const { AmountTotal: amount, NextTerm: nextTerm, ReferenceCustomer: customer } = pricing;
    return {
      before: new BillingBeforePurchaseEvent({ feature, increment, pricing }),
      record: () =>
        createPendingPurchase(
          this.endpoint,
          feature,
          increment,
          amount,
          customer,
          nextTerm?.AmountTotal,
        ),
    };
  }

  protected override async send(pending: PendingPurchase): Promise<void> {
    const request = purchaseRequestOf(pending);
    await this.sendRecorded(
      pending,
      (endpoint) => getProxyClient(endpoint).purchase(request, undefined, this.view.language()),
      (result, endpoint) => {
        const amountConfirmed = result.amountConfirmed !== false;
        this.applied({ usage: result.usage, amountConfirmed }, endpoint, result.usage);
        const purchased = new BillingPurchaseEvent({
          feature: pending.feature,
          increment: pending.increment,
          usage: result.usage,
          amountTotal: result.amountTotal,
          amountConfirmed,
          replayed: result.replayed,
        });
        this.host.dispatchEvent(purchased);
        this.view.purchased();
      },
    );
  }

  protected override askAgain(error: BillingError, { increment }: PendingPurchase): boolean {
    const priced = newPriceOf(error);
    if (!priced) return false;
    this.view.preview.set(increment, priced.pricing);
    void this.#ask({ increment, ...priced });
    return true;
  }

  protected override followUp(code: string, endpoint: string): void {
    if (code === 'upstream-error') this.refreshUsages(endpoint);
  }

  /**
   * The signed-in customer as the price preview tells it, else (priced nothing: refused, say)
   * as the proxy does, never a cache of another session's.
   */
  protected override async whoIsSignedIn(endpoint: string): Promise<string | undefined> {
    const state = await this.view.preview.settled();
    if (state.status === 'complete' && state.value.ReferenceCustomer)
      return state.value.ReferenceCustomer;
    return signedInCustomer(endpoint);
  }

  /**
   * Billing changed elsewhere (a suspension, a plan change, a purchase on another device): an idle
   * control prices again, and shows the new refusal or price.
   */
  readonly #onUpdated = (event: BillingUpdatedEvent): void => {
    if (this.phase !== 'idle' || event.detail.endpoint !== this.endpoint) return;
    // A purchase of unknown outcome stays: only "Try again", with its key, may send it.
    if (this.failure?.pending) return;
    if (this.failure === undefined) return this.view.refreshPrice();
    this.setFailure(undefined);
    this.view.reprice();
  };

  /**
   * After a remedy's workflow completes the usages refresh: price again, the refusal shown may be
   * gone. A purchase whose outcome is unknown stays (it has no remedy): only "Try again", with its
   * key, may send it.
   */
  #usagesChanged({ status, error }: UsageStoreState): void {
    // A failed price too: the page's retry (offered once, by another element) read again.
    const shown = this.error;
    const retried =
      status === 'ready' && this.failure === undefined && this.previewError?.retryable === true;
    if (this.phase === 'idle' && sessionChangedUnder(shown, error)) {
      this.view.reprice();
      return;
    }
    if (this.phase === 'idle' && shown && (remedyFor(shown.code) || retried)) {
      this.setFailure(undefined);
      this.view.reprice();
    }
  }
}

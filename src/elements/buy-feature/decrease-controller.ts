import type {
  DecreasePricingRequest,
  DecreaseResponse,
  PricingResponse,
} from '../../contract/proxy-api.js';
import type { Usage } from '../../contract/resources.js';
import type { BillingError } from '../../client/errors.js';
import { BillingBeforeDecreaseEvent, BillingDecreaseEvent } from '../../client/decrease-events.js';
import { getProxyClient } from '../../client/proxy-client.js';
import { getUsageStore, isUnlimited } from '../../client/usage-store.js';
import {
  ConfirmedChange,
  newPriceOf,
  type Application,
  type ChangeView,
} from '../shared/change-flow.js';
import {
  createPendingDecrease,
  readPendingDecrease,
  settlePendingDecrease,
  type PendingDecrease,
} from './pending-decrease.js';
import type { PurchaseHost } from './purchase-controller.js';
import { appliedDetail, confirmedTotals, sendUsageChange } from './usage-change.js';

// The decrease of <buy-feature allow-decrease>: a Limitation the customer owns ("seats") lowered
// by the quantity chosen, never below the floor (what the page says is in use, else the plan's
// included quantity, never below 0). Remove prices the decrease first; its confirmation shows
// what changes now (the new quantity, and whether anything is credited) and the next recurring
// price, and is always asked, as a purchase's is. A confirmed decrease is applied at most once:
// its idempotency key waits in sessionStorage until its outcome is known.

/** What the dialog asks the user to confirm: `from` units down to `quantity`, at `pricing`. */
export interface DecreaseQuote {
  from: number;
  quantity: number;
  pricing: PricingResponse;
  /** The price changed since it was shown (409 `price-changed`): asked again. */
  changed?: 'price-changed' | 'period-ending';
}

/** What the flow needs of the element. */
export interface DecreaseHost extends PurchaseHost {
  /** How many are in use, as the page says; undefined when it does not. */
  readonly inUse: number | undefined;
}

/** What the flow needs of the element's view. */
export interface DecreaseView extends ChangeView {
  /** A decrease was applied: the purchase's price is asked again. */
  decreased(): void;
}

/** A count the page gave: a whole number, 0 or more; anything else counts as not given. */
function countOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

export class DecreaseController extends ConfirmedChange<
  DecreaseQuote,
  DecreaseResponse,
  PendingDecrease,
  DecreaseHost,
  DecreaseView
> {
  protected override readonly settle = settlePendingDecrease;

  constructor(host: DecreaseHost, view: DecreaseView) {
    super(host, view);
    host.addController(this);
  }

  /** The feature's usage, as the page's usage store has it. */
  get usage(): Usage | undefined {
    return getUsageStore(this.host.endpoint).get(this.host.feature);
  }

  /** How many the page says are in use, when it gives a whole number. */
  get inUse(): number | undefined {
    return countOf(this.host.inUse);
  }

  /**
   * The lowest quantity a decrease may reach: what is in use, else the plan's included quantity;
   * never below 0. Undefined for anything but a Limitation with a limit (nothing to lower).
   */
  get floor(): number | undefined {
    const usage = this.usage;
    if (usage?.TypeFeature !== 'Limitation' || isUnlimited(usage)) return undefined;
    return Math.max(0, this.inUse ?? usage.QuantityIncluded ?? 0);
  }

  /** How many units can be removed: the current quantity above the floor. */
  get removable(): number {
    const floor = this.floor;
    if (floor === undefined) return 0;
    return Math.max(0, (this.usage?.QuantityCurrent ?? 0) - floor);
  }

  /** The refusal or failure to show. */
  get error(): BillingError | undefined {
    return this.failure?.error;
  }

  get canRetry(): boolean {
    const failure = this.failure;
    if (!failure) return false;
    return failure.pending !== undefined || failure.error.retryable;
  }

  /** Whether Remove may be pressed for `count` units now. */
  canRemove(count: number): boolean {
    return (
      this.phase === 'idle' &&
      !this.failure?.pending &&
      Number.isInteger(count) &&
      count > 0 &&
      count <= this.removable
    );
  }

  hostUpdated(): void {
    // A decrease of this feature confirmed before a reload, its outcome still unknown: learn it.
    const { feature } = this.host;
    if (feature) this.resumeRecorded(feature, (endpoint) => readPendingDecrease(endpoint, feature));
  }

  /** The last outcome is no longer the news (another quantity, a purchase). */
  forget(): void {
    this.setSuccess(undefined);
    if (!this.failure?.pending) this.setFailure(undefined);
    this.host.requestUpdate();
  }

  /** Remove: prices lowering the feature by `count`, then always asks for confirmation. */
  async remove(count: number): Promise<void> {
    if (!this.canRemove(count)) return;
    const from = this.usage?.QuantityCurrent ?? 0;
    const quantity = from - count;
    const pricing = await this.prepare(() =>
      getProxyClient(this.endpoint).getPricing(
        this.#request(quantity),
        undefined,
        this.view.language(),
      ),
    );
    if (pricing) await this.ask({ from, quantity, pricing });
  }

  /** "Try again": re-sends a decrease of unknown outcome with its key, or clears the refusal. */
  async retry(): Promise<void> {
    await this.retryWith(() => this.host.requestUpdate());
  }

  #request(quantity: number): DecreasePricingRequest {
    const inUse = this.inUse;
    return { feature: this.host.feature, quantity, ...(inUse === undefined ? {} : { inUse }) };
  }

  protected override applying({ quantity, pricing }: DecreaseQuote): Application<PendingDecrease> {
    const { feature } = this.host;
    const request = { ...this.#request(quantity), ...confirmedTotals(pricing) };
    return {
      before: new BillingBeforeDecreaseEvent({ feature, quantity, pricing }),
      record: () => createPendingDecrease(this.endpoint, request, pricing.ReferenceCustomer),
    };
  }

  protected override async send(pending: PendingDecrease): Promise<void> {
    await this.sendRecorded(
      pending,
      (endpoint) => sendUsageChange<DecreaseResponse>(pending, endpoint, this.view.language()),
      (result, endpoint) => {
        this.applied(result, endpoint, result.usage);
        this.view.decreased();
        this.host.dispatchEvent(
          new BillingDecreaseEvent({
            feature: pending.feature,
            quantity: pending.quantity,
            ...appliedDetail(result),
          }),
        );
      },
    );
  }

  protected override askAgain(error: BillingError, { quantity }: PendingDecrease): boolean {
    const priced = newPriceOf(error);
    if (!priced) return false;
    const from = this.usage?.QuantityCurrent ?? quantity;
    void this.ask({ from, quantity, ...priced });
    return true;
  }

  protected override followUp(code: string, endpoint: string): void {
    if (code !== 'not-a-decrease' && code !== 'below-in-use' && code !== 'below-included') return;
    // The quantity moved elsewhere (another tab): the usages tell what is left to remove.
    this.refreshUsages(endpoint);
  }
}

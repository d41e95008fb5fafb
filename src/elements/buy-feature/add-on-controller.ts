import type { Offer } from '../../contract/catalog.js';
import type { AddOnChangeResponse, PricingResponse } from '../../contract/proxy-api.js';
import type { Usage } from '../../contract/resources.js';
import { toBillingError, type BillingError } from '../../client/errors.js';
import { BillingAddOnChangeEvent, BillingBeforeAddOnChangeEvent } from '../../client/events.js';
import { remedyFor } from '../../client/portal.js';
import { getProxyClient } from '../../client/proxy-client.js';
import { getUsageStore } from '../../client/usage-store.js';
import type { Language } from '../../client/i18n.js';
import {
  ConfirmedChange,
  outcomeUnknown,
  type ChangeDialog,
  type ChangeFailure,
} from '../shared/change-flow.js';
import { LatestTask } from './latest-task.js';
import {
  createPendingAddOnChange,
  readPendingAddOnChange,
  settlePendingAddOnChange,
  switchAddOn,
  type PendingAddOnChange,
} from './pending-add-on.js';
import type { PurchaseHost } from './purchase-controller.js';
import { explainRefusal } from './refusal.js';

// The add-on mode of <buy-feature>: on an on/off feature ("Priority support") the control adds
// or removes the feature as a whole. Its price is asked as the switch the customer would make
// (IsEnabled: the opposite of what the usage shows), which also tells what can be done:
// - the service prices switching it on: an add-on sold apart, to add ("available");
// - it prices switching it off: an add-on bought, to remove ("owned");
// - it refuses switching it off: part of the plan ("included"), nothing to do;
// - it refuses switching it on (not sold apart, or not in the plan at all): a plan that includes
//   it is looked up among the offers ("elsewhere");
// - any other refusal (no payment method, suspended...) is shown with its remedy ("refused").
// Both ways ask for confirmation, always: adding costs money now and per period, removing
// changes the recurring price. A confirmed change is applied at most once (its idempotency key
// waits in sessionStorage until its outcome is known, as a purchase's does).

export type AddOnStanding =
  'unknown' | 'available' | 'owned' | 'included' | 'elsewhere' | 'refused';

/** The change the dialog asks the user to confirm. */
export interface AddOnQuote {
  enabled: boolean;
  pricing: PricingResponse;
  /** The price changed since it was shown (409 `price-changed`): asked again. */
  changed?: 'price-changed' | 'period-ending';
}

/** A failure of the change itself; `pending` when its outcome is unknown (retry, same key). */
export type AddOnFailure = ChangeFailure<PendingAddOnChange>;

/** What the flow needs of the element's view. */
export interface AddOnView extends ChangeDialog {
  /** The element's language: the service's price lines come in it. */
  language(): Language;
}

/** The service refuses to switch a feature the plan includes, or one it does not sell apart. */
const NOT_SWITCHABLE = new Set(['validation', 'Error.Api.Usage.NoneMatching']);

/** The cheapest plan the customer could move to that includes `feature`, if the offers say. */
function planIncluding(offers: readonly Offer[], feature: string): Offer | undefined {
  const including = offers.filter(
    (offer) =>
      !offer.IsCurrent &&
      !offer.IsOnRequest &&
      offer.Features?.some(
        (terms) => terms.ReferenceFeature === feature && terms.IsIncluded === true,
      ),
  );
  const price = (offer: Offer) => offer.AmountRecurrence ?? Number.POSITIVE_INFINITY;
  return including.sort((first, second) => price(first) - price(second))[0];
}

export class AddOnController extends ConfirmedChange<
  AddOnQuote,
  AddOnChangeResponse,
  AddOnFailure,
  PurchaseHost,
  AddOnView
> {
  /** A plan that includes the feature, for `elsewhere`; undefined while unknown or none. */
  #plan: Offer | undefined;
  /** The feature's title as the offers give it: a feature outside the plan has no usage. */
  #catalogTitle: string | undefined;
  #planLookedUpFor = '';
  #resumeCheckedFor = '';
  /** The preview state last reported, to report each of its errors once. */
  #reported: unknown;
  #unsubscribe: (() => void) | undefined;

  /** The price of the switch the customer would make: `args` is the state to switch to. */
  readonly preview: LatestTask<boolean, PricingResponse>;

  constructor(host: PurchaseHost, view: AddOnView) {
    super(host, view);
    this.preview = new LatestTask(host, (enabled, signal) => this.#price(enabled, signal));
    host.addController(this);
  }

  get plan(): Offer | undefined {
    return this.#plan;
  }

  /** The feature's title from the offers, once looked up (a feature without a usage). */
  get catalogTitle(): string | undefined {
    return this.#catalogTitle;
  }

  /** The feature's usage, as the page's usage store has it. */
  get usage(): Usage | undefined {
    return getUsageStore(this.host.endpoint).get(this.host.feature);
  }

  /** What the customer can do with the add-on, from the usage and the price of the switch. */
  get standing(): AddOnStanding {
    const state = this.preview.state;
    if (state.status === 'complete') return state.args ? 'available' : 'owned';
    if (state.status !== 'error') return 'unknown';
    const { code } = toBillingError(state.error);
    if (!NOT_SWITCHABLE.has(code)) return 'refused';
    return state.args ? 'elsewhere' : 'included';
  }

  /** The refusal to show: the change's, else the preview's when it is not a standing. */
  get error(): BillingError | undefined {
    if (this.failure) return this.failure.error;
    const state = this.preview.state;
    return state.status === 'error' && this.standing === 'refused'
      ? toBillingError(state.error)
      : undefined;
  }

  get canRetry(): boolean {
    if (this.failure) return this.failure.pending !== undefined;
    const error = this.error;
    return error !== undefined && (error.retryable || error.code === 'invalid-response');
  }

  /** Whether Add (or Remove) can be pressed: a priced switch, no change of unknown outcome. */
  get canChange(): boolean {
    const standing = this.standing;
    return (standing === 'available' || standing === 'owned') && !this.failure?.pending;
  }

  hostUpdated(): void {
    const state = this.preview.state;
    if (state === this.#reported) return;
    this.#reported = state;
    if (state.status === 'error' && this.standing === 'refused')
      this.report(toBillingError(state.error), this.host.feature);
    // A feature outside the plan (or without a running subscription) has no usage to name it:
    // the offers name it, and tell the plan that includes it.
    const settled = state.status === 'complete' || state.status === 'error';
    if (settled && (this.standing === 'elsewhere' || this.usage === undefined))
      void this.#lookUpPlan();
  }

  /**
   * Prices the switch the usage calls for (on when it is off, off when on), or again after a
   * change elsewhere; `keepShown` keeps the price on screen until the new one comes.
   */
  refresh(immediate = true, keepShown = false): void {
    if (!this.host.feature) {
      this.preview.reset();
      return;
    }
    // Without a usage (the plan lacks the feature) it is switching on that is asked, and refused.
    this.preview.run(this.usage?.IsEnabled !== true, immediate, { keepShown });
  }

  hostDisconnected(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  /**
   * The feature or proxy changed, or the element connected: follow that proxy's usages, and
   * learn the outcome of a change of that feature confirmed earlier and still pending.
   */
  retarget(): void {
    this.#unsubscribe?.();
    // After a remedy's workflow completes the usages refresh: price again, the refusal shown may
    // be gone. (A change of the usage itself is priced by the element's update.)
    this.#unsubscribe = getUsageStore(this.host.endpoint).subscribe(() => {
      if (this.error && remedyFor(this.error.code)) this.billingChanged();
    });
    this.setSuccess(undefined);
    this.setFailure(undefined);
    this.#plan = undefined;
    this.#catalogTitle = undefined;
    this.#planLookedUpFor = '';
    const target = `${this.endpoint}#${this.host.feature}`;
    if (!this.host.feature || this.phase !== 'idle' || this.#resumeCheckedFor === target) return;
    this.#resumeCheckedFor = target;
    const pending = readPendingAddOnChange(this.endpoint, this.host.feature);
    if (pending) void this.#resume(pending);
  }

  /** Add or Remove: prices the switch if needed, then always asks for confirmation. */
  async change(): Promise<void> {
    if (this.phase !== 'idle' || !this.canChange) return;
    this.setSuccess(undefined);
    this.setFailure(undefined);
    this.setPhase('preparing');
    const state = await this.preview.settled();
    this.setPhase('idle');
    if (state.status !== 'complete') return;
    await this.ask({ enabled: state.args, pricing: state.value });
  }

  /** The dialog's Confirm: applies the change shown. Only the first click of several counts. */
  async confirm(): Promise<void> {
    const quote = this.quote;
    if (this.phase !== 'confirming' || !quote) return;
    const { feature } = this.host;
    const { enabled, pricing } = quote;
    if (!this.pageAllows(new BillingBeforeAddOnChangeEvent({ feature, enabled, pricing }))) return;
    const pending = createPendingAddOnChange(
      this.endpoint,
      {
        feature,
        enabled,
        confirmedAmountTotal: pricing.AmountTotal,
        // The proxy always asks for the next term; without it, the recurring price is unchanged.
        confirmedNextTermAmountTotal: pricing.NextTerm?.AmountTotal ?? 0,
      },
      pricing.ReferenceCustomer,
    );
    await this.#send(pending);
  }

  /** "Try again": re-sends a change of unknown outcome with its key, or prices again. */
  async retry(): Promise<void> {
    await this.retryWith({
      send: (pending) => this.#send(pending),
      reprice: () => this.refresh(),
      resume: (pending) => this.#resume(pending),
    });
  }

  /** After a remedy or a change elsewhere: the refusal shown may be gone, price again. */
  billingChanged(): void {
    if (this.phase !== 'idle' || this.failure?.pending) return;
    const refused = this.failure !== undefined || this.standing === 'refused';
    this.setFailure(undefined);
    this.refresh(true, !refused);
  }

  async #price(enabled: boolean, signal: AbortSignal): Promise<PricingResponse> {
    const endpoint = this.endpoint;
    const request = { feature: this.host.feature, enabled };
    try {
      return await getProxyClient(endpoint).request<PricingResponse>(
        '/pricing',
        signal,
        request,
        this.view.language(),
      );
    } catch (caught) {
      throw await explainRefusal(toBillingError(caught), { endpoint, signal });
    }
  }

  async #lookUpPlan(): Promise<void> {
    const target = `${this.endpoint}#${this.host.feature}`;
    if (this.#planLookedUpFor === target) return;
    this.#planLookedUpFor = target;
    try {
      const { offers } = await getProxyClient(this.endpoint).getOffers();
      const { feature } = this.host;
      this.#plan = planIncluding(offers, feature);
      const terms = offers.flatMap((offer) => offer.Features ?? []);
      this.#catalogTitle = terms.find((term) => term.ReferenceFeature === feature)?.TitleLocalized;
    } catch {
      // No plan named: the prompt still opens the plans.
      this.#plan = undefined;
    }
    this.host.requestUpdate();
  }

  async #send(pending: PendingAddOnChange): Promise<void> {
    const endpoint = this.endpoint;
    this.setFailure(undefined);
    this.setPhase(this.phase === 'resuming' ? 'resuming' : 'applying');
    let result: AddOnChangeResponse;
    try {
      result = await switchAddOn(pending, endpoint);
    } catch (caught) {
      this.#changeFailed(endpoint, pending, toBillingError(caught));
      return;
    }
    settlePendingAddOnChange(endpoint, pending);
    this.applied(result, endpoint, result.usage);
    const changed = new BillingAddOnChangeEvent({
      feature: pending.feature,
      enabled: pending.enabled,
      usage: result.usage,
      amountTotal: result.amountTotal,
      nextTermAmountTotal: result.nextTermAmountTotal,
      replayed: result.replayed,
    });
    // The usage now shows the other state: the element's update prices the way back.
    this.host.dispatchEvent(changed);
  }

  #changeFailed(endpoint: string, pending: PendingAddOnChange, error: BillingError): void {
    const unknown = outcomeUnknown(error);
    if (!unknown) settlePendingAddOnChange(endpoint, pending);
    this.report(error, this.host.feature);
    const { code, pricing } = error;
    if ((code === 'price-changed' || code === 'period-ending') && pricing) {
      // Nothing was applied. Show the service's new price and ask again, with a new key.
      this.preview.set(pending.enabled, pricing);
      void this.ask({ enabled: pending.enabled, pricing, changed: code });
      return;
    }
    if (code === 'add-on-already-on' || code === 'add-on-already-off') {
      // Done elsewhere (another tab): the usages tell the state to show.
      getUsageStore(endpoint)
        .refresh()
        .catch(() => undefined);
    }
    this.setFailure({ error, pending: unknown ? pending : undefined });
    this.finish();
  }

  async #resume(pending: PendingAddOnChange): Promise<void> {
    const endpoint = this.endpoint;
    await this.resumeIfSameCustomer(pending, {
      settle: (stale) => settlePendingAddOnChange(endpoint, stale),
      cannotTell: (kept, error) => {
        this.setFailure({ error, pending: kept, verify: true });
      },
      send: (same) => this.#send(same),
    });
  }
}

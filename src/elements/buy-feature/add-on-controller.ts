import type { Offer } from '../../contract/catalog.js';
import type { AddOnChangeResponse, PricingResponse } from '../../contract/proxy-api.js';
import type { Usage } from '../../contract/resources.js';
import { toBillingError, type BillingError } from '../../client/errors.js';
import { BillingAddOnChangeEvent, BillingBeforeAddOnChangeEvent } from '../../client/events.js';
import { remedyFor } from '../../client/portal.js';
import { getProxyClient } from '../../client/proxy-client.js';
import { UsageStoreController } from '../../client/usage-store-controller.js';
import { getUsageStore } from '../../client/usage-store.js';
import {
  ConfirmedChange,
  newPriceOf,
  type Application,
  type ChangeView,
} from '../shared/change-flow.js';
import { LatestTask } from '../shared/latest-task.js';
import {
  createPendingAddOnChange,
  readPendingAddOnChange,
  settlePendingAddOnChange,
  type PendingAddOnChange,
} from './pending-add-on.js';
import type { PurchaseHost } from './purchase-controller.js';
import { billingOf, sessionChangedUnder } from './priced-against.js';
import { appliedDetail, confirmedTotals, sendUsageChange } from './usage-change.js';

// The add-on mode of <buy-feature>: on an on/off feature ("Priority support") the control adds
// or removes the feature as a whole.
// - Switched off (or not in the plan): the price of switching it on is asked, which also tells
//   what can be done: priced, an add-on sold apart, to add ("available"); refused as not
//   switchable (not sold apart, or not in the plan at all), a plan that includes it is looked up
//   among the offers ("elsewhere"); any other refusal (no payment method, suspended...) is shown
//   with its remedy ("refused").
// - Switched on: the current plan's offer tells whether the plan includes it ("included",
//   nothing to do) or it was bought as an add-on ("owned", Remove). Nothing is priced then: the
//   removal's price is asked when Remove is pressed and shown only in its confirmation, so that
//   an owned add-on never reads "Nothing to pay now $0.00", and an included one never costs a
//   refused request. When the offers cannot say, the removal is priced to learn it.
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

/** The service refuses to switch a feature the plan includes, or one it does not sell apart. */
const NOT_SWITCHABLE = new Set(['validation', 'Error.Api.Usage.NoneMatching']);

/**
 * What the current plan's offer says of a feature switched on: part of the plan, bought as an
 * add-on, or nothing readable (the offers failed, or do not list the current plan).
 */
type PlanTerms = 'included' | 'bought' | 'unread';

/** The terms of `feature` in the customer's current offer, as a PlanTerms. */
function termsOf(offers: readonly Offer[] | null, feature: string): PlanTerms {
  const current = offers?.find((offer) => offer.IsCurrent === true);
  const terms = current?.Features?.find((candidate) => candidate.ReferenceFeature === feature);
  if (terms?.IsAddOn === true) return 'bought';
  if (terms?.IsIncluded === true) return 'included';
  return 'unread';
}

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
  PendingAddOnChange,
  PurchaseHost
> {
  protected override readonly settle = settlePendingAddOnChange;

  /** A plan that includes the feature, for `elsewhere`; undefined while unknown or none. */
  #plan: Offer | undefined;
  /** The feature's title as the offers give it: a feature outside the plan has no usage. */
  #catalogTitle: string | undefined;
  #planLookedUpFor = '';
  /** The offers of `#offersFor`, asked once per proxy and feature (null: not readable). */
  #offers: Promise<Offer[] | null> | undefined;
  #offersFor = '';
  /** For a feature switched on: what the current plan says of it; undefined while unknown. */
  #terms: PlanTerms | undefined;
  /** The billing the latest price was asked against (see priced-against.ts). */
  #pricedAgainst = '';
  /** The preview state last reported, to report each of its errors once. */
  #reported: unknown;
  /**
   * The usages of the element's proxy, followed while it is connected. After a remedy's workflow
   * completes they refresh: price again, the refusal shown may be gone. (A change of the usage
   * itself is priced by the element's update.)
   */
  readonly #usages = new UsageStoreController(this.host, ({ status, error }) => {
    if (sessionChangedUnder(this.error, error)) return this.billingChanged();
    // A failed price too: the page's retry (offered once, by another element) read again.
    const retried =
      status === 'ready' && this.failure === undefined && this.error?.retryable === true;
    if (this.error && (remedyFor(this.error.code) || retried)) this.billingChanged();
  });

  /** The price of the switch the customer would make: `args` is the state to switch to. */
  readonly preview: LatestTask<boolean, PricingResponse>;

  constructor(host: PurchaseHost, view: ChangeView) {
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
    return this.#usages.store.get(this.host.feature);
  }

  /** What the customer can do with the add-on, from the usage, the plan and the price of the switch. */
  get standing(): AddOnStanding {
    const state = this.preview.state;
    if (this.#switchedOnKnown()) {
      if (this.#terms === 'included') return 'included';
      // Owned; a removal priced on Remove and refused says why, as any refusal.
      if (state.status !== 'error') return 'owned';
    }
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

  /** Whether the feature is switched on and its plan's terms are known (no removal priced to learn them). */
  #switchedOnKnown(): boolean {
    return this.usage?.IsEnabled === true && this.#terms !== undefined && this.#terms !== 'unread';
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
      this.report(toBillingError(state.error));
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
    if (this.usage?.IsEnabled === true) {
      // Switched on: the plan's terms tell included from owned; nothing is priced before Remove.
      if (this.#terms === undefined) {
        void this.#readTerms();
        return;
      }
      if (this.#terms !== 'unread') {
        if (this.preview.state.status !== 'idle') this.preview.reset();
        return;
      }
    }
    // Without a usage (the plan lacks the feature) it is switching on that is asked, and refused.
    this.preview.run(this.usage?.IsEnabled !== true, immediate, { keepShown });
  }

  /**
   * Whether the current plan includes the feature or it was bought (see PlanTerms). `again`
   * reads them anew while the terms known stay in use (Remove stays available meanwhile).
   */
  async #readTerms(again = false): Promise<void> {
    const target = this.#target;
    const offers = await this.#readOffers();
    if (target !== this.#target || (!again && this.#terms !== undefined)) return;
    const terms = termsOf(offers, this.host.feature);
    if (again && terms === this.#terms) return;
    this.#terms = terms;
    this.refresh();
    this.host.requestUpdate();
  }

  /**
   * The offers of the customer's segment, asked once per proxy, feature and language (they name
   * the feature and the plan that includes it in the element's language); null on failure.
   */
  #readOffers(): Promise<Offer[] | null> {
    const target = this.#offersTarget;
    if (!this.#offers || this.#offersFor !== target) {
      this.#offersFor = target;
      this.#offers = getProxyClient(this.endpoint)
        .getOffers(undefined, this.view.language())
        .then(
          ({ offers }) => offers,
          () => null,
        );
    }
    return this.#offers;
  }

  get #target(): string {
    return `${this.endpoint}#${this.host.feature}`;
  }

  /** What the offers were read for: the target in the element's language. */
  get #offersTarget(): string {
    return `${this.#target}#${this.view.language()}`;
  }

  /**
   * The feature or proxy changed, or the element connected: what was known of the add-on goes,
   * and the outcome of a change of that feature confirmed earlier and still pending is learnt.
   */
  retarget(): void {
    this.setSuccess(undefined);
    this.setFailure(undefined);
    this.#plan = undefined;
    this.#catalogTitle = undefined;
    this.#planLookedUpFor = '';
    this.#forgetPlan();
    const { feature } = this.host;
    if (feature)
      this.resumeRecorded(feature, (endpoint) => readPendingAddOnChange(endpoint, feature));
  }

  /** Add or Remove: prices the switch if needed, then always asks for confirmation. */
  async change(): Promise<void> {
    if (this.phase !== 'idle' || !this.canChange) return;
    const state = await this.prepare(() => {
      // An owned add-on's removal is priced now, for its confirmation alone.
      if (this.#switchedOnKnown()) this.preview.run(false, true);
      return this.preview.settled();
    });
    if (state?.status !== 'complete') return;
    await this.ask({ enabled: state.args, pricing: state.value });
  }

  /** "Try again": re-sends a change of unknown outcome with its key, or prices again. */
  async retry(): Promise<void> {
    await this.retryWith(() => this.refresh());
  }

  /**
   * After a remedy or a change elsewhere: the refusal shown may be gone, price again; after a
   * live update (`live`), only when the billing re-read is not the one the price shown was
   * asked against (see priced-against.ts).
   */
  billingChanged(live = false): void {
    if (this.phase !== 'idle' || this.failure?.pending) return;
    const priced = this.preview.state.status === 'complete';
    if (
      live &&
      priced &&
      this.#pricedAgainst === billingOf(getUsageStore(this.endpoint).state, this.host.feature)
    )
      return;
    const refused = this.failure !== undefined || this.standing === 'refused';
    this.setFailure(undefined);
    // Another plan may include the feature, or no longer: its terms are read again, those
    // known kept until the new ones come (a button that went unavailable meanwhile would ignore
    // a click).
    this.#offers = undefined;
    if (this.#terms !== undefined) void this.#readTerms(true);
    this.refresh(true, !refused);
  }

  /** Forgets what the offers said: the plan may have changed. */
  #forgetPlan(): void {
    this.#offers = undefined;
    this.#terms = undefined;
  }

  #price(enabled: boolean, signal: AbortSignal): Promise<PricingResponse> {
    const request = { feature: this.host.feature, enabled };
    this.#pricedAgainst = billingOf(getUsageStore(this.endpoint).state, this.host.feature);
    return getProxyClient(this.endpoint).getPricing(request, signal, this.view.language());
  }

  async #lookUpPlan(): Promise<void> {
    const target = this.#offersTarget;
    if (this.#planLookedUpFor === target) return;
    this.#planLookedUpFor = target;
    const offers = await this.#readOffers();
    const { feature } = this.host;
    // Without offers no plan is named: the prompt still opens the plans.
    this.#plan = offers ? planIncluding(offers, feature) : undefined;
    const terms = (offers ?? []).flatMap((offer) => offer.Features ?? []);
    this.#catalogTitle = terms.find((term) => term.ReferenceFeature === feature)?.TitleLocalized;
    this.host.requestUpdate();
  }

  protected override applying({ enabled, pricing }: AddOnQuote): Application<PendingAddOnChange> {
    const { feature } = this.host;
    const request = { feature, enabled, ...confirmedTotals(pricing) };
    return {
      before: new BillingBeforeAddOnChangeEvent({ feature, enabled, pricing }),
      record: () => createPendingAddOnChange(this.endpoint, request, pricing.ReferenceCustomer),
    };
  }

  protected override async send(pending: PendingAddOnChange): Promise<void> {
    await this.sendRecorded(
      pending,
      (endpoint) => sendUsageChange<AddOnChangeResponse>(pending, endpoint, this.view.language()),
      (result, endpoint) => {
        // Added here: bought, not part of the plan (what the offers would say, without asking).
        this.#terms = pending.enabled ? 'bought' : undefined;
        this.applied(result, endpoint, result.usage);
        const changed = new BillingAddOnChangeEvent({
          feature: pending.feature,
          enabled: pending.enabled,
          ...appliedDetail(result),
        });
        // The usage now shows the other state: the element's update prices the way back.
        this.host.dispatchEvent(changed);
      },
    );
  }

  protected override askAgain(error: BillingError, { enabled }: PendingAddOnChange): boolean {
    const priced = newPriceOf(error);
    if (!priced) return false;
    this.preview.set(enabled, priced.pricing);
    void this.ask({ enabled, ...priced });
    return true;
  }

  protected override followUp(code: string, endpoint: string): void {
    if (code !== 'add-on-already-on' && code !== 'add-on-already-off') return;
    // Done elsewhere (another tab): the usages tell the state to show.
    this.refreshUsages(endpoint);
  }
}

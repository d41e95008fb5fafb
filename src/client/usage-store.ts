import type { Usage } from '../contract/resources.js';
import type { OfferFeature, Offer } from '../contract/catalog.js';
import type {
  SubscriptionStatus,
  SuspensionReason,
  UsagesResponse,
} from '../contract/proxy-api.js';
import { UNLIMITED_QUANTITY } from '../contract/constants.js';
import { getBillingConfig, resolveEndpoint } from './config.js';
import { announceUpdate, subscribeLive } from './live.js';
import { toBillingError, type BillingError } from './errors.js';
import { toLanguage, type Language } from './i18n.js';
import { pageLang, watchLang } from './lang-observer.js';
import { getProxyClient, type ProxyClient } from './proxy-client.js';
import { forgetSavedUsages, saveUsages, savedUsages } from './usage-cache.js';
import { listenToOtherTabs, postToOtherTabs, type ChannelMessage } from './usage-channel.js';

// The store of a proxy's usages, one per page (this file); kept for the tab's session by
// usage-cache.ts, and in step with the other tabs by usage-channel.ts.

export type {
  ChannelMessage,
  ClearMessage,
  UpdatedMessage,
  UsagesMessage,
} from './usage-channel.js';

export type UsageStoreStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface UsageStoreState {
  /** `loading` only while nothing is known yet; a refresh keeps `ready` and the old usages. */
  status: UsageStoreStatus;
  /** Empty unless `ready`. */
  usages: readonly Usage[];
  /** The last failure; kept with `ready` when a refresh failed but older usages remain. */
  error: BillingError | null;
  /** When the usages were fetched (ms since epoch), wherever that happened. */
  updatedAt: number | null;
  /**
   * What the usages alone cannot tell, asked only when there are none: `none` (no subscription:
   * choose a plan), `pending` (created, checkout not completed) or another status; `suspended`
   * when the proxy says the subscription of the usages is (they then give no rights). Null while
   * the customer's usages give their rights (a running subscription).
   */
  subscription: SubscriptionStatus | null;
  /** With a suspended subscription: overdue invoices block its restart (pay them first). */
  paymentCappingReached: boolean;
  /**
   * With a suspended subscription: why, as it stands now (`payment-method-invalid`: add a valid
   * payment method before restarting); null otherwise, or from a proxy that does not say.
   */
  suspensionReason: SuspensionReason | null;
  /** With a pending subscription: the features of its plan, from the offers (empty if unknown). */
  pendingFeatures: readonly OfferFeature[];
}

/** What the store knows beyond the usages (see UsageStoreState). */
export type Account = Pick<
  UsageStoreState,
  'subscription' | 'pendingFeatures' | 'paymentCappingReached' | 'suspensionReason'
>;
const NO_ACCOUNT: Account = {
  subscription: null,
  pendingFeatures: [],
  paymentCappingReached: false,
  suspensionReason: null,
};

export type UsageListener = (state: UsageStoreState) => void;

/**
 * How far new usages go: this page only (they came from the session cache), also the session
 * cache (they came from another tab), or also the other tabs (this tab fetched or changed them).
 */
type Reach = 'page' | 'session' | 'other-tabs';

/**
 * The page's language (`<html lang>`, English when it names none, as for the elements' own
 * words), in which the usages' texts (`TitleLocalized`) are asked for.
 */
function pageLanguage(): Language {
  return toLanguage(pageLang());
}

/** True when access is unlimited (`QuantityIncluded` of -1). */
export function isUnlimited(usage: Usage): boolean {
  return usage.QuantityIncluded === UNLIMITED_QUANTITY;
}

/**
 * The usages of the signed-in customer for one proxy, shared by everything on the page:
 * fetched once (whatever the number of callers), kept in sessionStorage for the browser
 * session, refreshed after purchases and portal workflows, and kept in step across tabs.
 */
export class UsageStore {
  readonly endpoint: string;
  #state: UsageStoreState = {
    status: 'idle',
    usages: [],
    error: null,
    updatedAt: null,
    ...NO_ACCOUNT,
  };
  /** The service's offers, once asked (null: no catalogue). */
  #catalogue: Promise<readonly Offer[] | null> | undefined;
  #listeners = new Set<UsageListener>();
  #inflight: Promise<readonly Usage[]> | null = null;
  /** Counts the fetches (and clears): an answer is kept only when it is the latest one's. */
  #latestRequest = 0;
  /** Stops the live updates, while anyone listens. */
  #stopLive: (() => void) | undefined;
  /** A refresh asked by a live signal is under way; `again`: another signal came meanwhile. */
  #liveRefresh: { again: boolean } | undefined;
  /** The language of the usages shown, and that of the latest request (see pageLanguage). */
  #language = '';
  #askedLanguage = '';
  /** Stops following the page's language, while anyone listens. */
  #stopLanguage: (() => void) | undefined;

  constructor(endpoint: string) {
    this.endpoint = endpoint;
  }

  /** The proxy's client, which knows the customer this page shows. */
  get #client(): ProxyClient {
    return getProxyClient(this.endpoint);
  }

  /** A snapshot of the current state. */
  get state(): UsageStoreState {
    return this.#state;
  }

  /**
   * The usages, fetched at most once per browser session: from memory, else from
   * sessionStorage, else with one `GET /usages` shared by every concurrent caller.
   */
  load(): Promise<readonly Usage[]> {
    // Another customer signed in since the page opened: asked again only on purpose (a retry,
    // a live signal), not by each element that loads, which would ask over and over.
    const { error } = this.#state;
    if (error?.code === 'session-changed' && this.#state.status === 'error')
      return Promise.reject(error);
    if (this.#state.status !== 'ready') {
      if (this.#inflight) return this.#inflight;
      const saved = savedUsages(this.endpoint);
      // Saved in another language (the page switched since): asked again in this one. Saved
      // for another customer than the one this page's answers named: asked for this one.
      if (
        !saved ||
        (saved.language ?? '') !== pageLanguage() ||
        (saved.customer !== undefined && !this.#client.adoptCustomer(saved.customer))
      )
        return this.#fetch();
      this.#language = saved.language ?? '';
      this.#accept(saved.usages, saved.at, 'page', saved.account ?? NO_ACCOUNT);
    }
    return Promise.resolve(this.#state.usages);
  }

  /** Fetches the usages anew (after a purchase or a completed workflow) and tells other tabs. */
  refresh(): Promise<readonly Usage[]> {
    return this.#fetch();
  }

  /** The usage of one feature, or undefined when it is unknown or not in the plan. */
  get(feature: string): Usage | undefined {
    return this.#state.usages.find((usage) => usage.ReferenceFeature === feature);
  }

  /**
   * Whether the customer may use the feature now. On/off features: included and enabled.
   * Quantities: whether `quantity` more units (default 1) fit in what the plan includes,
   * unlimited access always fitting. False for a feature not in the plan or not loaded.
   */
  isEntitled(feature: string, quantity = 1): boolean {
    // A suspended subscription's usages give no rights until it runs again (the proxy's
    // isEntitled says the same).
    if (this.#state.subscription === 'suspended') return false;
    const usage = this.get(feature);
    if (usage?.TypeFeature === 'OnOff')
      return usage.IsIncluded !== false && usage.IsEnabled !== false;
    // Unlimited fits any quantity, even one that is not a number; without a known quantity
    // (remaining() undefined, compared as NaN) nothing fits.
    return (
      usage?.QuantityIncluded === UNLIMITED_QUANTITY ||
      quantity <= (this.remaining(feature) ?? Number.NaN)
    );
  }

  /** Units left before the included quantity is reached: Infinity when unlimited, undefined when not a quantity. */
  remaining(feature: string): number | undefined {
    const usage = this.get(feature);
    if (!usage || usage.TypeFeature === 'OnOff' || usage.QuantityIncluded === undefined)
      return undefined;
    if (isUnlimited(usage)) return Number.POSITIVE_INFINITY;
    return Math.max(0, usage.QuantityIncluded - (usage.QuantityCurrent ?? 0));
  }

  /** Calls `listener` on every change (not immediately); returns the function that stops it. */
  subscribe(listener: UsageListener): () => void {
    this.#listeners.add(listener);
    // While anyone listens, the proxy's event stream tells the page when billing changed.
    if (this.#stopLive === undefined && getBillingConfig().live)
      this.#stopLive = subscribeLive(this.endpoint, () => this.#onSignal());
    this.#stopLanguage ??= this.#followLanguage();
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) {
        this.#stopLive?.();
        this.#stopLive = undefined;
        this.#stopLanguage?.();
        this.#stopLanguage = undefined;
      }
    };
  }

  /**
   * The usages' texts are the service's, in the language they were asked in: when the page
   * changes its language, known usages are asked for again in the new one.
   */
  #followLanguage(): () => void {
    return watchLang(() => {
      if (pageLanguage() === this.#askedLanguage || this.#state.status === 'idle') return;
      this.refresh().catch(() => {
        // The failure is in the store's state, where the elements show it.
      });
    });
  }

  /** A live signal: refresh once (signals that come meanwhile make one more), then say so. */
  #onSignal(): void {
    if (this.#liveRefresh !== undefined) {
      this.#liveRefresh.again = true;
      return;
    }
    const run = (this.#liveRefresh = { again: false });
    this.refresh()
      .then(
        () => {
          postToOtherTabs({ type: 'updated', endpoint: this.endpoint, at: Date.now() });
          announceUpdate(this.endpoint);
        },
        () => {
          // The failure is in the store's state, where the elements show it.
        },
      )
      .finally(() => {
        this.#liveRefresh = undefined;
        if (run.again) this.#onSignal();
      });
  }

  /** Merges one updated usage (the answer of a purchase), saves it and tells every listener and tab. */
  applyUsage(usage: Usage): void {
    const usages = [...this.#state.usages];
    const index = usages.findIndex((known) => known.ReferenceFeature === usage.ReferenceFeature);
    if (index === -1) usages.push(usage);
    else usages[index] = { ...usages[index], ...usage };
    this.#accept(usages, Date.now(), 'other-tabs', NO_ACCOUNT);
  }

  /**
   * Forgets the usages here and in the other tabs (call it on sign-out, and on a sign-in
   * without a page load): the next answers may be of another customer.
   */
  clear(): void {
    this.#forget();
    this.#client.forgetCustomer();
    postToOtherTabs({ type: 'clear', endpoint: this.endpoint, at: Date.now() });
  }

  /** @internal Applies a message of another tab. */
  receive(message: ChannelMessage): void {
    if (message.type === 'clear') {
      this.#forget();
      return;
    }
    if (message.type === 'updated') {
      announceUpdate(this.endpoint);
      return;
    }
    // Only the usages of this page's customer are taken from another tab, and a page learns
    // its customer from its own answers: another tab's may predate a sign-in there or here.
    // Another customer's usages are a sign that one signed in: asked again, the proxy says who
    // is signed in now, this page's customer (a tab identified otherwise, by a token) or the
    // other one, which then shows as `session-changed`.
    const shown = this.#client.customer;
    const theirs = message.customer ?? null;
    if (theirs !== shown) {
      if (theirs !== null && shown !== null && this.#state.status !== 'idle')
        this.#fetch('session').catch(() => undefined);
      return;
    }
    if (this.#state.updatedAt !== null && message.at < this.#state.updatedAt) return;
    // Another tab's usages in another language: the change, in this page's words, kept to this
    // tab (told back, the other tab would ask again in its language, and so on).
    if ((message.language ?? '') !== pageLanguage()) {
      if (this.#state.status !== 'idle') this.#fetch('session').catch(() => undefined);
      return;
    }
    this.#language = message.language ?? '';
    this.#accept(message.usages, message.at, 'session', message.account ?? NO_ACCOUNT);
  }

  #forget(): void {
    this.#latestRequest += 1;
    this.#inflight = null;
    forgetSavedUsages(this.endpoint);
    this.#catalogue = undefined;
    this.#set({ status: 'idle', usages: [], error: null, updatedAt: null, ...NO_ACCOUNT });
  }

  /** Asks the proxy for the usages; `reach`: how far they go (the other tabs unless said). */
  #fetch(reach: Reach = 'other-tabs'): Promise<readonly Usage[]> {
    this.#latestRequest += 1;
    const request = this.#latestRequest;
    if (this.#state.status !== 'ready')
      this.#set({ ...this.#state, status: 'loading', error: null });
    const language = (this.#askedLanguage = pageLanguage());
    const attempt = getProxyClient(this.endpoint)
      .getUsages(undefined, language)
      .then(async (answer) => ({ usages: answer.usages, account: await this.#accountOf(answer) }))
      .then(
        ({ usages, account }) => {
          // A later request supersedes this one: its answer may predate a purchase.
          if (request !== this.#latestRequest) return this.#inflight ?? this.#state.usages;
          this.#inflight = null;
          this.#language = language;
          this.#accept(usages, Date.now(), reach, account);
          return this.#state.usages;
        },
        (reason: unknown) => {
          if (request !== this.#latestRequest) return this.#inflight ?? this.#state.usages;
          this.#inflight = null;
          const error = toBillingError(reason);
          // A session that ended, or another customer's signed in since (`session-changed`),
          // shows no more of the customer's usages, however recent.
          const ended = error.code === 'unauthenticated' || error.code === 'session-changed';
          if (ended) forgetSavedUsages(this.endpoint);
          const keep = this.#state.updatedAt !== null && !ended;
          this.#set(
            keep
              ? { ...this.#state, status: 'ready', error }
              : { ...this.#state, status: 'error', error, usages: [], updatedAt: null },
          );
          throw error;
        },
      );
    this.#inflight = attempt;
    return attempt;
  }

  /**
   * What the usages cannot say: nothing when there are some (the happy path makes no other
   * request); without any, the subscription's status (`GET /subscription`), and with a pending
   * one the features of its plan (`GET /offers`). A failure of either reads as no subscription
   * (an empty usage list says as much) or as unknown allowances.
   */
  async #accountOf({ usages, suspended }: UsagesResponse): Promise<Account> {
    if (suspended) {
      const { paymentCappingReached, reason = null } = suspended;
      return {
        subscription: 'suspended',
        pendingFeatures: [],
        paymentCappingReached,
        suspensionReason: reason,
      };
    }
    if (usages.length > 0) return NO_ACCOUNT;
    const client = getProxyClient(this.endpoint);
    const status = await client.getSubscription().then(
      (answer) => answer,
      () => null,
    );
    const subscription = status?.status ?? 'none';
    if (subscription !== 'pending') return { ...NO_ACCOUNT, subscription };
    const offers = await readOffers(this.endpoint);
    const plan = offers?.find((offer) => offer.ReferenceOffer === status?.offer);
    return { ...NO_ACCOUNT, subscription, pendingFeatures: plan?.Features ?? [] };
  }

  /**
   * The service's offers of the customer's segment (what a plan lacking a feature is compared
   * with), null when the proxy gives no catalogue. Asked once per store (and customer), only
   * when an element needs them.
   */
  offers(): Promise<readonly Offer[] | null> {
    this.#catalogue ??= readOffers(this.endpoint);
    return this.#catalogue;
  }

  /** Shows the usages (copies of them), and saves them or tells the other tabs as far as `reach`. */
  #accept(usages: readonly Usage[], at: number, reach: Reach, account: Account): void {
    const copy = usages.map((usage) => ({ ...usage }));
    // A merged purchase keeps what was known of the subscription while the list stays empty.
    const known = account === NO_ACCOUNT && copy.length === 0 ? this.#state : account;
    const kept: Account = {
      subscription: known.subscription,
      pendingFeatures: known.pendingFeatures,
      // Absent from what an older version saved.
      paymentCappingReached: known.paymentCappingReached ?? false,
      suspensionReason: known.suspensionReason ?? null,
    };
    this.#set({ status: 'ready', usages: copy, error: null, updatedAt: at, ...kept });
    if (reach === 'page') return;
    const language = this.#language;
    const customer = this.#client.customer ?? undefined;
    const saved = { usages: copy, at, account: kept, language, customer };
    saveUsages(this.endpoint, saved);
    if (reach === 'other-tabs')
      postToOtherTabs({ type: 'usages', endpoint: this.endpoint, ...saved });
  }

  #set(state: UsageStoreState): void {
    this.#state = state;
    for (const listener of [...this.#listeners]) {
      try {
        listener(state);
      } catch (error) {
        // One faulty listener of the host app must not keep the others from hearing.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}

/**
 * The offers of the customer's segment (`GET /offers`), or null when the proxy cannot give them
 * (an older proxy, a failure): the catalogue is a help, never a reason to fail.
 */
function readOffers(endpoint: string): Promise<Offer[] | null> {
  return getProxyClient(endpoint)
    .getOffers(undefined, pageLanguage())
    .then(
      ({ offers }) => offers,
      () => null,
    );
}

const stores = new Map<string, UsageStore>();

/** A message of another tab, for the store of its proxy on this page (if any). */
function receiveFromOtherTabs(message: ChannelMessage): void {
  stores.get(String(message.endpoint))?.receive(message);
}

/** The usage store of a proxy (the page's configured one by default): one per endpoint per page. */
export function getUsageStore(endpoint?: string | null): UsageStore {
  const resolved = resolveEndpoint(endpoint);
  let store = stores.get(resolved);
  if (!store) {
    store = new UsageStore(resolved);
    stores.set(resolved, store);
    listenToOtherTabs(receiveFromOtherTabs);
  }
  return store;
}

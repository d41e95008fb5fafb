import { FEATURE_REFERENCE_PATTERN, UNLIMITED_QUANTITY } from '../contract/constants.js';
import type { SuspensionReason } from '../contract/proxy-api.js';
import type { Subscription, Usage } from '../contract/resources.js';
import { isMissing } from './context.js';
import type { SignalBus } from './notifications/signals.js';
import { suspensionReason } from './suspension.js';
import type { CallContext, UpstreamClient } from './upstream.js';

// The server-side check behind <feature-gate>: the same rule as the browser's usage store, on
// the same data (GET /v1/Usages), for the host's own routes. A short cache per customer keeps a
// page of gated API calls from costing one upstream read each; any signal for the customer (a
// notification of the service, a purchase or plan change through this proxy, `notify()`)
// forgets it at once, on every instance sharing the signal bus.

/** How long a customer's usages answer entitlement checks before they are read again. */
export const ENTITLEMENT_CACHE_MS = 10_000;

/**
 * Whether a subscription is suspended. The service says suspension changes what a customer may
 * use (its `Subscription Suspended…` events are among those that do): a suspended
 * subscription's usages give no rights until it runs again, whatever they include.
 */
function isSuspended(subscription: Pick<Subscription, 'StateSubscription'> | null): boolean {
  return subscription?.StateSubscription?.startsWith('Suspended') === true;
}

/** A read that finds no customer or subscription answers null; other failures stay failures. */
function orNullWhenMissing(error: unknown): null {
  if (isMissing(error)) return null;
  throw error;
}

/** Whether `quantity` more units of a feature fit the customer's usages (the client's rule). */
export function usagesEntitle(usages: Usage[], feature: string, quantity = 1): boolean {
  const usage = usages.find((candidate) => candidate.ReferenceFeature === feature);
  if (!usage) return false;
  if (usage.TypeFeature === 'OnOff') return usage.IsIncluded !== false && usage.IsEnabled !== false;
  if (usage.QuantityIncluded === UNLIMITED_QUANTITY) return true;
  if (usage.QuantityIncluded === undefined) return false;
  return quantity <= Math.max(0, usage.QuantityIncluded - (usage.QuantityCurrent ?? 0));
}

interface Entry {
  usages: Promise<Usage[]>;
  readAt: number;
}

/** What GET /usages adds when the customer's subscription is suspended. */
export interface Suspension {
  paymentCappingReached: boolean;
  /** Why it is suspended (see suspensionReason). */
  reason: SuspensionReason;
}

/** How long a running subscription is taken as running before it is read again. */
export const RUNNING_STATE_CACHE_MS = 10_000;
/** Customers whose running state is remembered at once; the oldest make room. */
const RUNNING_STATE_CACHE_SIZE = 10_000;

export interface SuspensionCheck {
  /** The customer's suspension, or null when its subscription runs (or it has none). */
  suspensionOf(customer: string, call?: CallContext): Promise<Suspension | null>;
  /**
   * Whether the customer's subscription is known to run now (suspensionOf would answer null
   * without reading it): a route may then skip the read and its promise.
   */
  knownRunning(customer: string): boolean;
  /** Stops following the signal bus. */
  close(): void;
}

/**
 * Whether a customer's subscription is suspended, for GET /usages: the usages alone do not say
 * it. Reading the subscription beside every usages read would double the upstream calls of the
 * proxy's most frequent route, so a subscription found running is taken as running for
 * {@link RUNNING_STATE_CACHE_MS}, forgotten at once on any signal for the customer (the
 * service's suspension notifications among them). A suspended one is never remembered: a
 * restart shows at the next read. A customer or subscription the service does not know is not
 * suspended (its usages are empty anyway); any other failure is the read's, and nothing is
 * remembered.
 */
export function createSuspensionCheck(
  upstream: UpstreamClient,
  signals: SignalBus,
  now: () => number = Date.now,
): SuspensionCheck {
  const runningSince = new Map<string, number>();
  const unsubscribe = signals.subscribe(({ customer }) => runningSince.delete(customer));

  const knownRunning = (customer: string) => {
    const readAt = runningSince.get(customer);
    return readAt !== undefined && now() - readAt < RUNNING_STATE_CACHE_MS;
  };

  return {
    knownRunning,
    async suspensionOf(customer, call) {
      if (knownRunning(customer)) return null;
      runningSince.delete(customer);
      const subscription = await upstream.subscriptionOf(customer, call).catch(orNullWhenMissing);
      if (subscription !== null && isSuspended(subscription)) {
        return {
          paymentCappingReached: subscription.IsPaymentCappingReached === true,
          reason: await suspensionReason(upstream, subscription, call),
        };
      }
      if (runningSince.size >= RUNNING_STATE_CACHE_SIZE) {
        const oldest = runningSince.keys().next().value;
        if (oldest !== undefined) runningSince.delete(oldest);
      }
      runningSince.set(customer, now());
      return null;
    },
    close: unsubscribe,
  };
}

export interface EntitlementChecker {
  isEntitled(customer: string, feature: string, quantity?: number): Promise<boolean>;
  /** Stops following the signal bus. */
  close(): void;
}

export function createEntitlementChecker(
  upstream: UpstreamClient,
  signals: SignalBus,
  suspensions: SuspensionCheck,
  now: () => number = Date.now,
): EntitlementChecker {
  const cache = new Map<string, Entry>();
  const unsubscribe = signals.subscribe(({ customer }) => cache.delete(customer));

  function usagesOf(customer: string): Promise<Usage[]> {
    const cached = cache.get(customer);
    if (cached && now() - cached.readAt < ENTITLEMENT_CACHE_MS) return cached.usages;
    // Read together: the usages, and whether the subscription is suspended (no rights then).
    const usages = Promise.all([upstream.usages(customer), suspensions.suspensionOf(customer)])
      .then(([all, suspended]) => (suspended === null ? all : []))
      .catch((error: unknown) => {
        // A customer the service does not know, or without subscription, is entitled to nothing.
        if (isMissing(error)) return [];
        cache.delete(customer);
        throw error;
      });
    cache.set(customer, { usages, readAt: now() });
    return usages;
  }

  return {
    async isEntitled(customer, feature, quantity = 1) {
      if (typeof customer !== 'string' || customer === '')
        throw new TypeError('isEntitled: customer must be a non-empty customer reference.');
      if (typeof feature !== 'string' || !FEATURE_REFERENCE_PATTERN.test(feature))
        throw new TypeError(
          `isEntitled: feature must be a feature reference (1-128 letters, digits, ".", "_", ":" or "-"), got ${JSON.stringify(feature)}.`,
        );
      if (!Number.isInteger(quantity) || quantity < 1)
        throw new TypeError(
          `isEntitled: quantity must be a whole number of 1 or more, got ${quantity}.`,
        );
      return usagesEntitle(await usagesOf(customer), feature, quantity);
    },
    close: unsubscribe,
  };
}

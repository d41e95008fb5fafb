import type { UsageStoreState } from '../../client/usage-store.js';

// A live update re-reads the usages; the price shown is asked again only when they (or the
// subscription's state) differ from those it was asked against. A purchase here is followed by
// the service's notifications of it, each re-reading the same usages, and its price was already
// asked after it: asking again would send the same request once per notification. What the
// usages do not show (a discount added, say) is still caught before any charge: the proxy checks
// the confirmed price and the dialog asks again when it changed.

/**
 * What a price depends on that the page's usage store knows: the usages and the subscription's
 * state, as one string to compare.
 */
export function billingOf({
  usages,
  subscription,
  paymentCappingReached,
  suspensionReason,
}: UsageStoreState): string {
  return JSON.stringify([usages, subscription, paymentCappingReached, suspensionReason]);
}

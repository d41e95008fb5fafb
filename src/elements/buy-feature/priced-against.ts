import type { BillingError } from '../../client/errors.js';
import type { UsageStoreState } from '../../client/usage-store.js';

// A live update re-reads the usages; the price shown is asked again only when they (or the
// subscription's state) differ from those it was asked against. A purchase here is followed by
// the service's notifications of it, each re-reading the same usages, and its price was already
// asked after it: asking again would send the same request once per notification. What the
// usages do not show (a discount added, say) is still caught before any charge: the proxy checks
// the confirmed price and the dialog asks again when it changed.

/**
 * What a price of `feature` depends on that the page's usage store knows: the usages and the
 * subscription's state, as one string to compare. The use so far of another consumption feature
 * (API calls, say, reported as the product is used) does not move this price, and a busy
 * product reports it several times a second: each report re-reads the usages, and asking the
 * price again after each would spend the customer's rate limit on prices that cannot change.
 */
export function billingOf(
  { usages, subscription, paymentCappingReached, suspensionReason }: UsageStoreState,
  feature: string,
): string {
  const priced = usages.map((usage) =>
    usage.TypeFeature === 'Consumption' && usage.ReferenceFeature !== feature
      ? { ...usage, QuantityCurrent: undefined }
      : usage,
  );
  return JSON.stringify([priced, subscription, paymentCappingReached, suspensionReason]);
}

/**
 * Whether another customer signed in since the page opened (the usages say `session-changed`)
 * while the element shows something else: it then prices again, which the proxy refuses for
 * this page's customer, so that the refusal replaces a price that can no longer be bought.
 */
export function sessionChangedUnder(
  shown: BillingError | undefined,
  usagesError: BillingError | null,
): boolean {
  return usagesError?.code === 'session-changed' && shown?.code !== 'session-changed';
}

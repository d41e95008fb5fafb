import type { PricingUsageResult, Subscription } from '../../contract/index.js';
import { taxesOf, type RouteContext } from '../context.js';
import { ProxyError } from '../errors.js';

/**
 * Whether the user must confirm a priced change before it is applied. A change that costs
 * something now always needs it. One that costs nothing now may still raise the recurring price
 * (at the very end of a billing period the prorated amount rounds to 0): it is free only when its
 * next-term price is no higher than what the subscription costs today, after discounts. Only
 * then is the subscription read, so a billable price stays one upstream call. Whenever that
 * cannot be told (no NextTerm, no current price, the read fails), confirmation is required.
 */
export async function confirmationRequired(
  context: RouteContext,
  pricing: PricingUsageResult,
): Promise<boolean> {
  if (pricing.AmountTotal !== 0) return true;
  const nextTerm = pricing.NextTerm?.AmountTotal;
  if (typeof nextTerm !== 'number') return true;
  let current: number | undefined;
  try {
    const subscription = await context.upstream.subscriptionOf(
      context.identity.reference,
      context.call,
    );
    current = currentRecurringTotal(subscription);
  } catch {
    return true;
  }
  return current === undefined || nextTerm > current;
}

/**
 * The subscription's recurring price after discounts: the sandbox's (and live service's
 * extension) `AmountRecurrenceDiscounted`, else the seed's `AmountRecurrence` when no discount
 * applies; undefined when it cannot be told.
 */
export function currentRecurringTotal(subscription: Subscription): number | undefined {
  const discounted = subscription.AmountRecurrenceDiscounted;
  if (typeof discounted === 'number' && Number.isInteger(discounted)) return discounted;
  const undiscounted = subscription.AmountRecurrence;
  const hasDiscounts = (subscription.Discounts?.length ?? 0) > 0;
  return typeof undiscounted === 'number' && !hasDiscounts ? undiscounted : undefined;
}

/**
 * Whether the service's price is the one the customer confirmed, now and from the next term (a
 * purchase, an add-on switched, a decrease). The next term's is checked only when the request
 * sent it: a purchase from a page older than the recurring price's confirmation has the amount
 * due now alone.
 */
export function matchesConfirmation(
  pricing: PricingUsageResult,
  confirmed: { confirmedAmountTotal: number; confirmedNextTermAmountTotal?: number | undefined },
): boolean {
  if (pricing.AmountTotal !== confirmed.confirmedAmountTotal) return false;
  const nextTerm = pricing.NextTerm?.AmountTotal;
  // Asked for on every price (NextTerm=true); a service that omits it has only the amount now.
  return (
    confirmed.confirmedNextTermAmountTotal === undefined ||
    nextTerm === undefined ||
    nextTerm === confirmed.confirmedNextTermAmountTotal
  );
}

/**
 * 409 `price-changed`: the service's price is not the one confirmed; `pricing` is its own, with
 * whether it includes tax, as the price first shown said.
 */
export function priceChanged(context: RouteContext, pricing: PricingUsageResult): ProxyError {
  return new ProxyError(
    409,
    'price-changed',
    'The price changed. Confirm the new price to continue.',
    { pricing: Object.assign(pricing, { taxes: taxesOf(context) }) },
  );
}

import type { PricingResponse, UsagesResponse } from '../../contract/index.js';
import { chargeRateLimit, isMissing, withCustomer, type RouteContext } from '../context.js';
import { isSuspended, orNullWhenMissing } from '../entitlements.js';
import { parsePricingRequest } from '../validation.js';
import { confirmationRequired } from './pricing-confirmation.js';

/**
 * GET /usages: every Usage of the customer, and whether its subscription is suspended (the
 * usages alone do not say it, and a suspended subscription gives no rights: see
 * entitlements.ts). Both read at once. A customer the service does not know has none.
 */
export async function getUsages(context: RouteContext): Promise<UsagesResponse> {
  const { upstream, identity, call } = context;
  try {
    const [usages, subscription] = await Promise.all([
      withCustomer(context, () => upstream.usages(identity.reference, call)),
      upstream.subscriptionOf(identity.reference, call).catch(orNullWhenMissing),
    ]);
    if (usages.length === 0 || !isSuspended(subscription)) return { usages };
    return {
      usages,
      suspended: { paymentCappingReached: subscription?.IsPaymentCappingReached === true },
    };
  } catch (error) {
    if (isMissing(error)) return { usages: [] };
    throw error;
  }
}

/**
 * POST /pricing: the price of a change (a quantity added, or an on/off add-on switched), for
 * this customer, dated now, NextTerm included, and whether the user must confirm it (see
 * confirmationRequired).
 */
export async function postPricing(context: RouteContext): Promise<PricingResponse> {
  const { feature, ...change } = parsePricingRequest(context.body, context.options);
  chargeRateLimit(context);
  const pricing = await context.upstream.pricing(
    context.identity.reference,
    feature,
    change,
    context.call,
  );
  // The parsed answer is this request's own object: extended in place (no spread, which costs
  // microseconds on Node 20), confirmationRequired last as before.
  const required = await confirmationRequired(context, pricing);
  return Object.assign(pricing, { confirmationRequired: required });
}

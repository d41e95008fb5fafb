import type { PricingResponse, UsagesResponse } from '../../contract/index.js';
import { chargeRateLimit, isMissing, withCustomer, type RouteContext } from '../context.js';
import { parsePricingRequest } from '../validation.js';
import { confirmationRequired } from './pricing-confirmation.js';

/**
 * GET /usages: every Usage of the customer, and whether its subscription is suspended (the
 * usages alone do not say it, and a suspended subscription gives no rights: see
 * entitlements.ts). Both read at once; a subscription known to run is not read again for a few
 * seconds (createSuspensionCheck). A customer the service does not know has none.
 */
export async function getUsages(context: RouteContext): Promise<UsagesResponse> {
  const { upstream, identity, call, suspensions } = context;
  try {
    const [usages, suspended] = await Promise.all([
      withCustomer(context, () => upstream.usages(identity.reference, call)),
      suspensions.suspensionOf(identity.reference, call),
    ]);
    return usages.length === 0 || suspended === null ? { usages } : { usages, suspended };
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

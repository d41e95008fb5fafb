import {
  PRICING_REFUSAL_CODES,
  type PricingRefusal,
  type PricingRefusalCode,
  type PricingResponse,
  type UsagesResponse,
} from '../../contract/index.js';
import type { ProxyError } from '../errors.js';
import {
  UpstreamError,
  paymentMethodInvalid,
  pendingSubscription,
  toProxyError,
} from '../errors.js';
import { suspensionReason } from '../suspension.js';
import {
  chargeRateLimit,
  isMissing,
  taxesOf,
  withCustomer,
  type RouteContext,
} from '../context.js';
import { parsePricingRequest } from '../validation.js';
import { priceDecrease } from './decrease.js';
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
    // The usual case, a subscription known to run: the usages alone, without a second promise
    // to wait for (the hot path of the proxy's most frequent route).
    if (suspensions.knownRunning(identity.reference))
      return {
        usages: await withCustomer(context, () => upstream.usages(identity.reference, call)),
      };
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
 * confirmationRequired). A change the customer cannot make in their state now is answered 200
 * with its `refusal` (see PricingRefusal); other failures are HTTP errors.
 */
export async function postPricing(
  context: RouteContext,
): Promise<PricingResponse | PricingRefusal> {
  const request = parsePricingRequest(context.body, context.options);
  chargeRateLimit(context);
  let pricing: PricingResponse;
  try {
    if ('quantity' in request) {
      // A decrease: checked against what the customer owns and uses first (decrease.ts).
      pricing = await priceDecrease(context, request);
    } else {
      const { feature, ...change } = request;
      pricing = await context.upstream.pricing(
        context.identity.reference,
        feature,
        change,
        context.call,
      );
    }
  } catch (error) {
    const refusal = error instanceof UpstreamError ? await refusalOf(context, error) : undefined;
    if (refusal === undefined) throw error;
    return { refusal: { code: refusal.code as PricingRefusalCode, message: refusal.message } };
  }
  // The parsed answer is this request's own object: extended in place (no spread, which costs
  // microseconds on Node 20), confirmationRequired its last field. The limit per change lets
  // the page say a larger quantity at once rather than send it.
  const required = await confirmationRequired(context, pricing);
  return Object.assign(pricing, {
    maxIncrement: context.options.limits.maxIncrement,
    confirmationRequired: required,
    taxes: taxesOf(context),
  });
}

const REFUSAL_CODES: ReadonlySet<string> = new Set(PRICING_REFUSAL_CODES);

/**
 * The refusal of a price that is a state of the customer (see PricingRefusal), or undefined for
 * a failure. The service says "not active" of a subscription waiting for its checkout as of a
 * suspended one, and does not say why it is suspended: the subscription's state tells them
 * apart, and a suspension for a payment method that no longer works is answered as such (its
 * remedy is a new payment method, not a restart).
 */
async function refusalOf(
  context: RouteContext,
  error: UpstreamError,
): Promise<ProxyError | undefined> {
  const refusal = toProxyError(error);
  if (!REFUSAL_CODES.has(refusal.code)) return undefined;
  if (refusal.code !== 'subscription-suspended') return refusal;
  const subscription = await context.upstream
    .subscriptionOf(context.identity.reference, context.call)
    .catch(() => undefined);
  if (subscription?.StateSubscription === 'PendingSubscription') return pendingSubscription();
  if (
    subscription?.StateSubscription.startsWith('Suspended') === true &&
    (await suspensionReason(context.upstream, subscription, context.call)) ===
      'payment-method-invalid'
  ) {
    return paymentMethodInvalid();
  }
  return refusal;
}

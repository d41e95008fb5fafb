import type { IdempotencyStore } from './idempotency/store.js';
import type { SignalBus } from './notifications/signals.js';
import type { SuspensionCheck } from './entitlements.js';
import type { TaxTreatment } from '../contract/proxy-api.js';
import type { BillingIdentity, ResolvedOptions } from './options.js';
import type { CallContext, UpstreamClient } from './upstream.js';
import { ProxyError, UpstreamError } from './errors.js';
import type { RateLimiter } from './rate-limit.js';

/** What a route handler gets: the identified customer and the proxy's parts. */
export interface RouteContext {
  request: Request;
  url: URL;
  identity: BillingIdentity;
  /** Forwarded upstream with each call (language). */
  call: CallContext;
  options: ResolvedOptions;
  upstream: UpstreamClient;
  store: IdempotencyStore;
  /** Tells the customer's open pages their billing changed. */
  signals: SignalBus;
  /** Whether the customer's subscription is suspended (GET /usages). */
  suspensions: SuspensionCheck;
  /** The per-customer rate limit of state-changing calls (null when switched off). */
  limiter: RateLimiter | null;
  /** Parsed JSON body (POST routes). */
  body: unknown;
  /** Keeps work going after the answer is sent, where the platform offers it (a Worker's ctx). */
  waitUntil?: ((work: Promise<unknown>) => void) | undefined;
}

/**
 * Whether the customer's prices include tax, as the `taxes` option says (undefined: unset). A
 * function that answers anything else is a bug of the host's code: thrown, so a 500, logged.
 */
export function taxesOf(context: RouteContext): TaxTreatment | undefined {
  const { taxes } = context.options;
  const answer = typeof taxes === 'function' ? taxes(context.identity) : taxes;
  if (answer === undefined || answer === 'included' || answer === 'excluded') return answer;
  throw new TypeError(
    `taxes(identity) answered ${JSON.stringify(answer)}: 'included', 'excluded' or undefined`,
  );
}

/** Charges one request to the customer's rate limit; throws 429 when it is exhausted. */
export function chargeRateLimit(context: RouteContext): void {
  const waitSeconds = context.limiter?.take(context.identity.reference) ?? 0;
  if (waitSeconds > 0) {
    throw new ProxyError(429, 'rate-limited', 'Too many requests. Try again shortly.', {
      headers: { 'retry-after': String(waitSeconds) },
    });
  }
}

/**
 * Runs `operation`; when the service does not know the customer and the proxy may create it,
 * creates it (from the identity) and runs `operation` once more.
 */
export async function withCustomer<T>(
  context: RouteContext,
  operation: () => Promise<T>,
): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (
      !(error instanceof UpstreamError) ||
      error.serviceCode !== 'Error.Customer.NotFound' ||
      !context.options.ensureCustomer
    ) {
      throw error;
    }
    await context.upstream.createCustomer(context.identity, context.options.segment);
    context.options.logger({
      level: 'info',
      event: 'customer-created',
      message: 'Created the customer at the billing service',
      customer: context.identity.reference,
    });
    return operation();
  }
}

/** True for the service's "no such customer/subscription" answers. */
export function isMissing(error: unknown): boolean {
  return (
    error instanceof UpstreamError &&
    (error.serviceCode === 'Error.Customer.NotFound' ||
      error.serviceCode === 'Error.Subscription.NotFound')
  );
}

export function unavailablePage(message: string): ProxyError {
  return new ProxyError(409, 'validation', message, { field: 'page' });
}

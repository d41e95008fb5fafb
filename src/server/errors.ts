import type {
  PlanQuoteResponse,
  PricingResponse,
  ProxyErrorBody,
  ProxyErrorCode,
  SeedErrorCode,
} from '../contract/index.js';

/** A refusal the proxy answers with `{ code, message }`; the only error type whose text reaches the browser. */
export class ProxyError extends Error {
  readonly status: number;
  readonly code: ProxyErrorCode | SeedErrorCode;
  readonly field: string | undefined;
  readonly pricing: PricingResponse | undefined;
  readonly quote: PlanQuoteResponse | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: ProxyErrorCode | SeedErrorCode,
    message: string,
    extra: {
      field?: string;
      pricing?: PricingResponse;
      quote?: PlanQuoteResponse;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.name = 'ProxyError';
    this.status = status;
    this.code = code;
    this.field = extra.field;
    this.pricing = extra.pricing;
    this.quote = extra.quote;
    this.headers = extra.headers ?? {};
  }

  toBody(): ProxyErrorBody {
    const body: ProxyErrorBody = { code: this.code, message: this.message };
    if (this.field !== undefined) body.field = this.field;
    if (this.pricing !== undefined) body.pricing = this.pricing;
    if (this.quote !== undefined) body.quote = this.quote;
    return body;
  }
}

export type UpstreamFailureKind =
  /** The call did not answer within its timeout. */
  | 'timeout'
  /** The connection failed or dropped before a full answer. */
  | 'network'
  /** The service refused with an error body (`{ Code, Message }`). */
  | 'service'
  /** A non-2xx answer without a readable error body. */
  | 'http'
  /** A 2xx answer that does not match the contract's schema. */
  | 'invalid-response';

/** A failed call to the billing service. Never shown to the browser as is: see `toProxyError`. */
export class UpstreamError extends Error {
  readonly kind: UpstreamFailureKind;
  readonly status: number | undefined;
  readonly serviceCode: string | undefined;
  readonly route: string;

  constructor(
    kind: UpstreamFailureKind,
    route: string,
    message: string,
    extra: { status?: number; serviceCode?: string; cause?: unknown } = {},
  ) {
    super(message, { cause: extra.cause });
    this.name = 'UpstreamError';
    this.kind = kind;
    this.route = route;
    this.status = extra.status;
    this.serviceCode = extra.serviceCode;
  }

  /** True when the service may have acted on the request although no answer says so. */
  get ambiguous(): boolean {
    return this.kind === 'timeout' || this.kind === 'network' || (this.status ?? 0) >= 500;
  }
}

/**
 * The idempotency store failed or did not answer within `timeouts.storeMs` (Redis down or
 * restarting, say). Never a ProxyError: the exactly-once machinery must not mistake it for a
 * refusal of the change and record one. The proxy answers it with 503 `store-unavailable`.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
}

/** The answer to a request that met a failing idempotency store: retry with the same key. */
export function storeUnavailable(): ProxyError {
  return new ProxyError(
    503,
    'store-unavailable',
    'Billing is briefly unavailable. Try again in a moment.',
    { headers: { 'retry-after': '2' } },
  );
}

const SEED_STATUS: Record<SeedErrorCode, number> = {
  'Error.Api.Usage.NoneMatching': 404,
  'Error.Customer.PaymentSettings.Missing': 403,
  'Error.Customer.Billing.CappingReached': 403,
};

const SEED_MESSAGES: Record<SeedErrorCode, string> = {
  'Error.Api.Usage.NoneMatching': 'Your plan does not include this feature.',
  'Error.Customer.PaymentSettings.Missing': 'A payment method is needed for this change.',
  'Error.Customer.Billing.CappingReached': 'Outstanding invoices must be settled first.',
};

/** A subscribe refused because the customer's subscription has started: its plan is changed instead. */
export function alreadySubscribed(): ProxyError {
  return new ProxyError(
    409,
    'already-subscribed',
    'This account already has a subscription: change its plan instead.',
  );
}

/**
 * A change sent by a page that shows another customer than the one signed in now (see
 * SESSION_CUSTOMER_HEADER): nothing is changed; the page is reloaded for the customer now.
 */
export function sessionChanged(): ProxyError {
  return new ProxyError(
    409,
    'session-changed',
    'Another customer is signed in now: reload the page to see their billing.',
  );
}

/** A change refused because the subscription waits for its checkout: complete it first. */
export function pendingSubscription(): ProxyError {
  return new ProxyError(
    409,
    'subscription-pending',
    'A subscription is waiting for its checkout: complete it first.',
  );
}

/** A suspension whose cause is a payment method that no longer works: replacing it comes first. */
export function paymentMethodInvalid(): ProxyError {
  return new ProxyError(
    403,
    'payment-method-invalid',
    'The subscription is suspended: the payment method no longer works.',
  );
}

/**
 * Maps a failed upstream call to what the browser may see. Seed codes pass through with the
 * seed's status; the service's other codes become ours; the service's message never passes
 * (it may describe internals), so every message here is our own.
 */
export function toProxyError(error: UpstreamError): ProxyError {
  const code = error.serviceCode;
  if (code !== undefined && Object.hasOwn(SEED_STATUS, code)) {
    const seedCode = code as SeedErrorCode;
    return new ProxyError(SEED_STATUS[seedCode], seedCode, SEED_MESSAGES[seedCode]);
  }
  switch (code) {
    case 'Error.Subscription.NotActive':
      return new ProxyError(403, 'subscription-suspended', 'The subscription is suspended.');
    case 'Error.Subscription.Exists':
      return alreadySubscribed();
    case 'Error.Subscription.Pending':
      return pendingSubscription();
    case 'Error.Subscription.NotFound':
    case 'Error.Customer.NotFound':
      return new ProxyError(404, 'no-subscription', 'There is no subscription for this account.');
    case 'Error.Offer.NotFound':
      return new ProxyError(404, 'not-found', 'Unknown offer.', { field: 'offer' });
    case 'Error.Offer.OnRequest':
      return new ProxyError(
        403,
        'offer-on-request',
        'This plan is sold on request: contact us to move to it.',
        { field: 'offer' },
      );
    case 'Error.Invoice.NotFound':
      return new ProxyError(404, 'not-found', 'Invoice not found.', { field: 'invoice' });
    case 'Error.Api.Validation':
    case 'Error.Api.Request.Malformed':
      // 422, not 400: a 400 always means refused before any call to the service.
      return new ProxyError(422, 'validation', 'The billing service refused these values.');
    case 'Error.Api.Usage.QuantityOutOfRange':
      return new ProxyError(422, 'validation', 'The quantity would be out of range.', {
        field: 'increment',
      });
    default:
      break;
  }
  switch (error.kind) {
    case 'timeout':
      return new ProxyError(504, 'upstream-timeout', 'The billing service did not answer in time.');
    case 'network':
      return new ProxyError(503, 'upstream-unavailable', 'The billing service is unreachable.');
    case 'http':
    case 'service':
      if ((error.status ?? 0) >= 500 || error.status === 429) {
        return new ProxyError(503, 'upstream-unavailable', 'The billing service is unavailable.');
      }
      return new ProxyError(502, 'upstream-error', 'The billing service refused the request.');
    case 'invalid-response':
      return new ProxyError(
        502,
        'upstream-error',
        'The billing service sent an unexpected answer.',
      );
  }
}

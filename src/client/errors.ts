import type { PlanQuoteResponse, PricingResponse } from '../contract/proxy-api.js';

/** Codes the client itself produces when no answer of the proxy could be read. */
export type ClientErrorCode = 'network' | 'timeout' | 'aborted' | 'invalid-response';

export interface BillingErrorOptions {
  status?: number;
  pricing?: PricingResponse;
  quote?: PlanQuoteResponse;
  field?: string;
  cause?: unknown;
}

/**
 * Every failure of the browser runtime. `code` is the proxy's error `code` (a billing-service
 * code such as `Error.Api.Usage.NoneMatching` or a proxy code such as `price-changed`), or one
 * of {@link ClientErrorCode} when the proxy could not be reached or understood.
 */
export class BillingError extends Error {
  override readonly name = 'BillingError';
  /** The proxy's error code, or `network` / `timeout` / `aborted` / `invalid-response`. */
  readonly code: string;
  /** HTTP status of the proxy's answer; 0 when there was none. */
  readonly status: number;
  /** With `price-changed`: the current price, to show and confirm again. */
  readonly pricing?: PricingResponse;
  /** With `price-changed` on a plan change: the current quote, to show and confirm again. */
  readonly quote?: PlanQuoteResponse;
  /** With `validation`: the offending field. */
  readonly field?: string;

  constructor(code: string, message: string, options: BillingErrorOptions = {}) {
    super(message, options);
    this.code = code;
    this.status = options.status ?? 0;
    if (options.pricing) this.pricing = options.pricing;
    if (options.quote) this.quote = options.quote;
    if (options.field) this.field = options.field;
  }

  /** True for failures a plain retry may fix (no answer, a timeout, a 5xx or a rate limit). */
  get retryable(): boolean {
    return (
      this.code === 'network' ||
      this.code === 'timeout' ||
      this.status >= 500 ||
      this.status === 429
    );
  }
}

export function isBillingError(value: unknown): value is BillingError {
  return value instanceof BillingError;
}

/** Wraps anything thrown into a BillingError, keeping a BillingError as it is. */
export function toBillingError(value: unknown): BillingError {
  if (value instanceof BillingError) return value;
  if (value instanceof DOMException && value.name === 'AbortError') {
    return new BillingError('aborted', 'Aborted', { cause: value });
  }
  const message = value instanceof Error ? value.message : String(value);
  return new BillingError('network', message, { cause: value });
}

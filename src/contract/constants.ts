// The contract's plain values that browser code needs. This module imports nothing, so the
// browser bundle never pulls zod in through the contract (the schemas live beside it).

/** `QuantityIncluded` of a usage whose access is unlimited. */
export const UNLIMITED_QUANTITY = -1;

/** A feature reference as the proxy accepts it. */
export const FEATURE_REFERENCE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** An idempotency key: 16 to 128 URL-safe characters (a UUID fits). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * The languages the service's texts come in (its `Language` parameter), English first: the
 * elements speak the same ones.
 */
export const LANGUAGES = ['en', 'fr'] as const;

/**
 * The header naming the signed-in customer (their reference, URI-encoded). The proxy puts it on
 * every answer about a customer; a page sends back the one its answers named with each change,
 * and the proxy refuses a change (409 `session-changed`) when another customer is signed in
 * now, as after a sign-in in another tab of the same site: the page shows one customer's
 * billing and would otherwise change another's.
 */
export const SESSION_CUSTOMER_HEADER = 'billing-customer';

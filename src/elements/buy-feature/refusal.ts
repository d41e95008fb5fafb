import type { BillingError } from '../../client/errors.js';
import type { PricingResponse } from '../../contract/proxy-api.js';
import type { MessageKey } from '../../client/i18n.js';
import { getUsageStore } from '../../client/usage-store.js';
import { setupHint } from '../shared/warn.js';

// A refused price says more than the proxy's code: the service answers `validation` for a dozen
// causes. This module tells them apart, so that the customer reads the one that applies, and the
// integrator reads once in the console what only they can fix.

/** Why a quantity was refused (`validation`), in the words <buy-feature> has for each cause. */
export type QuantityRefusal = 'too-many' | 'at-once' | 'setup' | 'other';

/** The text of a cause: `buy.refused.<cause>`, the generic `error.validation` for `other`. */
export function refusalText(cause: QuantityRefusal): MessageKey {
  return cause === 'other' ? 'error.validation' : `buy.refused.${cause}`;
}

export interface RefusalContext {
  endpoint: string;
  feature: string;
  increment: number;
  signal?: AbortSignal | undefined;
}

/**
 * The cause of a `validation` refusal of `increment` units of `feature`: a feature reference the
 * proxy cannot read (field `feature`), a quantity past the proxy's limits per purchase (400 on
 * `increment`) or past what the plan allows (the service's 422 on `increment`, for an addition;
 * a removal below zero, which only a proxy configured for removals meets, has the generic text).
 * An on/off feature never gets here: <buy-feature> sells it as an add-on (add-on-controller.ts).
 */
export function quantityRefusal(error: BillingError, increment: number) {
  let cause: QuantityRefusal = 'other';
  if (error.field === 'feature') cause = 'setup';
  else if (error.field === 'increment')
    cause = error.status === 400 ? 'at-once' : increment > 0 ? 'too-many' : 'other';
  return cause;
}

/**
 * The largest quantity each proxy of the page sells at once, as its prices (`maxIncrement`) or
 * its refusals said it: a larger quantity is said at once and never sent.
 */
const perPurchaseLimits = new Map<string, number>();

/** The largest quantity `endpoint`'s proxy sells at once, once it said it. */
export function perPurchaseLimit(endpoint: string): number | undefined {
  return perPurchaseLimits.get(endpoint);
}

/** Keeps the limit per purchase a price of `endpoint`'s proxy states (older proxies do not). */
export function learnPerPurchaseLimit(endpoint: string, pricing: PricingResponse): void {
  if (pricing.maxIncrement !== undefined) perPurchaseLimits.set(endpoint, pricing.maxIncrement);
}

/** The limit per purchase a refusal names ("between 1 and 10000"), if it names one. */
export function limitNamedIn(error: BillingError): number | undefined {
  const max = /between -?\d+ and (\d+)/.exec(error.message)?.[1];
  return max === undefined ? undefined : Number(max);
}

/**
 * A refused price, said as precisely as it can be: before a `validation` refusal is shown, the
 * usages are loaded so that its cause can be told, and a limit per purchase it names is kept.
 * Anything else is left as it was.
 */
export async function explainRefusal(
  error: BillingError,
  { endpoint, increment }: Pick<RefusalContext, 'endpoint' | 'increment'>,
): Promise<BillingError> {
  if (error.code === 'validation') {
    const limit = limitNamedIn(error);
    if (limit !== undefined && quantityRefusal(error, increment) === 'at-once')
      perPurchaseLimits.set(endpoint, limit);
    await getUsageStore(endpoint)
      .load()
      .catch(() => undefined);
  }
  return error;
}

/**
 * The console line that tells the integrator what only they can fix, for the causes that are a
 * page's setup rather than the customer's choice; undefined for the others.
 */
export function refusalHint(
  cause: QuantityRefusal,
  error: BillingError,
  { feature, increment }: RefusalContext,
): string | undefined {
  const element = `<buy-feature feature="${feature}">`;
  if (cause === 'setup') return setupHint(element, 'the feature', error);
  if (cause === 'at-once') return setupHint(element, String(increment), error);
  return undefined;
}

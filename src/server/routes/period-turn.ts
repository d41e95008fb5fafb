import type { PricingUsageResult } from '../../contract/index.js';
import type { RouteContext } from '../context.js';
import { ProxyError } from '../errors.js';
import { sleep } from '../timing.js';
import type { UsageChange } from '../upstream.js';

// The service prices a usage change when it processes it. A price confirmed in the last moments
// of a billing period could be charged at the next period's price, which nobody saw: purchases
// and add-on switches price their apply here, waiting for such a period to turn first.

/**
 * How long past `timeouts.applyMs` a period's end still counts as "within an apply": the price
 * is read, the lock and record written and the request sent before the apply's own timeout runs.
 */
const PERIOD_END_MARGIN_MS = 2_000;
/** Waited past the period's end (as the service's clock tells it) before pricing again. */
const PERIOD_TURN_SETTLE_MS = 500;

/** What waiting for a period's turn may add to an attempt, on top of `timeouts.applyMs`. */
export const PERIOD_TURN_WAIT_MS = PERIOD_END_MARGIN_MS + PERIOD_TURN_SETTLE_MS;

/**
 * The price to apply `change` at. When the service's billing period ends within the time an
 * apply can take, the apply could land in the next period and be charged at a price nobody saw:
 * wait for the period to turn, as the service's clock (its answers' Date header) tells it, and
 * price again. A period still ending after that wait (a service clock that does not move) is
 * refused with `period-ending` and the fresh price.
 */
export async function priceForApply(
  context: RouteContext,
  feature: string,
  change: UsageChange,
): Promise<PricingUsageResult> {
  const { upstream, identity, call, options } = context;
  const price = () => upstream.pricing(identity.reference, feature, change, call);
  const window = options.timeouts.applyMs + PERIOD_END_MARGIN_MS;
  const untilTurn = (pricing: PricingUsageResult) => {
    const end = Date.parse(pricing.DatePeriodTerm ?? '');
    return Number.isNaN(end) ? Infinity : end - upstream.serviceNow();
  };

  const pricing = await price();
  const wait = untilTurn(pricing);
  if (wait > window) return pricing;
  options.logger({
    level: 'info',
    event: 'purchase-awaits-period-turn',
    message: `The billing period ends in ${Math.max(0, Math.round(wait))} ms, within an apply's time; pricing again once it has turned`,
    customer: identity.reference,
    feature,
  });
  await sleep(Math.max(0, wait) + PERIOD_TURN_SETTLE_MS);
  const fresh = await price();
  if (untilTurn(fresh) <= window) {
    throw new ProxyError(
      409,
      'period-ending',
      'The billing period is ending. Confirm the price again in a moment.',
      { pricing: fresh },
    );
  }
  return fresh;
}

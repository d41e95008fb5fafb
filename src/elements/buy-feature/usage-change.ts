import type {
  AddOnChangeRequest,
  AddOnChangeResponse,
  DecreaseRequest,
  DecreaseResponse,
  PricingResponse,
} from '../../contract/proxy-api.js';
import { getProxyClient } from '../../client/proxy-client.js';
import { requestOf, type PendingChange } from '../shared/pending-change.js';

// What an add-on switched and a decrease have in common: both change a feature's usage through
// the proxy's `POST /usage`, confirmed at the price due now and the recurring price after it,
// and both answer with the usage after the change and the totals applied.

/** The totals a change priced at `pricing` is confirmed at: the proxy applies it only at these. */
export function confirmedTotals(pricing: PricingResponse): {
  confirmedAmountTotal: number;
  confirmedNextTermAmountTotal: number;
} {
  return {
    confirmedAmountTotal: pricing.AmountTotal,
    // The proxy always asks for the next term; without it, the recurring price is unchanged.
    confirmedNextTermAmountTotal: pricing.NextTerm?.AmountTotal ?? 0,
  };
}

/**
 * `POST /usage`: the confirmed change (an add-on switched with `enabled`, a decrease with
 * `quantity`), at most once per key. A changed price is refused with the new pricing, its texts
 * in `language`.
 */
export function sendUsageChange<Response extends AddOnChangeResponse | DecreaseResponse>(
  pending: PendingChange<AddOnChangeRequest> | PendingChange<DecreaseRequest>,
  endpoint: string,
  language: string,
): Promise<Response> {
  return getProxyClient(endpoint).request<Response>(
    '/usage',
    undefined,
    requestOf(pending),
    language,
  );
}

/** What an applied change answered, as its event tells the page. */
export function appliedDetail({
  usage,
  amountTotal,
  nextTermAmountTotal,
  replayed,
}: AddOnChangeResponse | DecreaseResponse): AddOnChangeResponse & DecreaseResponse {
  return { usage, amountTotal, nextTermAmountTotal, replayed };
}

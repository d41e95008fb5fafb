import type {
  PlanChangeRequest,
  PlanChangeResponse,
  PlanQuoteRequest,
  PlanQuoteResponse,
} from '../contract/proxy-api.js';
import { getProxyClient, invalid, isQuoteLike } from './proxy-client.js';

// The plan routes of the proxy, for <plan-picker>: functions over the page's proxy client rather
// than methods of it, so that a page without the picker (the script-tag file) carries none.

/**
 * `POST /plan/quote`: the price of moving to `offer` (now and per period), changing nothing. The
 * service writes its lines ("Business, 4.3 of 30 days") in `language`, the page's.
 */
export async function getPlanQuote(
  request: PlanQuoteRequest,
  endpoint?: string | null,
  signal?: AbortSignal,
  language?: string,
): Promise<PlanQuoteResponse> {
  const body = await getProxyClient(endpoint).request<PlanQuoteResponse>(
    '/plan/quote',
    signal,
    request,
    language,
  );
  if (!isQuoteLike(body)) throw invalid('/plan/quote');
  return body;
}

/**
 * `POST /plan`: moves the subscription to `offer` at the prices the user confirmed, at most once
 * per `idempotencyKey`; 409 `price-changed` carries the new `quote`, in `language`.
 */
export function changePlan(
  request: PlanChangeRequest,
  endpoint?: string | null,
  signal?: AbortSignal,
  language?: string,
): Promise<PlanChangeResponse> {
  return getProxyClient(endpoint).request<PlanChangeResponse>('/plan', signal, request, language);
}

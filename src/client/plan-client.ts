import type {
  OffersResponse,
  PlanChangeRequest,
  PlanChangeResponse,
  PlanQuoteRequest,
  PlanQuoteResponse,
  PreparedOffer,
} from '../contract/proxy-api.js';
import { getProxyClient, invalid, isQuoteLike } from './proxy-client.js';

// The plan routes of the proxy, for <plan-picker>: functions over the page's proxy client rather
// than methods of it, so that a page without the picker (the script-tag file) carries none.

/**
 * `GET /offers` for the picker: the offers (`IsCurrent` marks the customer's) and the
 * subscriptions the business prepared for the customer (none from an older proxy), and whether
 * prices include tax when the business said. Titles, descriptions and prices are the service's,
 * in `language`.
 */
export async function getPlans(
  endpoint?: string | null,
  signal?: AbortSignal,
  language?: string,
): Promise<OffersResponse> {
  const body = await getProxyClient(endpoint).request<Partial<OffersResponse> | null>(
    '/offers',
    signal,
    undefined,
    language,
  );
  if (!body || !Array.isArray(body.offers)) throw invalid('/offers');
  const prepared = Array.isArray(body.prepared) ? body.prepared.filter(isPreparedLike) : [];
  const { taxes } = body;
  return {
    offers: body.offers.filter(isOfferLike),
    prepared,
    ...(taxes === 'included' || taxes === 'excluded' ? { taxes } : {}),
  };
}

/** An offer the picker can show (the proxy client's own check, not exported from it: a page without the picker would carry the export). */
function isOfferLike(value: unknown): value is OffersResponse['offers'][number] {
  if (typeof value !== 'object' || value === null) return false;
  return typeof (value as Record<string, unknown>).ReferenceOffer === 'string';
}

function isPreparedLike(value: unknown): value is PreparedOffer {
  if (typeof value !== 'object' || value === null) return false;
  const prepared = value as Record<string, unknown>;
  return Number.isInteger(prepared.subscription) && isOfferLike(prepared.offer);
}

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

import type {
  AddOnPricingRequest,
  DecreasePricingRequest,
  LinksResponse,
  OffersResponse,
  PlanQuoteResponse,
  PortalRequest,
  PortalResponse,
  PricingRefusal,
  PricingRequest,
  PricingResponse,
  ProxyErrorBody,
  PurchaseRequest,
  PurchaseResponse,
  SubscriptionStatusResponse,
  SuspensionReason,
  UsagesResponse,
} from '../contract/proxy-api.js';
import { SESSION_CUSTOMER_HEADER } from '../contract/constants.js';
import { getBillingConfig, resolveEndpoint } from './config.js';
import { BillingError } from './errors.js';

/**
 * Talks to one billing proxy: JSON over fetch, a time limit on every call, the customer known by
 * the proxy's cookies or by the page's token (`configureBilling({ token })`).
 */
export class ProxyClient {
  /** The proxy location, as given (path or absolute URL, no trailing slash). */
  readonly endpoint: string;

  /**
   * The customer the proxy's answers named (SESSION_CUSTOMER_HEADER), once one did: the one
   * this page shows. An answer about another one (signed in since, in another tab) is refused
   * with `session-changed`, and every change sent names this one, so that the proxy refuses it
   * too. Forgotten on sign-out (`forgetCustomer`, which the usage store's `clear` calls).
   */
  #customer: string | null = null;
  /** Counts the sign-outs (`forgetCustomer`): an answer to a request sent before one is not read for its customer. */
  #signOuts = 0;

  constructor(endpoint: string) {
    this.endpoint = endpoint;
  }

  /** The customer this page's answers named, if one did yet (URI-encoded reference). */
  get customer(): string | null {
    return this.#customer;
  }

  /**
   * Takes `customer` as the one this page shows, unless another is known: false then (the
   * usages the tab's session kept are of a customer this page does not show).
   */
  adoptCustomer(customer: string): boolean {
    this.#customer ??= customer;
    return this.#customer === customer;
  }

  /** Forgets the customer shown (a sign-out): the next answer may name another one. */
  forgetCustomer(): void {
    this.#customer = null;
    this.#signOuts += 1;
  }

  /** `GET /usages`: every feature of the signed-in customer. */
  async getUsages(signal?: AbortSignal, language?: string): Promise<UsagesResponse> {
    const body = await this.request<UsagesResponse>('/usages', signal, undefined, language);
    if (!body || !Array.isArray(body.usages)) throw invalid('/usages');
    const usages = body.usages.filter(isUsageLike);
    const suspended = body.suspended;
    if (typeof suspended !== 'object' || suspended === null) return { usages };
    const { reason } = suspended;
    return {
      usages,
      suspended: {
        paymentCappingReached: suspended.paymentCappingReached === true,
        // The elements only look for the causes they have words for: any other cause, or none
        // (an older proxy), leaves the restart as the remedy.
        ...(typeof reason === 'string' ? { reason: reason as SuspensionReason } : {}),
      },
    };
  }

  /**
   * `POST /pricing`: the price of a change (units added, or an add-on switched), without
   * applying it. `language` (the page's, `fr`) goes as `Content-Language`: the proxy asks the
   * service for its texts in that language. A change the customer cannot make in their state
   * now rejects with its refusal's code (`Error.Customer.Billing.CappingReached`...).
   */
  async getPricing(
    request: PricingRequest | AddOnPricingRequest | DecreasePricingRequest,
    signal?: AbortSignal,
    language?: string,
  ): Promise<PricingResponse> {
    const body = await this.request<PricingResponse | PricingRefusal>(
      '/pricing',
      signal,
      request,
      language,
    );
    // A change the customer cannot make yet comes as a 200 (no failed request on the page's
    // console): it rejects as the same refusal of a confirmed change would.
    const refusal = (body as Partial<PricingRefusal> | null)?.refusal;
    if (refusal) throw new BillingError(refusal.code, refusal.message, { status: 200 });
    return body as PricingResponse;
  }

  /**
   * `POST /usage`: applies a change the user confirmed at `confirmedAmountTotal`. A changed
   * price is refused with the new pricing, its texts in `language` as for `getPricing`.
   */
  purchase(
    request: PurchaseRequest,
    signal?: AbortSignal,
    language?: string,
  ): Promise<PurchaseResponse> {
    return this.request<PurchaseResponse>('/usage', signal, request, language);
  }

  /** `GET /portal`: the parameters of `ServicePortal.open` for a page. */
  async getPortal(request: PortalRequest, signal?: AbortSignal): Promise<PortalResponse> {
    const body = await this.request<PortalResponse>(`/portal?${portalQuery(request)}`, signal);
    if (!body || typeof body.scriptUrl !== 'string' || typeof body.params !== 'object') {
      throw invalid('/portal');
    }
    return body;
  }

  /** `GET /links`: an in-site address for a page. */
  async getLinks(request: PortalRequest, signal?: AbortSignal): Promise<LinksResponse> {
    const body = await this.request<LinksResponse>(`/links?${portalQuery(request)}`, signal);
    if (!body || typeof body.url !== 'string') throw invalid('/links');
    return body;
  }

  /** `GET /subscription`: the state of the customer's subscription and any due invoices. */
  /** `GET /subscription`; its titles (the plan's, the discounts') in `language` when given. */
  getSubscription(signal?: AbortSignal, language?: string): Promise<SubscriptionStatusResponse> {
    return this.request<SubscriptionStatusResponse>('/subscription', signal, undefined, language);
  }

  /**
   * `GET /offers`: the offers the customer can move to (`IsCurrent` marks theirs). Their titles,
   * descriptions and prices are the service's, in `language` (the page's) when given.
   */
  async getOffers(
    signal?: AbortSignal,
    language?: string,
  ): Promise<Pick<OffersResponse, 'offers'>> {
    const body = await this.request<OffersResponse>('/offers', signal, undefined, language);
    if (!body || !Array.isArray(body.offers)) throw invalid('/offers');
    return { offers: body.offers.filter(isOfferLike) };
  }

  /**
   * A GET, or a POST of `body` when there is one: the proxy's answer, or a BillingError;
   * `language` names the page's language. For the client's modules too (plan-client.ts), which
   * add routes of their own to this client.
   */
  async request<T>(
    path: string,
    signal?: AbortSignal,
    body?: object,
    language?: string,
  ): Promise<T> {
    const { timeoutMs, token } = getBillingConfig();
    const signOuts = this.#signOuts;
    const timeout = AbortSignal.timeout(timeoutMs);
    const url = this.endpoint + path;
    try {
      const init: RequestInit = {
        method: body ? 'POST' : 'GET',
        credentials: 'include',
        headers: {
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(language ? { 'content-language': language } : {}),
          // Only with a change: a GET with a header of its own would need a preflight.
          ...(body && this.#customer !== null ? { [SESSION_CUSTOMER_HEADER]: this.#customer } : {}),
        },
        body: body ? JSON.stringify(body) : null,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      };
      // A page identified by a token loads what sends it (token.ts); other pages never do.
      const response = await (token
        ? (await import('./token.js')).fetchWithToken(token, url, init)
        : fetch(url, init));
      const named = response.headers.get(SESSION_CUSTOMER_HEADER);
      // Sent before a sign-out, an answer may be of the customer signed out: it neither names
      // the page's customer nor is compared with it.
      if (named !== null && signOuts === this.#signOuts && !this.adoptCustomer(named))
        throw sessionChanged(response.status);
      const parsed = await readJson(response);
      if (!response.ok) throw errorFromAnswer(response.status, parsed);
      return parsed as T;
    } catch (cause) {
      // fetch rejects, or the body read fails, with a TypeError or an AbortError: say which.
      if (cause instanceof BillingError) throw cause;
      if (signal?.aborted) throw new BillingError('aborted', 'Aborted', { cause });
      if (timeout.aborted)
        throw new BillingError('timeout', `Proxy timeout (${timeoutMs} ms)`, { cause });
      // Why a read failed is looked into only when one does (origin-check.ts).
      if (!body && (await (await import('./origin-check.js')).refusesThisOrigin(this.endpoint))) {
        throw new BillingError('forbidden-origin', 'This page’s origin may not call the proxy', {
          status: 403,
          cause,
        });
      }
      throw new BillingError('network', 'Proxy unreachable', { cause });
    }
  }
}

export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    if (response.ok) throw invalid(response.url);
    return undefined;
  }
}

function errorFromAnswer(status: number, body: unknown): BillingError {
  const answer = (typeof body === 'object' && body !== null ? body : {}) as Partial<ProxyErrorBody>;
  const code =
    typeof answer.code === 'string' && answer.code !== '' ? answer.code : `http-${status}`;
  const message = typeof answer.message === 'string' ? answer.message : `Proxy status ${status}`;
  return new BillingError(code, message, {
    status,
    ...(answer.pricing ? { pricing: answer.pricing } : {}),
    ...(isQuoteLike(answer.quote) ? { quote: answer.quote } : {}),
    ...(typeof answer.field === 'string' ? { field: answer.field } : {}),
  });
}

/** An answer about another customer than the one this page shows (see ProxyClient). */
function sessionChanged(status: number): BillingError {
  return new BillingError('session-changed', 'Another customer is signed in now', { status });
}

export function invalid(what: string): BillingError {
  return new BillingError('invalid-response', `Invalid proxy answer: ${what}`);
}

function isUsageLike(value: unknown): value is UsagesResponse['usages'][number] {
  if (typeof value !== 'object' || value === null) return false;
  const usage = value as Record<string, unknown>;
  return typeof usage.ReferenceFeature === 'string' && typeof usage.TypeFeature === 'string';
}

function isOfferLike(value: unknown): value is OffersResponse['offers'][number] {
  if (typeof value !== 'object' || value === null) return false;
  return typeof (value as Record<string, unknown>).ReferenceOffer === 'string';
}

/** A quote the picker can show and confirm: both amounts, and the next term's. */
export function isQuoteLike(value: unknown): value is PlanQuoteResponse {
  if (typeof value !== 'object' || value === null) return false;
  const quote = value as Record<string, unknown>;
  const nextTerm = quote.NextTerm as Record<string, unknown> | undefined;
  return (
    typeof quote.ReferenceOffer === 'string' &&
    Number.isInteger(quote.AmountTotalDue) &&
    typeof nextTerm === 'object' &&
    nextTerm !== null &&
    Number.isInteger(nextTerm.AmountTotal)
  );
}

/** The query string of `GET /portal` and `GET /links`. */
export function portalQuery({ page, offer, subscription, invoice }: PortalRequest): string {
  const query = new URLSearchParams({ page });
  for (const [name, value] of Object.entries({ offer, subscription, invoice }))
    if (value !== undefined && value !== '') query.set(name, String(value));
  return query.toString();
}

const clients = new Map<string, ProxyClient>();

/** The client of a proxy (the page's configured one by default): one instance per endpoint. */
export function getProxyClient(endpoint?: string | null): ProxyClient {
  const resolved = resolveEndpoint(endpoint);
  let client = clients.get(resolved);
  if (!client) {
    client = new ProxyClient(resolved);
    clients.set(resolved, client);
  }
  return client;
}

import type * as z from 'zod';
import {
  OffersPageSchema,
  UpgradeQuoteSchema,
  type Offer,
  type UpgradeQuote,
  CustomerSchema,
  InvoiceSchema,
  InvoicesPageSchema,
  PricingUsageAnswerSchema,
  ServiceErrorBodySchema,
  SubscriptionSchema,
  SubscriptionsPageSchema,
  UsageSchema,
  UsagesPageSchema,
  type Customer,
  type Invoice,
  type InvoicesPage,
  type PricingUsageResult,
  type Subscription,
  type Usage,
} from '../contract/index.js';
import { UpstreamError } from './errors.js';
import type { BillingIdentity, ResolvedOptions } from './options.js';
import { ExchangeTimeoutError, type UpstreamAnswer } from './exchange.js';
import { guardedParser } from './schema-guard.js';
import { normalizeQuote } from './quote.js';
import { sleep } from './timing.js';

/**
 * One usage change, as the service reads it: add to a quantity (`Increment`, metered features),
 * set a Limitation's quantity (`QuantityCurrent`, a decrease) or switch an on/off feature
 * (`IsEnabled`, an add-on bought or removed).
 */
export type UsageChange = { increment: number } | { quantity: number } | { enabled: boolean };

/** The service's field for a change: exactly one of `Increment`, `QuantityCurrent` or `IsEnabled`. */
function changeFields(
  change: UsageChange,
): { Increment: number } | { QuantityCurrent: number } | { IsEnabled: boolean } {
  if ('enabled' in change) return { IsEnabled: change.enabled };
  if ('quantity' in change) return { QuantityCurrent: change.quantity };
  return { Increment: change.increment };
}

/** Per-request context forwarded upstream. */
export interface CallContext {
  language?: string | undefined;
}

/**
 * One call to the service. Every field is required, and every call site writes them in this
 * order: the specs then share one shape, so the functions that read them stay monomorphic in
 * V8 (a read of the subscription among the usages reads otherwise deoptimizes them).
 */
interface CallSpec<T> {
  method: 'GET' | 'POST';
  /** Path with placeholders, for logs and errors (never includes customer data). */
  route: string;
  path: string;
  query: Record<string, string | number> | undefined;
  body: unknown;
  schema: z.ZodType<T> | null;
  /** Idempotent reads only: retried on network errors, timeouts and 5xx. */
  retry: boolean;
  timeoutMs: number;
  /** A 204 or an empty 2xx body is a valid answer (returned as undefined). */
  allowEmpty: boolean;
  context: CallContext | undefined;
}

const USAGES_PAGE_SIZE = 1000;
const MAX_USAGE_PAGES = 100;
const MAX_LOGGED_BODY = 2048;
const LANGUAGE_PATTERN = /^[A-Za-z0-9*][A-Za-z0-9,;=.* -]{0,99}$/;

/** What encodeURIComponent leaves as it is and a form's encoding (URLSearchParams) does not. */
const NOT_FORM_ENCODED = /[!'()~]|%20/;
const FORM_ENCODED: Record<string, string> = {
  '!': '%21',
  "'": '%27',
  '(': '%28',
  ')': '%29',
  '~': '%7E',
  '%20': '+',
};

/** A query name or value encoded as URLSearchParams encodes it (a space is `+`). */
function formEncode(text: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(text);
  } catch {
    // A lone surrogate, which encodeURIComponent refuses: URLSearchParams writes U+FFFD instead.
    return new URLSearchParams({ '': text }).toString().slice(1);
  }
  return NOT_FORM_ENCODED.test(encoded)
    ? encoded.replace(/[!'()~]|%20/g, (part) => FORM_ENCODED[part] as string)
    : encoded;
}

function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Reads the answer's `Date` header as the service's clock (to the second). Answers of the same
 * second carry the same header: it is parsed once per second, not once per call.
 */
function serviceClock() {
  let lastHeader: string | null = null;
  let lastTime: number | undefined;
  return (answer: UpstreamAnswer): number | undefined => {
    if (answer.date !== lastHeader) {
      lastHeader = answer.date;
      const time = answer.date === null ? NaN : Date.parse(answer.date);
      // The header is truncated to the second: the service's time is within the next second.
      lastTime = Number.isNaN(time) ? undefined : time + 500;
    }
    return lastTime;
  };
}

/** The customer's language as the service stores it: the primary subtag, lower case ("fr"). */
export function customerLanguage(language: string | undefined): string | undefined {
  const primary = language?.split(/[,;-]/)[0]?.trim().toLowerCase();
  return primary !== undefined && /^[a-z]{2,3}$/.test(primary) ? primary : undefined;
}

/** The billing service's API, as the proxy uses it. Every answer is parsed with the contract's schemas. */
export function createUpstreamClient(options: ResolvedOptions) {
  const authorization = `Basic ${base64(`${options.agentKey}:${options.apiKey}`)}`;
  const { logger, paths, baseUrl } = options;
  const { exchange } = options;
  /** The service's clock minus ours, from the latest answer that carried a Date header. */
  let serviceOffsetMs = 0;
  const serviceTimeOf = serviceClock();

  /** Sends one call; a failure to get a whole answer becomes a timeout or network UpstreamError. */
  async function send(spec: CallSpec<unknown>): Promise<UpstreamAnswer> {
    let path = spec.path;
    if (spec.query !== undefined) {
      // Built by hand, as URLSearchParams writes it: URLSearchParams itself costs a few
      // microseconds per call on Node, a tenth of the proxy's own work on a read.
      let separator = '?';
      for (const name in spec.query) {
        path += `${separator}${formEncode(name)}=${formEncode(String(spec.query[name]))}`;
        separator = '&';
      }
    }
    const headers: Record<string, string> = { authorization, accept: 'application/json' };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    const language = spec.context?.language;
    if (language !== undefined && LANGUAGE_PATTERN.test(language))
      headers['accept-language'] = language;

    let answer: UpstreamAnswer;
    try {
      answer = await exchange({
        url: baseUrl + path,
        method: spec.method,
        headers,
        body: spec.body === undefined ? null : JSON.stringify(spec.body),
        timeoutMs: spec.timeoutMs,
      });
    } catch (error) {
      const timedOut = error instanceof ExchangeTimeoutError;
      throw new UpstreamError(
        timedOut ? 'timeout' : 'network',
        spec.route,
        timedOut
          ? `${spec.route} timed out after ${spec.timeoutMs} ms`
          : `${spec.route} failed: ${String(error)}`,
        { cause: error },
      );
    }
    const serviceTime = serviceTimeOf(answer);
    if (serviceTime !== undefined) serviceOffsetMs = serviceTime - Date.now();
    return answer;
  }

  /** The body of a 2xx answer, parsed with the call's schema (undefined for an allowed empty one). */
  function readSuccess<T>(spec: CallSpec<T>, { status, text }: UpstreamAnswer): T | undefined {
    if (text.trim() === '') {
      if (spec.allowEmpty || spec.schema === null) return undefined;
      throw new UpstreamError(
        'invalid-response',
        spec.route,
        `${spec.route} answered ${status} with no body`,
        { status },
      );
    }
    if (spec.schema === null) return undefined;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      logger({
        level: 'error',
        event: 'upstream-invalid-json',
        message: `${spec.route} answered invalid JSON`,
        body: text.slice(0, MAX_LOGGED_BODY),
      });
      throw new UpstreamError(
        'invalid-response',
        spec.route,
        `${spec.route} answered invalid JSON`,
        {
          status,
          cause,
        },
      );
    }
    const parsed = guardedParser(spec.schema)(json);
    if (!parsed.success) {
      logger({
        level: 'error',
        event: 'upstream-invalid-response',
        message: `${spec.route} answered a body that does not match the contract`,
        issues: parsed.error.issues.slice(0, 10),
        body: text.slice(0, MAX_LOGGED_BODY),
      });
      throw new UpstreamError(
        'invalid-response',
        spec.route,
        `${spec.route} answered an unexpected body`,
        { status },
      );
    }
    return parsed.data;
  }

  /** The error for a non-2xx answer, with the service's error code when its body has one. */
  function readRefusal(spec: CallSpec<unknown>, { status, text }: UpstreamAnswer): UpstreamError {
    let serviceCode: string | undefined;
    try {
      const errorBody = ServiceErrorBodySchema.safeParse(JSON.parse(text));
      if (errorBody.success)
        serviceCode = (Array.isArray(errorBody.data) ? errorBody.data[0] : errorBody.data)?.Code;
    } catch {
      // Not JSON: an HTTP failure without a service error body.
    }
    const hint = misconfigurationHint(status, serviceCode);
    logger({
      level: status >= 500 || hint !== undefined ? 'error' : 'debug',
      event: 'upstream-refused',
      message: `${spec.route} answered ${status}${serviceCode ? ` ${serviceCode}` : ''}${hint ? `: ${hint}` : ''}`,
      status,
      body: text.slice(0, MAX_LOGGED_BODY),
    });
    return new UpstreamError(
      serviceCode ? 'service' : 'http',
      spec.route,
      `${spec.route} answered ${status}`,
      { status, ...(serviceCode ? { serviceCode } : {}) },
    );
  }

  /** What the operator should check when a refusal says the proxy is set up wrong. */
  function misconfigurationHint(status: number, serviceCode: string | undefined) {
    if (status === 401) return 'the service refused the credentials: check agentKey and apiKey';
    if (status !== 404 || (serviceCode !== undefined && serviceCode !== 'Error.Api.NotFound'))
      return undefined;
    return /\/v1\/?$/i.test(baseUrl)
      ? `baseUrl (${baseUrl}) ends in /v1, and every path the proxy calls starts with /v1: remove /v1 from baseUrl`
      : `the service has no such path: check baseUrl (${baseUrl}) and the paths option`;
  }

  async function call<T>(spec: CallSpec<T>): Promise<T | undefined> {
    const attempts = spec.retry ? options.limits.upstreamRetries + 1 : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await send(spec);
        if (answer.status >= 200 && answer.status < 300) return readSuccess(spec, answer);
        throw readRefusal(spec, answer);
      } catch (error) {
        const retryable =
          error instanceof UpstreamError &&
          (error.kind === 'network' ||
            error.kind === 'timeout' ||
            (error.status ?? 0) >= 500 ||
            error.status === 429);
        if (!retryable || attempt >= attempts) throw error;
        // Exponential backoff with jitter, so that instances retrying together spread out.
        const base = Math.min(1000, 50 * 2 ** (attempt - 1));
        logger({
          level: 'warn',
          event: 'upstream-retry',
          message: `${spec.route}: ${error.message}; retry ${attempt}`,
        });
        await sleep(base / 2 + Math.random() * (base / 2));
      }
    }
  }

  async function required<T>(spec: CallSpec<T>): Promise<T> {
    const value = await call(spec);
    if (value === undefined)
      throw new UpstreamError('invalid-response', spec.route, `${spec.route} answered no body`);
    return value;
  }

  /**
   * A call that changes something: sent once (an ambiguous failure is the caller's to
   * reconcile), with the apply timeout. Any 2xx is the change made: its answer is returned
   * as it is, whatever its body; anything else is a refusal.
   */
  async function change(
    route: string,
    path: string,
    query: Record<string, string> | undefined,
    body: unknown,
    context: CallContext | undefined,
  ): Promise<UpstreamAnswer> {
    const spec: CallSpec<unknown> = {
      method: 'POST',
      route,
      path,
      query,
      body,
      schema: null,
      retry: false,
      timeoutMs: options.timeouts.applyMs,
      allowEmpty: false,
      context,
    };
    const answer = await send(spec);
    if (answer.status < 200 || answer.status >= 300) throw readRefusal(spec, answer);
    return answer;
  }

  const upstreamMs = options.timeouts.upstreamMs;

  /** A read: retried, each try with the upstream timeout, its answer required. */
  function get<T>(
    route: string,
    path: string,
    schema: z.ZodType<T>,
    query: Record<string, string | number> | undefined,
    context: CallContext | undefined,
  ): Promise<T> {
    return required({
      method: 'GET',
      route,
      path,
      query,
      body: undefined,
      schema,
      retry: true,
      timeoutMs: upstreamMs,
      allowEmpty: false,
      context,
    });
  }

  return {
    /** The service's clock now, as the latest answer's Date header tells it (ours without one). */
    serviceNow(): number {
      return Date.now() + serviceOffsetMs;
    },

    /** Every Usage of the customer: all pages merged; an empty answer is an empty list. */
    async usages(customer: string, context?: CallContext): Promise<Usage[]> {
      const items: Usage[] = [];
      for (let page = 1; page <= MAX_USAGE_PAGES; page++) {
        const list = await call({
          method: 'GET',
          route: `GET ${paths.usages}`,
          path: paths.usages,
          query: { ReferenceCustomer: customer, Page: page, SizePage: USAGES_PAGE_SIZE },
          body: undefined,
          schema: UsagesPageSchema,
          retry: true,
          timeoutMs: upstreamMs,
          allowEmpty: true,
          context,
        });
        if (list === undefined) break;
        items.push(...list.Items);
        if (
          list.Items.length === 0 ||
          items.length >= list.TotalItems ||
          list.Items.length < list.SizePage
        )
          break;
      }
      // Defence in depth: an item the service attributes to someone else never leaves.
      return items.filter(
        (usage) => usage.ReferenceCustomer === undefined || usage.ReferenceCustomer === customer,
      );
    },

    /**
     * The price of a change, dated now, NextTerm included. Does not change anything. `NextTerm`
     * (and `EnsureBillable` when configured) go in the query, where the live service reads them;
     * the body keeps a `NextTerm` copy for services that read the seed's body field.
     */
    async pricing(
      customer: string,
      feature: string,
      change: UsageChange,
      context?: CallContext,
    ): Promise<PricingUsageResult> {
      const route = `POST ${paths.pricing}`;
      const query: Record<string, string> = { NextTerm: 'true' };
      if (options.ensureBillable !== undefined)
        query.EnsureBillable = String(options.ensureBillable);
      const answer = await required({
        method: 'POST',
        route,
        path: paths.pricing,
        query,
        body: {
          ReferenceCustomer: customer,
          ReferenceFeature: feature,
          ...changeFields(change),
          DateStamp: new Date().toISOString(),
          NextTerm: true,
        },
        schema: PricingUsageAnswerSchema,
        // A pricing call has no effect upstream, so it is retried like a read.
        retry: true,
        timeoutMs: upstreamMs,
        allowEmpty: false,
        context,
      });
      const quote = normalizeQuote(answer, feature, context?.language);
      if (quote === undefined) {
        logger({
          level: 'error',
          event: 'upstream-invalid-response',
          message: `${route} answered a quote without AmountTotal or AmountTotalDue`,
        });
        throw new UpstreamError(
          'invalid-response',
          route,
          `${route} answered a quote without an amount`,
        );
      }
      return quote;
    },

    /**
     * Applies a change. Never retried here: an ambiguous failure is resolved by the caller's
     * reconciliation. Any 2xx means applied, whatever its body: `usage` is the updated usage when
     * the answer carries a readable one, undefined otherwise (empty, not JSON, another shape).
     */
    async applyUsage(
      customer: string,
      feature: string,
      usageChange: UsageChange,
      context?: CallContext,
    ): Promise<{ usage: Usage | undefined }> {
      const route = `POST ${paths.usage}`;
      const answer = await change(
        route,
        paths.usage,
        undefined,
        {
          ReferenceCustomer: customer,
          ReferenceFeature: feature,
          ...changeFields(usageChange),
          DateStamp: new Date().toISOString(),
        },
        context,
      );
      let json: unknown;
      try {
        json = JSON.parse(answer.text);
      } catch {
        json = undefined;
      }
      const usage = UsageSchema.safeParse(json);
      if (usage.success) return { usage: usage.data };
      logger({
        level: 'warn',
        event: 'apply-answer-unreadable',
        message: `${route} answered ${answer.status} with a body that is not a usage; the change is applied, reading it back`,
        body: answer.text.slice(0, MAX_LOGGED_BODY),
      });
      return { usage: undefined };
    },

    customer(
      customer: string,
      offer: string | undefined,
      context?: CallContext,
    ): Promise<Customer> {
      const query: Record<string, string> = { ReferenceCustomer: customer };
      if (offer !== undefined) query.ReferenceOffer = offer;
      return get(`GET ${paths.customer}`, paths.customer, CustomerSchema, query, context);
    },

    /**
     * Creates the customer, or updates it: the service keys customers by reference, so repeating
     * it is harmless. The customer's language goes with it: the service localizes labels and
     * prices in it.
     */
    async createCustomer(identity: BillingIdentity, segment: string): Promise<void> {
      const language = customerLanguage(identity.language);
      await call({
        method: 'POST',
        route: `POST ${paths.customer}`,
        path: paths.customer,
        query: undefined,
        body: {
          ReferenceCustomer: identity.reference,
          Name: identity.name ?? identity.reference,
          ...(identity.email === undefined ? {} : { Email: identity.email }),
          ReferenceSegment: segment,
          ...(language === undefined ? {} : { Language: language }),
        },
        schema: null,
        retry: true,
        timeoutMs: upstreamMs,
        allowEmpty: true,
        context: undefined,
      });
    },

    subscriptionOf(customer: string, context?: CallContext): Promise<Subscription> {
      return get(
        'GET /v1/Subscription?ReferenceCustomer',
        '/v1/Subscription',
        SubscriptionSchema,
        { ReferenceCustomer: customer },
        context,
      );
    },

    subscription(id: number, context?: CallContext): Promise<Subscription> {
      return get(
        'GET /v1/Subscription/{id}',
        `/v1/Subscription/${id}`,
        SubscriptionSchema,
        undefined,
        context,
      );
    },

    /**
     * The customer's subscriptions in every state (the live service's subscriptions list), the
     * custom ones the business prepared among them.
     */
    async subscriptionsOf(customer: string, context?: CallContext): Promise<Subscription[]> {
      const page = await get(
        'GET /v1/Subscriptions',
        '/v1/Subscriptions',
        SubscriptionsPageSchema,
        { ReferenceCustomer: customer, Page: 1, SizePage: 100 },
        context,
      );
      return page.Items;
    },

    /** A targeted (custom) subscription, seen as an upgrade of the current one. */
    targetedSubscription(
      target: number,
      current: number,
      context?: CallContext,
    ): Promise<Subscription> {
      return get(
        'GET /v1/Subscription/{id}/?IdSubscriptionToUpgrade',
        `/v1/Subscription/${target}/`,
        SubscriptionSchema,
        { IdSubscriptionToUpgrade: current },
        context,
      );
    },

    /** The subscription as it would be on another offer, with its change-plan links. */
    upgradePreview(id: number, offer: string, context?: CallContext): Promise<Subscription> {
      return get(
        'GET /v1/Subscription/{id}/Upgrade',
        `/v1/Subscription/${id}/Upgrade`,
        SubscriptionSchema,
        { ReferenceOffer: offer },
        context,
      );
    },

    /** The visible offers of the customer's segment, `IsCurrent` marking the customer's own. */
    async offers(customer: string, context?: CallContext): Promise<Offer[]> {
      const page = await get(
        'GET /v1/Offers',
        '/v1/Offers',
        OffersPageSchema,
        // Html=false: localized pricing as text (the HTML form is untrusted markup).
        { ReferenceCustomer: customer, IsVisible: 'true', Html: 'false', Page: 1, SizePage: 100 },
        context,
      );
      return page.Items;
    },

    /** The quote of moving a subscription to an offer; changes nothing. Retried like a read. */
    upgradeQuote(id: number, offer: string, context?: CallContext): Promise<UpgradeQuote> {
      return required({
        method: 'POST',
        route: 'POST /v1/Quoting/Subscription/{id}/Upgrade',
        path: `/v1/Quoting/Subscription/${id}/Upgrade`,
        query: { ReferenceOffer: offer },
        body: undefined,
        schema: UpgradeQuoteSchema,
        retry: true,
        timeoutMs: upstreamMs,
        allowEmpty: false,
        context,
      });
    },

    /**
     * Moves a subscription to an offer (seed endpoint 9). Never retried here: an ambiguous
     * failure is reconciled by the caller. Any 2xx means changed, whatever its body.
     */
    async changeOffer(id: number, offer: string, context?: CallContext): Promise<void> {
      await change(
        'POST /v1/Subscription/{id}/Upgrade',
        `/v1/Subscription/${id}/Upgrade`,
        { ReferenceOffer: offer },
        undefined,
        context,
      );
    },

    /**
     * One page of the customer's invoices, newest first. The live service answers a list with
     * no invoice 204 and no body: read as an empty page.
     */
    async invoices(
      customer: string,
      page: number,
      size: number,
      context?: CallContext,
    ): Promise<InvoicesPage> {
      const list = await call({
        method: 'GET',
        route: 'GET /v1/Invoices',
        path: '/v1/Invoices',
        query: { ReferenceCustomer: customer, Page: page, SizePage: size },
        body: undefined,
        schema: InvoicesPageSchema,
        retry: true,
        timeoutMs: upstreamMs,
        allowEmpty: true,
        context,
      });
      return list ?? { Page: page, SizePage: size, Count: 0, TotalItems: 0, Items: [] };
    },

    invoice(id: number, context?: CallContext): Promise<Invoice> {
      return get('GET /v1/Invoice/{id}', `/v1/Invoice/${id}`, InvoiceSchema, undefined, context);
    },
  };
}

export type UpstreamClient = ReturnType<typeof createUpstreamClient>;

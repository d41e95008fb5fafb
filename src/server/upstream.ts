import * as z from 'zod/mini';
import {
  CustomerSchema as CustomerContract,
  InvoiceSchema as InvoiceContract,
  PricingUsageResultSchema as PricingUsageResultContract,
  ServiceErrorBodySchema as ServiceErrorBodyContract,
  SubscriptionSchema as SubscriptionContract,
  UsageSchema as UsageContract,
  UsagesPageSchema as UsagesPageContract,
  type Customer,
  type Invoice,
  type PricingUsageResult,
  type Subscription,
  type Usage,
} from '../contract/index.js';
import { compiled } from './compiled-schema.js';
import { UpstreamError } from './errors.js';
import type { BillingIdentity, ResolvedOptions } from './options.js';
import type { UpstreamAnswer } from './transport.js';

/** Per-request context forwarded upstream. */
export interface CallContext {
  language?: string | undefined;
}

interface CallSpec<T> {
  method: 'GET' | 'POST';
  /** Path with placeholders, for logs and errors (never includes customer data). */
  route: string;
  path: string;
  query?: Record<string, string | number>;
  body?: unknown;
  schema: z.ZodMiniType<T> | null;
  /** Idempotent reads only: retried on network errors, timeouts and 5xx. */
  retry: boolean;
  timeoutMs: number;
  /** A 204 or an empty 2xx body is a valid answer (returned as undefined). */
  allowEmpty?: boolean;
  context?: CallContext | undefined;
}

// The contract's schemas, compiled (same parse, about 3 times faster: see compiled-schema.ts).
const CustomerSchema = compiled(CustomerContract);
const InvoiceSchema = compiled(InvoiceContract);
const PricingUsageResultSchema = compiled(PricingUsageResultContract);
const ServiceErrorBodySchema = compiled(ServiceErrorBodyContract);
const SubscriptionSchema = compiled(SubscriptionContract);
const UsageSchema = compiled(UsageContract);
const UsagesPageSchema = compiled(UsagesPageContract);

const USAGES_PAGE_SIZE = 1000;
const MAX_USAGE_PAGES = 100;
const MAX_LOGGED_BODY = 2048;
const LANGUAGE_PATTERN = /^[A-Za-z0-9*][A-Za-z0-9,;=.* -]{0,99}$/;

function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The billing service's API, as the proxy uses it. Every answer is parsed with the contract's schemas. */
export function createUpstreamClient(options: ResolvedOptions) {
  const authorization = `Basic ${base64(`${options.agentKey}:${options.apiKey}`)}`;
  const { logger, transport } = options;

  async function once<T>(spec: CallSpec<T>): Promise<T | undefined> {
    let path = spec.path;
    if (spec.query !== undefined) {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(spec.query)) query.set(name, String(value));
      path += `?${query}`;
    }
    const headers: Record<string, string> = { authorization, accept: 'application/json' };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    const language = spec.context?.language;
    if (language !== undefined && LANGUAGE_PATTERN.test(language))
      headers['accept-language'] = language;

    let response: UpstreamAnswer;
    try {
      response = await transport({
        method: spec.method,
        path,
        headers,
        body: spec.body === undefined ? null : JSON.stringify(spec.body),
        timeoutMs: spec.timeoutMs,
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new UpstreamError(
        timedOut ? 'timeout' : 'network',
        spec.route,
        timedOut
          ? `${spec.route} timed out after ${spec.timeoutMs} ms`
          : `${spec.route} failed: ${String(error)}`,
        { cause: error },
      );
    }
    const { status, text } = response;

    if (status >= 200 && status < 300) {
      if (text.trim() === '') {
        if (spec.allowEmpty || spec.schema === null) return undefined;
        throw new UpstreamError(
          'invalid-response',
          spec.route,
          `${spec.route} answered ${status} with no body`,
          {
            status,
          },
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
          { status, cause },
        );
      }
      const parsed = spec.schema.safeParse(json);
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

    let serviceCode: string | undefined;
    try {
      const errorBody = ServiceErrorBodySchema.safeParse(JSON.parse(text));
      if (errorBody.success)
        serviceCode = (Array.isArray(errorBody.data) ? errorBody.data[0] : errorBody.data)?.Code;
    } catch {
      // Not JSON: an HTTP failure without a service error body.
    }
    logger({
      level: status >= 500 || status === 401 ? 'error' : 'debug',
      event: 'upstream-refused',
      message: `${spec.route} answered ${status}${serviceCode ? ` ${serviceCode}` : ''}`,
      status,
      body: text.slice(0, MAX_LOGGED_BODY),
    });
    throw new UpstreamError(
      serviceCode ? 'service' : 'http',
      spec.route,
      `${spec.route} answered ${status}`,
      {
        status,
        ...(serviceCode ? { serviceCode } : {}),
      },
    );
  }

  async function call<T>(spec: CallSpec<T>): Promise<T | undefined> {
    const attempts = spec.retry ? options.limits.upstreamRetries + 1 : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(spec);
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

  // Reads (and pricing, which changes nothing) are retried, each try with this timeout. Specs are
  // plain literals: on Node 20 an object spread followed by more properties costs microseconds.
  const upstreamMs = options.timeouts.upstreamMs;

  return {
    /** Every Usage of the customer: all pages merged; an empty answer is an empty list. */
    async usages(customer: string, context?: CallContext): Promise<Usage[]> {
      const items: Usage[] = [];
      for (let page = 1; page <= MAX_USAGE_PAGES; page++) {
        const list = await call({
          retry: true,
          timeoutMs: upstreamMs,
          method: 'GET',
          route: 'GET /v1/Usages',
          path: '/v1/Usages',
          query: { ReferenceCustomer: customer, Page: page, SizePage: USAGES_PAGE_SIZE },
          schema: UsagesPageSchema,
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

    /** The price of a change, dated now, NextTerm included. Does not change anything. */
    pricing(
      customer: string,
      feature: string,
      increment: number,
      context?: CallContext,
    ): Promise<PricingUsageResult> {
      // A pricing call has no effect upstream, so it is retried like a read.
      return required({
        retry: true,
        timeoutMs: upstreamMs,
        method: 'POST',
        route: 'POST /v1/Pricing/Usage',
        path: '/v1/Pricing/Usage',
        body: {
          ReferenceCustomer: customer,
          ReferenceFeature: feature,
          Increment: increment,
          DateStamp: new Date().toISOString(),
          NextTerm: true,
        },
        schema: PricingUsageResultSchema,
        context,
      });
    },

    /**
     * Applies a change. Never retried here: an ambiguous failure is resolved by the caller's
     * reconciliation. Returns the updated usage when the answer carries one.
     */
    async applyUsage(
      customer: string,
      feature: string,
      increment: number,
      context?: CallContext,
    ): Promise<Usage | undefined> {
      const answer = await call({
        method: 'POST',
        route: 'POST /v1/Usage',
        path: '/v1/Usage',
        body: {
          ReferenceCustomer: customer,
          ReferenceFeature: feature,
          Increment: increment,
          DateStamp: new Date().toISOString(),
        },
        // Any 2xx means applied: a body we cannot read must not turn a success into a failure.
        schema: z.unknown(),
        retry: false,
        timeoutMs: options.timeouts.applyMs,
        allowEmpty: true,
        context,
      });
      const usage = UsageSchema.safeParse(answer);
      return usage.success ? usage.data : undefined;
    },

    customer(
      customer: string,
      offer: string | undefined,
      context?: CallContext,
    ): Promise<Customer> {
      return required({
        retry: true,
        timeoutMs: upstreamMs,
        method: 'GET',
        route: 'GET /v1/Customer',
        path: '/v1/Customer',
        query:
          offer === undefined
            ? { ReferenceCustomer: customer }
            : { ReferenceCustomer: customer, ReferenceOffer: offer },
        schema: CustomerSchema,
        context,
      });
    },

    /** Creates the customer; repeating it is harmless (the service keys customers by reference). */
    async createCustomer(identity: BillingIdentity, segment: string): Promise<void> {
      await call({
        retry: true,
        timeoutMs: upstreamMs,
        // Creation by reference does not duplicate, so retrying it is safe.
        method: 'POST',
        route: 'POST /v1/customer',
        path: '/v1/customer',
        body: {
          ReferenceCustomer: identity.reference,
          Name: identity.name ?? identity.reference,
          Email: identity.email ?? '',

          ReferenceSegment: segment,
        },
        schema: null,
        allowEmpty: true,
      });
    },

    subscriptionOf(customer: string, context?: CallContext): Promise<Subscription> {
      return required({
        retry: true,
        timeoutMs: upstreamMs,
        method: 'GET',
        route: 'GET /v1/Subscription?ReferenceCustomer',
        path: '/v1/Subscription',
        query: { ReferenceCustomer: customer },
        schema: SubscriptionSchema,
        context,
      });
    },

    subscription(id: number, context?: CallContext): Promise<Subscription> {
      return required({
        retry: true,
        timeoutMs: upstreamMs,
        method: 'GET',
        route: 'GET /v1/Subscription/{id}',
        path: `/v1/Subscription/${id}`,
        schema: SubscriptionSchema,
        context,
      });
    },

    /** A targeted (custom) subscription, seen as an upgrade of the current one. */
    targetedSubscription(
      target: number,
      current: number,
      context?: CallContext,
    ): Promise<Subscription> {
      return required({
        retry: true,
        timeoutMs: upstreamMs,
        method: 'GET',
        route: 'GET /v1/Subscription/{id}/?IdSubscriptionToUpgrade',
        path: `/v1/Subscription/${target}/`,
        query: { IdSubscriptionToUpgrade: current },
        schema: SubscriptionSchema,
        context,
      });
    },

    /** The subscription as it would be on another offer, with its change-plan links. */
    upgradePreview(id: number, offer: string, context?: CallContext): Promise<Subscription> {
      return required({
        retry: true,
        timeoutMs: upstreamMs,
        method: 'GET',
        route: 'GET /v1/Subscription/{id}/Upgrade',
        path: `/v1/Subscription/${id}/Upgrade`,
        query: { ReferenceOffer: offer },
        schema: SubscriptionSchema,
        context,
      });
    },

    invoice(id: number, context?: CallContext): Promise<Invoice> {
      return required({
        retry: true,
        timeoutMs: upstreamMs,
        method: 'GET',
        route: 'GET /v1/Invoice/{id}',
        path: `/v1/Invoice/${id}`,
        schema: InvoiceSchema,
        context,
      });
    },
  };
}

export type UpstreamClient = ReturnType<typeof createUpstreamClient>;

import * as z from 'zod';
import { fetchExchange, type Exchange } from './exchange.js';
import { nodeHttpExchange } from './exchange-node.js';
import type { TaxTreatment } from '../contract/proxy-api.js';
import type { IdempotencyStore } from './idempotency/store.js';
import type { BillingNotification } from './notifications/webhook.js';
import type { SignalBus } from './notifications/signals.js';

/** The signed-in customer, as the host app knows it. */
export interface BillingIdentity {
  /** ReferenceCustomer at the billing service. The only source of the customer: never the browser. */
  reference: string;
  /** Sent when the proxy creates the customer upstream. */
  name?: string;
  email?: string;
  /** BCP 47 language for localized prices and labels (sent as Accept-Language). */
  language?: string;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** What the logger hook receives: details that must never reach the browser land here. */
export interface ProxyLogEntry {
  level: LogLevel;
  event: string;
  message: string;
  [detail: string]: unknown;
}

export type ProxyLogger = (entry: ProxyLogEntry) => void;

const httpUrl = (what: string) =>
  z.string({ error: `${what} is required` }).refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:';
      } catch {
        return false;
      }
    },
    { error: `${what} must be an absolute http(s) URL` },
  );

const secret = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .check(z.minLength(1, `${what} must not be empty`))
    .refine((value) => value.trim() === value, `${what} has leading or trailing spaces`);

const origin = z.string().refine((value) => {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}, 'must be an origin like "https://shop.example.com" (scheme, host and port; no path, no "*" and no trailing slash)');

const upstreamPath = z
  .string()
  .regex(/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/, 'must be a path starting with "/" (no query)');

const positiveMs = z.number().int().positive().max(600_000);

const routeSubPath = z
  .string()
  .regex(/^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/, 'must start with "/" and not end with "/"');

const headerName = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be an HTTP header name')
  .transform((name) => name.toLowerCase());

const fn = <F>(error: string) => z.custom<F>((value) => typeof value === 'function', { error });

/**
 * The proxy's options, defined once: what the host passes is this schema's input
 * (`BillingProxyOptions`), what the proxy runs with its output (`ResolvedOptions`, defaults
 * filled). Checked once, when `createBillingProxy` runs. docs/proxy.md's table follows it.
 */
const OptionsSchema = z
  .object({
    /** Base URL of the billing service API (paths start with /v1). A trailing slash is dropped. */
    baseUrl: httpUrl('baseUrl').transform((value) => value.replace(/\/+$/, '')),
    /** HTTP Basic user name. */
    agentKey: secret('agentKey'),
    /** HTTP Basic password. */
    apiKey: secret('apiKey'),
    businessId: z.number({ error: 'businessId is required (a number)' }).int().nonnegative(),
    /** ReferenceSegment of the business's segment. */
    segment: secret('segment'),
    /** URL of the service's portal script (`ServicePortal.open`). */
    portalScriptUrl: httpUrl('portalScriptUrl'),
    /** Secret for the portal `hash` (HMAC-SHA256 of the customer reference). */
    portalSecret: secret('portalSecret'),
    /** The signed-in customer of the request (from the host app's own session), or null. */
    identify: fn<(request: Request) => Promise<BillingIdentity | null> | BillingIdentity | null>(
      'identify is required: a function (request) => { reference } | null',
    ),
    /**
     * How many units of a Limitation feature the customer uses in the host app (users holding a
     * seat), or undefined when the host does not count it: a decrease below it is refused
     * (`below-in-use`). Unset, or undefined for a feature, the proxy takes the page's `inUse`,
     * else refuses going below the plan's included quantity (`below-included`). The page's figure
     * can only raise this floor, never lower it.
     */
    inUse: fn<
      (
        identity: BillingIdentity,
        feature: string,
      ) => Promise<number | undefined> | number | undefined
    >('inUse must be a function (identity, feature) => number | undefined').optional(),
    /** Path prefix the proxy is mounted under, stripped before routing (e.g. '/billing'). */
    basePath: z
      .string()
      .regex(
        /^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*$/,
        'basePath must be "" or start with "/" and not end with "/"',
      )
      .default(''),
    /** Other origins allowed to call the proxy with credentials (CORS). Same-origin is always allowed. */
    allowedOrigins: z
      .array(origin)
      .default([])
      .transform((list): ReadonlySet<string> => new Set(list)),
    /** Origin of the hosted pages (for the elements' link checks). Default: the portal script's origin. */
    hostedOrigin: origin.optional(),
    /**
     * Take the request's public origin from X-Forwarded-Proto and X-Forwarded-Host, for the
     * same-origin check of browsers that send no `Sec-Fetch-Site`. Set it only behind a reverse
     * proxy that overwrites those headers (`next start` behind nginx, a load balancer...).
     */
    trustProxy: z.boolean().default(false),
    /** Create the customer upstream when the service does not know it. */
    ensureCustomer: z.boolean().default(true),
    /** The service's paths, where they differ from the seed's. */
    paths: z
      .strictObject({
        /** Reading (GET) and creating or updating (POST) a customer. */
        customer: upstreamPath.default('/v1/Customer'),
        /** The customer's usages. */
        usages: upstreamPath.default('/v1/Usages'),
        /** Applying a usage change. */
        usage: upstreamPath.default('/v1/Usage'),
        /** Pricing a usage change (the live reference also names it `/v1/Quoting/Usage`). */
        pricing: upstreamPath.default('/v1/Pricing/Usage'),
      })
      .prefault({}),
    /**
     * Sent as the `EnsureBillable` query parameter of every price check: true makes the service
     * check that the customer can be billed (payment method, unpaid invoices) even when the
     * change costs nothing now; false skips that check. Default: not sent.
     */
    ensureBillable: z.boolean().optional(),
    /**
     * Whether the prices the service quotes include tax (`'included'`) or have it added on the
     * invoice (`'excluded'`), for the elements to say so beside them; a function of the customer
     * when it depends on them (a consumer or a business, a country). Unset: prices say nothing
     * about tax. The service's quotes do not tell it, so the business does.
     */
    taxes: z
      .custom<TaxTreatment | ((identity: BillingIdentity) => TaxTreatment | undefined)>(
        (value) => value === 'included' || value === 'excluded' || typeof value === 'function',
        { error: "taxes must be 'included', 'excluded' or a function (identity) => one of them" },
      )
      .optional(),
    /** Where purchases remember their idempotency keys. Default: an in-memory store (one instance only). */
    idempotencyStore: z
      .custom<IdempotencyStore>(
        (value) =>
          typeof value === 'object' &&
          value !== null &&
          ['get', 'setIfAbsent', 'compareAndSet', 'compareAndDelete'].every(
            (name) => typeof (value as Record<string, unknown>)[name] === 'function',
          ),
        {
          error:
            'idempotencyStore must implement get, setIfAbsent, compareAndSet and compareAndDelete',
        },
      )
      .optional(),
    timeouts: z
      .strictObject({
        /** Per call to the service, each retry included. */
        upstreamMs: positiveMs.default(5_000),
        /** The call that applies a purchase (POST /v1/Usage). */
        applyMs: positiveMs.default(10_000),
        /** How long reconciliation reads back after an ambiguous failure. */
        reconcileMs: positiveMs.default(3_000),
        /** How long a duplicate purchase waits for the first one's outcome. */
        idempotencyWaitMs: positiveMs.default(20_000),
        /** Per call to the idempotency store; beyond it the request answers 503 store-unavailable. */
        storeMs: positiveMs.default(2_000),
        /** How long `close()` waits for the requests in flight before it resolves anyway. */
        shutdownMs: positiveMs.default(10_000),
      })
      .prefault({}),
    limits: z
      .strictObject({
        /** Largest accepted body, in bytes. */
        maxBodyBytes: z.number().int().min(64).max(1_048_576).default(16_384),
        /** Smallest increment accepted (0 is always refused). */
        minIncrement: z.number().int().default(1),
        /** Largest increment accepted. */
        maxIncrement: z.number().int().positive().default(10_000),
        /** Per-customer token bucket on POST /pricing and POST /usage, or false. */
        rateLimit: z
          .union([
            z.literal(false),
            z.strictObject({
              /** Burst size: requests a customer may make at once. */
              capacity: z.number().positive(),
              /** Sustained rate: tokens added per second. */
              refillPerSecond: z.number().positive(),
            }),
          ])
          .default({ capacity: 30, refillPerSecond: 5 }),
        /** Retries of idempotent reads on network errors and 5xx. */
        upstreamRetries: z.number().int().min(0).max(5).default(2),
        /** How long a refusal of a purchase is replayed to identical duplicates. */
        failedPurchaseTtlMs: positiveMs.default(5_000),
      })
      .prefault({})
      .refine((limits) => limits.minIncrement <= limits.maxIncrement, {
        error: 'limits.minIncrement is larger than limits.maxIncrement',
      }),
    /**
     * The service's notifications (webhooks): set this to receive them at
     * `{basePath}{notifications.path}`. Each becomes a signal to the customer's open pages.
     */
    notifications: z
      .strictObject({
        /** The webhook's secret, set in the service's back office. */
        secret: secret('notifications.secret'),
        /** The webhook's key; when set, a notification with another key is refused. */
        key: z.string().min(1).optional(),
        /** Where the proxy receives them, under basePath. */
        path: routeSubPath.default('/webhooks'),
        /** The header with the webhook's key (named after the service). */
        keyHeader: headerName.default('x-service-key'),
        /** The header with the signature: base64 of SHA-256 over key + secret. */
        signatureHeader: headerName.default('x-service-signature'),
        /** How long a notification's Id is remembered to drop duplicates and replays. */
        dedupeTtlMs: z
          .number()
          .int()
          .positive()
          .default(7 * 24 * 60 * 60 * 1000),
        /** Largest notification accepted, in bytes. */
        maxBodyBytes: z.number().int().min(1024).max(4_194_304).default(262_144),
        /** Runs after the proxy answered 200, for the host's own resynchronization: re-read, don't parse. */
        onNotification: fn<(notification: BillingNotification) => void | Promise<void>>(
          'notifications.onNotification must be a function',
        ).optional(),
      })
      .optional(),
    /** The server-sent event stream that tells open pages their billing changed, or false. */
    events: z
      .union([
        z.literal(false),
        z.strictObject({
          /** Where pages open it, under basePath. */
          path: routeSubPath.default('/events'),
          /** A comment line on every stream this often, so that nothing in between closes it. */
          heartbeatMs: z.number().int().min(1_000).max(300_000).default(25_000),
          /** The reconnection delay browsers are told. */
          retryMs: z.number().int().min(100).max(600_000).default(3_000),
          /** Streams one instance holds at most. */
          maxStreams: z.number().int().positive().default(10_000),
        }),
      ])
      .prefault({}),
    /**
     * GET `{basePath}{health.path}` for a load balancer: 200 when the idempotency store and the
     * billing service answer, else 503 naming the check that failed (no identify, nothing
     * secret). Or false.
     */
    health: z
      .union([
        z.literal(false),
        z.strictObject({
          /** Where it answers, under basePath. */
          path: routeSubPath.default('/health'),
          /** How long each check may take before it counts as failed. */
          timeoutMs: z.number().int().min(100).max(60_000).default(2_000),
        }),
      ])
      .prefault({}),
    /**
     * How signals reach every proxy instance: in-process by default; createRedisSignalBus() when
     * the host app runs more than one instance.
     */
    signals: z
      .custom<SignalBus>(
        (value) =>
          typeof value === 'object' &&
          value !== null &&
          ['publish', 'subscribe', 'close'].every(
            (name) => typeof (value as Record<string, unknown>)[name] === 'function',
          ),
        { error: 'signals must implement publish, subscribe and close' },
      )
      .optional(),
    /**
     * The fetch upstream calls go through (a wrapper that traces them, say). Default: the
     * runtime's fetch; on Node itself, node:http on a keep-alive Agent (see exchange-node.ts).
     */
    fetch: fn<typeof fetch>('fetch must be a function').optional(),
    /** Receives the details of failures (upstream bodies, stacks); never sent to the browser. */
    logger: fn<ProxyLogger>('logger must be a function').default(() => consoleLogger),
  })
  .transform((options) => ({
    ...options,
    hostedOrigin: options.hostedOrigin ?? new URL(options.portalScriptUrl).origin,
    /** How upstream calls are sent: through the `fetch` option when given. */
    exchange: options.fetch === undefined ? defaultExchange() : fetchExchange(options.fetch),
  }));

/**
 * node:http where the runtime is Node itself, the runtime's fetch everywhere else (looked up at
 * each call, so that a host or a test that replaces the global is followed).
 */
function defaultExchange(): Exchange {
  return nodeHttpExchange() ?? fetchExchange((input, init) => globalThis.fetch(input, init));
}

/** What the host app passes to `createBillingProxy`. */
export type BillingProxyOptions = z.input<typeof OptionsSchema>;
/** The options the proxy runs with: checked, defaults filled. */
export type ResolvedOptions = z.output<typeof OptionsSchema>;
export type RateLimitOptions = Exclude<ResolvedOptions['limits']['rateLimit'], false>;

/** Checks the options once, at creation, and fills the defaults. Throws a TypeError that names every problem. */
export function resolveOptions(options: BillingProxyOptions): ResolvedOptions {
  const parsed = OptionsSchema.safeParse(options);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const path = issue.path.join('.');
    return issue.message.startsWith(path) || path === ''
      ? issue.message
      : `${path}: ${issue.message}`;
  });
  throw new TypeError(`Invalid billing proxy options:\n - ${problems.join('\n - ')}`);
}

/** Default logger: warnings and errors to the console, without the details' values. */
function consoleLogger(entry: ProxyLogEntry): void {
  if (entry.level === 'warn') console.warn(`[billing-proxy] ${entry.event}: ${entry.message}`);
  else if (entry.level === 'error')
    console.error(`[billing-proxy] ${entry.event}: ${entry.message}`);
}

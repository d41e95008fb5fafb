import * as z from 'zod';
import type { IdempotencyStore } from './idempotency/store.js';

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

export interface RateLimitOptions {
  /** Burst size: requests a customer may make at once. */
  capacity: number;
  /** Sustained rate: tokens added per second. */
  refillPerSecond: number;
}

/** The service's paths the proxy calls. Defaults: the seed's. */
export interface UpstreamPaths {
  /** Reading (GET) and creating or updating (POST) a customer. Default `/v1/Customer`. */
  customer: string;
  /** The customer's usages. Default `/v1/Usages`. */
  usages: string;
  /** Applying a usage change. Default `/v1/Usage`. */
  usage: string;
  /** Pricing a usage change. Default `/v1/Pricing/Usage` (the live reference also names it `/v1/Quoting/Usage`). */
  pricing: string;
}

export const DEFAULT_UPSTREAM_PATHS: Readonly<UpstreamPaths> = {
  customer: '/v1/Customer',
  usages: '/v1/Usages',
  usage: '/v1/Usage',
  pricing: '/v1/Pricing/Usage',
};

export interface BillingProxyOptions {
  /** Base URL of the billing service API (paths start with /v1). */
  baseUrl: string;
  /** HTTP Basic user name. */
  agentKey: string;
  /** HTTP Basic password. */
  apiKey: string;
  businessId: number;
  /** ReferenceSegment of the business's segment. */
  segment: string;
  /** URL of the service's portal script (`ServicePortal.open`). */
  portalScriptUrl: string;
  /** Secret for the portal `hash` (HMAC-SHA256 of the customer reference). */
  portalSecret: string;
  /** The signed-in customer of the request (from the host app's own session), or null. */
  identify: (request: Request) => Promise<BillingIdentity | null> | BillingIdentity | null;
  /** Path prefix the proxy is mounted under, stripped before routing (e.g. '/billing'). Default ''. */
  basePath?: string;
  /** Other origins allowed to call the proxy with credentials (CORS). Same-origin is always allowed. */
  allowedOrigins?: string[];
  /** Origin of the hosted pages (for the elements' link checks). Default: the portal script's origin. */
  hostedOrigin?: string;
  /** Create the customer upstream when the service does not know it. Default true. */
  ensureCustomer?: boolean;
  /** The service's paths, where they differ from the seed's. */
  paths?: Partial<UpstreamPaths>;
  /**
   * Sent as the `EnsureBillable` query parameter of every price check: true makes the service
   * check that the customer can be billed (payment method, unpaid invoices) even when the change
   * costs nothing now; false skips that check. Default: not sent (the service's own default).
   */
  ensureBillable?: boolean;
  /** Where purchases remember their idempotency keys. Default: an in-memory store (one instance only). */
  idempotencyStore?: IdempotencyStore;
  timeouts?: {
    /** Per call to the service, each retry included. Default 5000 ms. */
    upstreamMs?: number;
    /** The call that applies a purchase (POST /v1/Usage). Default 10000 ms. */
    applyMs?: number;
    /** How long reconciliation reads back after an ambiguous failure. Default 3000 ms. */
    reconcileMs?: number;
    /** How long a duplicate purchase waits for the first one's outcome. Default 20000 ms. */
    idempotencyWaitMs?: number;
  };
  limits?: {
    /** Largest accepted body, in bytes. Default 16384. */
    maxBodyBytes?: number;
    /** Smallest increment accepted (0 is always refused). Default 1. */
    minIncrement?: number;
    /** Largest increment accepted. Default 10000. */
    maxIncrement?: number;
    /** Per-customer token bucket on POST /pricing and POST /usage, or false. Default 30 burst, 5/s. */
    rateLimit?: RateLimitOptions | false;
    /** Retries of idempotent reads on network errors and 5xx. Default 2. */
    upstreamRetries?: number;
    /** How long a refusal of a purchase is replayed to identical duplicates. Default 5000 ms. */
    failedPurchaseTtlMs?: number;
  };
  /** The fetch used for upstream calls. Default: the runtime's `fetch`. */
  fetch?: typeof fetch;
  /** Receives the details of failures (upstream bodies, stacks); never sent to the browser. */
  logger?: ProxyLogger;
}

export interface ResolvedOptions {
  baseUrl: string;
  agentKey: string;
  apiKey: string;
  businessId: number;
  segment: string;
  portalScriptUrl: string;
  portalSecret: string;
  identify: BillingProxyOptions['identify'];
  basePath: string;
  allowedOrigins: ReadonlySet<string>;
  hostedOrigin: string;
  ensureCustomer: boolean;
  paths: Readonly<UpstreamPaths>;
  ensureBillable: boolean | undefined;
  idempotencyStore: IdempotencyStore | undefined;
  timeouts: { upstreamMs: number; applyMs: number; reconcileMs: number; idempotencyWaitMs: number };
  limits: {
    maxBodyBytes: number;
    minIncrement: number;
    maxIncrement: number;
    rateLimit: RateLimitOptions | false;
    upstreamRetries: number;
    failedPurchaseTtlMs: number;
  };
  /** How upstream calls are sent: the `fetch` option, else the runtime's. */
  fetch: typeof fetch;
  logger: ProxyLogger;
}

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

const OptionsSchema = z.object({
  baseUrl: httpUrl('baseUrl'),
  agentKey: secret('agentKey'),
  apiKey: secret('apiKey'),
  businessId: z.number({ error: 'businessId is required (a number)' }).int().nonnegative(),
  segment: secret('segment'),
  portalScriptUrl: httpUrl('portalScriptUrl'),
  portalSecret: secret('portalSecret'),
  identify: z.custom<BillingProxyOptions['identify']>((value) => typeof value === 'function', {
    error: 'identify is required: a function (request) => { reference } | null',
  }),
  basePath: z
    .string()
    .regex(
      /^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*$/,
      'basePath must be "" or start with "/" and not end with "/"',
    )
    .optional(),
  allowedOrigins: z.array(origin).optional(),
  hostedOrigin: origin.optional(),
  ensureCustomer: z.boolean().optional(),
  paths: z
    .strictObject({
      customer: upstreamPath.optional(),
      usages: upstreamPath.optional(),
      usage: upstreamPath.optional(),
      pricing: upstreamPath.optional(),
    })
    .optional(),
  ensureBillable: z.boolean().optional(),
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
      upstreamMs: positiveMs.optional(),
      applyMs: positiveMs.optional(),
      reconcileMs: positiveMs.optional(),
      idempotencyWaitMs: positiveMs.optional(),
    })
    .optional(),
  limits: z
    .strictObject({
      maxBodyBytes: z.number().int().min(64).max(1_048_576).optional(),
      minIncrement: z.number().int().optional(),
      maxIncrement: z.number().int().positive().optional(),
      rateLimit: z
        .union([
          z.literal(false),
          z.strictObject({
            capacity: z.number().positive(),
            refillPerSecond: z.number().positive(),
          }),
        ])
        .optional(),
      upstreamRetries: z.number().int().min(0).max(5).optional(),
      failedPurchaseTtlMs: positiveMs.optional(),
    })
    .optional(),
  fetch: z
    .custom<typeof fetch>((value) => typeof value === 'function', 'fetch must be a function')
    .optional(),
  logger: z
    .custom<ProxyLogger>((value) => typeof value === 'function', 'logger must be a function')
    .optional(),
});

/** Checks the options once, at creation, and fills the defaults. Throws a TypeError that names every problem. */
export function resolveOptions(options: BillingProxyOptions): ResolvedOptions {
  const parsed = OptionsSchema.safeParse(options);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const path = issue.path.join('.');
      return issue.message.startsWith(path) || path === ''
        ? issue.message
        : `${path}: ${issue.message}`;
    });
    throw new TypeError(`Invalid billing proxy options:\n - ${problems.join('\n - ')}`);
  }
  const value = parsed.data;
  const minIncrement = value.limits?.minIncrement ?? 1;
  const maxIncrement = value.limits?.maxIncrement ?? 10_000;
  if (minIncrement > maxIncrement) {
    throw new TypeError(
      'Invalid billing proxy options:\n - limits.minIncrement is larger than limits.maxIncrement',
    );
  }
  const baseUrl = value.baseUrl.replace(/\/+$/, '');
  return {
    baseUrl,
    agentKey: value.agentKey,
    apiKey: value.apiKey,
    businessId: value.businessId,
    segment: value.segment,
    portalScriptUrl: value.portalScriptUrl,
    portalSecret: value.portalSecret,
    identify: value.identify,
    basePath: value.basePath ?? '',
    allowedOrigins: new Set(value.allowedOrigins ?? []),
    hostedOrigin: value.hostedOrigin ?? new URL(value.portalScriptUrl).origin,
    ensureCustomer: value.ensureCustomer ?? true,
    paths: { ...DEFAULT_UPSTREAM_PATHS, ...stripUndefined(value.paths ?? {}) },
    ensureBillable: value.ensureBillable,
    idempotencyStore: value.idempotencyStore,
    timeouts: {
      upstreamMs: value.timeouts?.upstreamMs ?? 5_000,
      applyMs: value.timeouts?.applyMs ?? 10_000,
      reconcileMs: value.timeouts?.reconcileMs ?? 3_000,
      idempotencyWaitMs: value.timeouts?.idempotencyWaitMs ?? 20_000,
    },
    limits: {
      maxBodyBytes: value.limits?.maxBodyBytes ?? 16_384,
      minIncrement,
      maxIncrement,
      rateLimit: value.limits?.rateLimit ?? { capacity: 30, refillPerSecond: 5 },
      upstreamRetries: value.limits?.upstreamRetries ?? 2,
      failedPurchaseTtlMs: value.limits?.failedPurchaseTtlMs ?? 5_000,
    },
    fetch: value.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    logger: value.logger ?? consoleLogger,
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, entry]) => entry !== undefined),
  ) as Partial<T>;
}

/** Default logger: warnings and errors to the console, without the details' values. */
function consoleLogger(entry: ProxyLogEntry): void {
  if (entry.level === 'warn') console.warn(`[billing-proxy] ${entry.event}: ${entry.message}`);
  else if (entry.level === 'error')
    console.error(`[billing-proxy] ${entry.event}: ${entry.message}`);
}

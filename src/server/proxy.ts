import type { RouteContext } from './context.js';
import { ProxyError, UpstreamError, toProxyError } from './errors.js';
import {
  ClientAbortError,
  JsonResult,
  errorResponse,
  isJsonContentType,
  jsonResponse,
  readJsonBody,
} from './http.js';
import { createMemoryIdempotencyStore } from './idempotency/memory-store.js';
import { resolveOptions, type BillingProxyOptions, type ResolvedOptions } from './options.js';
import { checkOrigin, corsHeaders, forwardedUrl, preflightResponse } from './origin.js';
import { createRateLimiter } from './rate-limit.js';
import { getLinks, getPortal } from './routes/portal.js';
import { getOffers, postPlan, postPlanQuote } from './routes/plan.js';
import { postUsage } from './routes/purchase.js';
import { getSubscription } from './routes/subscription.js';
import { getUsages, postPricing } from './routes/usages.js';
import { createEventHub } from './notifications/events.js';
import { createMemorySignalBus } from './notifications/signals.js';
import { receiveNotification } from './notifications/webhook.js';
import { createUpstreamClient } from './upstream.js';
import { createEntitlementChecker, createSuspensionCheck } from './entitlements.js';
import { checkIdentity, refuseQuery } from './validation.js';

export type BillingHandler = (request: Request) => Promise<Response>;

export interface BillingProxy {
  /** The web-standard core: every adapter calls it. */
  handler: BillingHandler;
  /** The same function, for runtimes that look for `fetch` (Bun, Deno, Hono, workers). */
  fetch: BillingHandler;
  /** The prefix the proxy is mounted under (adapters use it to pass other requests on). */
  basePath: string;
  /**
   * Tells the customer's open pages (on every instance sharing the signal bus) that their
   * billing changed, so that they re-read it: after your back end reported usage, say.
   */
  notify(customer: string): Promise<void>;
  /**
   * Whether the customer may use a feature (an on/off feature included and enabled, or room for
   * `quantity` more units, default 1), from GET /v1/Usages with a 10 s cache per customer that
   * any signal for the customer clears. For your own routes: gating in the browser only hides UI.
   */
  isEntitled(customer: string, feature: string, quantity?: number): Promise<boolean>;
  /**
   * Checks the options now: throws the TypeError that names every problem. Options given as a
   * function are otherwise checked at the first request; call this where the server starts
   * (in Next.js, `register()` of instrumentation.ts) so that a missing secret stops the start.
   */
  check(): void;
  /** Ends the open event streams and stops listening to the signal bus (on shutdown). */
  close(): Promise<void>;
}

interface Route {
  method: 'GET' | 'POST';
  run: (context: RouteContext) => Promise<unknown>;
}

const ROUTES: Record<string, Route> = {
  '/usages': { method: 'GET', run: (context) => (refuseQuery(context.url), getUsages(context)) },
  '/pricing': { method: 'POST', run: postPricing },
  '/usage': { method: 'POST', run: postUsage },
  '/offers': { method: 'GET', run: (context) => (refuseQuery(context.url), getOffers(context)) },
  '/plan/quote': { method: 'POST', run: postPlanQuote },
  '/plan': { method: 'POST', run: postPlan },
  '/portal': { method: 'GET', run: getPortal },
  '/links': { method: 'GET', run: getLinks },
  '/subscription': {
    method: 'GET',
    run: (context) => (refuseQuery(context.url), getSubscription(context)),
  },
};

/** The route path under the base path, or null when the request is not for the proxy. */
export function routePath(pathname: string, basePath: string): string | null {
  if (basePath === '') return pathname;
  if (pathname !== basePath && !pathname.startsWith(`${basePath}/`)) return null;
  return pathname.slice(basePath.length) || '/';
}

/**
 * Creates the billing proxy: the host app's endpoint between the browser components and the
 * billing service. Options given as an object are checked here, once: a mistake throws now.
 *
 * Options given as a function are read and checked when first needed (the first request,
 * `isEntitled`, `notify` or `check()`), not here: a build that imports the module where the
 * proxy is made (`next build` collecting a route's data, a container image built without its
 * secrets) runs without them, while a missing secret still fails loudly at start (`check()`)
 * or at the first request (a 500 and the problem in the server's log, on every request until
 * fixed).
 */
export function createBillingProxy(
  input: BillingProxyOptions | (() => BillingProxyOptions),
): BillingProxy {
  if (typeof input !== 'function') return buildProxy(resolveOptions(input));
  let built: BillingProxy | undefined;
  const proxy = (): BillingProxy => (built ??= buildProxy(resolveOptions(input())));
  const handler: BillingHandler = async (request) => {
    let resolved: BillingProxy;
    try {
      resolved = proxy();
    } catch (error) {
      console.error(
        `[billing-proxy] misconfiguration: ${error instanceof Error ? error.message : String(error)}`,
      );
      return errorResponse(
        new ProxyError(500, 'internal', 'The billing proxy is not configured on this server.'),
      );
    }
    return resolved.handler(request);
  };
  return {
    handler,
    fetch: handler,
    // Adapters read it to pass other paths on: it must not throw before the options are valid.
    get basePath() {
      if (built !== undefined) return built.basePath;
      try {
        return proxy().basePath;
      } catch {
        const { basePath } = input();
        return typeof basePath === 'string' ? basePath : '';
      }
    },
    notify: async (customer) => proxy().notify(customer),
    isEntitled: async (customer, feature, quantity) =>
      proxy().isEntitled(customer, feature, quantity),
    check() {
      proxy();
    },
    close: async () => built?.close(),
  };
}

function buildProxy(options: ResolvedOptions): BillingProxy {
  const upstream = createUpstreamClient(options);
  const store = options.idempotencyStore ?? createMemoryIdempotencyStore();
  const limiter =
    options.limits.rateLimit === false ? null : createRateLimiter(options.limits.rateLimit);
  const { logger } = options;
  const signals = options.signals ?? createMemorySignalBus();
  const hub = options.events === false ? null : createEventHub(signals, options.events, logger);
  const suspensions = createSuspensionCheck(upstream, signals);
  const entitlements = createEntitlementChecker(upstream, signals, suspensions);
  const routes: Record<string, Route> = { ...ROUTES };
  if (hub !== null && options.events !== false) {
    routes[options.events.path] = {
      method: 'GET',
      run: (context) => {
        refuseQuery(context.url);
        return Promise.resolve(
          // Not the request's signal: making one costs kilobytes per stream on Node's Request.
          hub.open(context.identity.reference, context.request.headers.get('last-event-id')),
        );
      },
    };
  }
  const webhook =
    options.notifications === undefined
      ? null
      : { options: options.notifications, store, signals, logger };
  const listedCors = (request: Request) => listedCorsFor(options.allowedOrigins, request);
  // A misconfiguration repeats on every request of a page: the operator is told once per cause.
  const warned = new Set<string>();
  const warnOnce = (cause: string, message: string) => {
    if (warned.has(cause) || warned.size > 100) return;
    warned.add(cause);
    logger({ level: 'warn', event: 'misconfiguration', message, cause });
  };

  async function handle(request: Request, url: URL): Promise<Response> {
    const path = routePath(url.pathname, options.basePath);
    // Server to server: the signature stands for the origin check and identify.
    if (webhook !== null && path === webhook.options.path)
      return receiveNotification(request, webhook);
    const route =
      path === null ? undefined : Object.hasOwn(routes, path) ? routes[path] : undefined;
    if (route === undefined) {
      throw attachHeaders(
        new ProxyError(404, 'not-found', 'No such billing route.'),
        listedCors(request),
      );
    }
    if (request.method === 'OPTIONS')
      return preflightResponse(request, options.allowedOrigins, [route.method]);
    if (request.method !== route.method) {
      throw new ProxyError(405, 'method-not-allowed', `Use ${route.method}.`, {
        headers: { allow: `${route.method}, OPTIONS`, ...listedCors(request) },
      });
    }
    const stateChanging = route.method === 'POST';
    const allowedOrigin = checkOrigin(request, url, options.allowedOrigins, stateChanging);
    const cors = corsHeaders(allowedOrigin);
    try {
      if (stateChanging && !isJsonContentType(request.headers.get('content-type'))) {
        throw new ProxyError(415, 'unsupported-media-type', 'Send the body as application/json.');
      }
      // The body is read (bounded) before identify so that an oversized upload is cut short
      // whoever sends it; it is only parsed, never used, until the customer is known.
      const body = stateChanging
        ? await readJsonBody(request, options.limits.maxBodyBytes)
        : undefined;
      const identified = await options.identify(request);
      if (identified === null || identified === undefined) {
        throw new ProxyError(401, 'unauthenticated', 'Sign in to see your billing.');
      }
      const identity = checkIdentity(identified);
      const context: RouteContext = {
        request,
        url,
        identity,
        call: {
          // The page's language first (the elements send it as Content-Language), then the
          // customer's, then the browser's.
          language:
            request.headers.get('content-language') ??
            identity.language ??
            request.headers.get('accept-language') ??
            undefined,
        },
        options,
        upstream,
        store,
        signals,
        suspensions,
        body,
        limiter,
      };
      const result = await route.run(context);
      if (result instanceof Response) {
        for (const [name, value] of Object.entries(cors)) result.headers.set(name, value);
        return result;
      }
      if (result instanceof JsonResult) return jsonResponse(result.status, result.body, cors);
      return jsonResponse(200, result, cors);
    } catch (error) {
      throw attachHeaders(error, cors);
    }
  }

  const handler: BillingHandler = async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
      if (options.trustProxy) url = forwardedUrl(url, request.headers);
    } catch {
      return errorResponse(new ProxyError(400, 'validation', 'Invalid request URL.'));
    }
    try {
      return await handle(request, url);
    } catch (error) {
      if (error instanceof ProxyError) {
        if (error.code === 'forbidden-origin') {
          const origin = request.headers.get('origin') ?? 'a page without Origin';
          warnOnce(
            `forbidden-origin ${origin}`,
            `Refused ${origin}: it is not in allowedOrigins of the proxy at ${options.basePath || '/'}. Add it there if that site may show billing.`,
          );
        }
        return errorResponse(error);
      }
      if (error instanceof ClientAbortError) {
        logger({
          level: 'info',
          event: 'client-aborted',
          message: error.message,
          method: request.method,
          path: url.pathname,
        });
        return errorResponse(new ProxyError(400, 'validation', 'The body ended early.'));
      }
      logger({
        level: 'error',
        event: 'internal-error',
        message: error instanceof Error ? error.message : String(error),
        stack: error instanceof Error ? error.stack : undefined,
        method: request.method,
        path: url.pathname,
      });
      return errorResponse(
        new ProxyError(500, 'internal', 'Something went wrong in the billing proxy.'),
      );
    }
  };

  return {
    handler,
    fetch: handler,
    basePath: options.basePath,
    notify: (customer) => signals.publish(customer),
    isEntitled: (customer, feature, quantity) =>
      entitlements.isEntitled(customer, feature, quantity),
    check() {},
    async close() {
      hub?.close();
      entitlements.close();
      suspensions.close();
      if (options.signals === undefined) await signals.close();
    },
  };
}

/** CORS headers for an origin listed in allowedOrigins, whatever the route (so it can read a 404). */
function listedCorsFor(
  allowedOrigins: ReadonlySet<string>,
  request: Request,
): Record<string, string> {
  const origin = request.headers.get('origin');
  return corsHeaders(origin !== null && allowedOrigins.has(origin) ? origin : null);
}

/** CORS headers go on refusals too, or an allowed origin could not read why it was refused. */
function attachHeaders(error: unknown, headers: Record<string, string>): unknown {
  const mapped =
    error instanceof ProxyError
      ? error
      : error instanceof UpstreamError
        ? toProxyError(error)
        : null;
  if (mapped === null) return error;
  Object.assign(mapped.headers, headers);
  return mapped;
}

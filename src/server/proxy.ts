import type { RouteContext } from './context.js';
import {
  ProxyError,
  StoreUnavailableError,
  UpstreamError,
  sessionChanged,
  storeUnavailable,
  toProxyError,
} from './errors.js';
import { createHealthCheck, shuttingDownHealth } from './health.js';
import {
  ClientAbortError,
  JsonResult,
  addHeaders,
  errorAnswer,
  isJsonContentType,
  jsonAnswer,
  readJsonBody,
  toResponse,
  type Answer,
} from './http.js';
import { createMemoryIdempotencyStore } from './idempotency/memory-store.js';
import { guardStore } from './idempotency/store.js';
import { resolveOptions, type BillingProxyOptions, type ResolvedOptions } from './options.js';
import { checkOrigin, corsHeaders, forwardedUrl, preflightResponse } from './origin.js';
import { createRateLimiter } from './rate-limit.js';
import { getInvoices } from './routes/invoices.js';
import { getLinks, getPortal } from './routes/portal.js';
import { getOffers, postPlan, postPlanQuote } from './routes/plan.js';
import { postUsage } from './routes/purchase.js';
import { getSubscription } from './routes/subscription.js';
import { getUsages, postPricing } from './routes/usages.js';
import { createEventHub } from './notifications/events.js';
import { createMemorySignalBus } from './notifications/signals.js';
import { receiveNotification } from './notifications/webhook.js';
import { warnOfRuntimeLimits } from './runtime.js';
import { createUpstreamClient } from './upstream.js';
import { createEntitlementChecker, createSuspensionCheck } from './entitlements.js';
import { checkIdentity, refuseQuery } from './validation.js';
import { createStreamTickets } from './stream-ticket.js';
import { SESSION_CUSTOMER_HEADER } from '../contract/constants.js';

/**
 * What a platform hands a fetch handler beside the request, where it has it (a Worker's `ctx`,
 * Netlify's `context`): `waitUntil` keeps work going after the answer is sent.
 */
export interface PlatformContext {
  waitUntil?(work: Promise<unknown>): void;
}

export type BillingHandler = (request: Request, platform?: PlatformContext) => Promise<Response>;

/** The core before its answer becomes a Response (see PlainAnswer): what the Node adapter calls. */
export type AnswerHandler = (request: Request, platform?: PlatformContext) => Promise<Answer>;

/** Each proxy's own handler, and the same function without the Response at the end. */
const answerHandlers = new WeakMap<BillingHandler, AnswerHandler>();

/**
 * The function behind a proxy's own `handler`, answering without making a Response; undefined
 * for any other function (a host's wrapper of the handler, which must be the one called).
 */
export function answerHandlerOf(handler: BillingHandler): AnswerHandler | undefined {
  return answerHandlers.get(handler);
}

function withAnswerHandler(answer: AnswerHandler): BillingHandler {
  const handler: BillingHandler = async (request, platform) =>
    toResponse(await answer(request, platform));
  answerHandlers.set(handler, answer);
  return handler;
}

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
  /**
   * Shuts down gracefully: from now on every new request is answered 503 `shutting-down` (with
   * Retry-After; the health route answers 503 too, so a load balancer stops sending), the open
   * event streams end with a `retry:` hint (the pages reconnect, to another instance), and the
   * requests in flight finish. Resolves once they have, or after `timeouts.shutdownMs` at most
   * (a warning names how many were still running); then stops listening to the signal bus.
   * Calling it again returns the same promise.
   */
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
  '/invoices': { method: 'GET', run: getInvoices },
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
  const handler = withAnswerHandler(async (request, platform) => {
    let resolved: BillingProxy;
    try {
      resolved = proxy();
    } catch (error) {
      console.error(
        `[billing-proxy] misconfiguration: ${error instanceof Error ? error.message : String(error)}`,
      );
      return errorAnswer(
        new ProxyError(500, 'internal', 'The billing proxy is not configured on this server.'),
      );
    }
    const answer = answerHandlerOf(resolved.handler);
    return answer === undefined ? resolved.handler(request, platform) : answer(request, platform);
  });
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
  // Bounded and mapped: a store that fails or hangs answers 503 store-unavailable, never a 500.
  const store = guardStore(
    options.idempotencyStore ?? createMemoryIdempotencyStore(),
    options.timeouts.storeMs,
  );
  const limiter =
    options.limits.rateLimit === false ? null : createRateLimiter(options.limits.rateLimit);
  const { logger } = options;
  warnOfRuntimeLimits(options, logger);
  const signals = options.signals ?? createMemorySignalBus();
  const hub = options.events === false ? null : createEventHub(signals, options.events, logger);
  const suspensions = createSuspensionCheck(upstream, signals);
  const entitlements = createEntitlementChecker(upstream, signals, suspensions);
  const routes: Record<string, Route> = { ...ROUTES };
  const tickets = hub === null ? null : createStreamTickets(options.portalSecret, store);
  const eventsPath = options.events === false ? null : options.events.path;
  if (hub !== null && tickets !== null && options.events !== false) {
    // A page identified by a bearer token (which EventSource cannot send) trades it here for a
    // ticket that opens one stream: see stream-ticket.ts.
    routes['/stream-ticket'] = {
      method: 'POST',
      run: (context) => tickets.issue(context.identity.reference),
    };
    routes[options.events.path] = {
      method: 'GET',
      run: (context) => {
        if ([...context.url.searchParams.keys()].some((name) => name !== 'ticket'))
          refuseQuery(context.url);
        return Promise.resolve(
          // Not the request's signal: making one costs kilobytes per stream on Node's Request.
          hub.open(context.identity.reference, context.request.headers.get('last-event-id')),
        );
      },
    };
  }
  const health =
    options.health === false
      ? null
      : {
          path: options.health.path,
          check: createHealthCheck(store, upstream, options.health.timeoutMs, logger),
        };
  if (health !== null) {
    const taken = [
      ...Object.keys(routes),
      ...(options.notifications === undefined ? [] : [options.notifications.path]),
    ];
    if (taken.includes(health.path))
      throw new TypeError(
        `Invalid billing proxy options:\n - health.path: ${health.path} is already a route of the proxy`,
      );
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

  async function handle(
    request: Request,
    url: URL,
    platform: PlatformContext | undefined,
  ): Promise<Answer> {
    const path = routePath(url.pathname, options.basePath);
    // Bun and Deno pass other things as the second argument: only a function is used.
    const waitUntil =
      typeof platform?.waitUntil === 'function'
        ? (work: Promise<unknown>) => platform.waitUntil?.(work)
        : undefined;
    if (health !== null && path === health.path) {
      if (request.method !== 'GET' && request.method !== 'HEAD')
        throw new ProxyError(405, 'method-not-allowed', 'Use GET.', {
          headers: { allow: 'GET, HEAD' },
        });
      return health.check.respond(request);
    }
    // Server to server: the signature stands for the origin check and identify.
    if (webhook !== null && path === webhook.options.path) {
      return receiveNotification(request, { ...webhook, waitUntil });
    }
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
      // The event stream of a page identified by a token comes with a stream ticket instead.
      const ticket = path === eventsPath ? url.searchParams.get('ticket') : null;
      const identified =
        ticket === null || tickets === null
          ? await options.identify(request)
          : { reference: await tickets.redeem(ticket) };
      if (identified === null || identified === undefined) {
        throw new ProxyError(401, 'unauthenticated', 'Sign in to see your billing.');
      }
      const identity = checkIdentity(identified);
      // Every answer about a customer names them, and a change sent by a page that shows
      // another customer (one who was signed in when it opened, before a sign-in in another
      // tab) is refused before it reaches the service: see SESSION_CUSTOMER_HEADER.
      const customer = encodeURIComponent(identity.reference);
      cors[SESSION_CUSTOMER_HEADER] = customer;
      const shown = request.headers.get(SESSION_CUSTOMER_HEADER);
      if (shown !== null && shown !== customer) throw sessionChanged();
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
        waitUntil,
      };
      const result = await route.run(context);
      if (result instanceof Response) {
        addHeaders(result, cors);
        return result;
      }
      if (result instanceof JsonResult) return jsonAnswer(result.status, result.body, cors);
      return jsonAnswer(200, result, cors);
    } catch (error) {
      if (error instanceof StoreUnavailableError) logStoreFailure(error, request, url);
      throw attachHeaders(error, cors);
    }
  }

  function logStoreFailure(error: StoreUnavailableError, request: Request, url: URL): void {
    logger({
      level: 'error',
      event: 'store-unavailable',
      message: error.message,
      method: request.method,
      path: url.pathname,
    });
  }

  /** Requests being handled now (an event stream counts until its response is returned). */
  let inFlight = 0;
  /** Called when the last request in flight ends, while close() waits for it. */
  let drained: (() => void) | undefined;
  /** Set once close() is called: every new request is refused. */
  let closing: Promise<void> | undefined;

  const handler = withAnswerHandler(async (request, platform) => {
    let url: URL;
    try {
      url = new URL(request.url);
      if (options.trustProxy) url = forwardedUrl(url, request.headers);
    } catch {
      return errorAnswer(new ProxyError(400, 'validation', 'Invalid request URL.'));
    }
    if (closing !== undefined) return shuttingDown(request, url);
    inFlight += 1;
    try {
      return await handle(request, url, platform);
    } catch (error) {
      return failure(error, request, url);
    } finally {
      inFlight -= 1;
      if (inFlight === 0) drained?.();
    }
  });

  function shuttingDown(request: Request, url: URL): Answer {
    if (health !== null && routePath(url.pathname, options.basePath) === health.path)
      return shuttingDownHealth(request);
    return errorAnswer(
      new ProxyError(503, 'shutting-down', 'This server is restarting. Try again in a moment.', {
        headers: { 'retry-after': '1', ...listedCors(request) },
      }),
    );
  }

  /** The answer to a request whose handling threw. */
  function failure(error: unknown, request: Request, url: URL): Answer {
    if (error instanceof StoreUnavailableError) {
      // Reached outside the routes' own catch (a notification's dedupe, say).
      logStoreFailure(error, request, url);
      return errorAnswer(storeUnavailable());
    }
    if (error instanceof ProxyError) {
      if (error.code === 'forbidden-origin') {
        const origin = request.headers.get('origin') ?? 'a page without Origin';
        warnOnce(
          `forbidden-origin ${origin}`,
          `Refused ${origin}: it is not in allowedOrigins of the proxy at ${options.basePath || '/'}. Add it there if that site may show billing.`,
        );
      }
      return errorAnswer(error);
    }
    if (error instanceof ClientAbortError) {
      logger({
        level: 'info',
        event: 'client-aborted',
        message: error.message,
        method: request.method,
        path: url.pathname,
      });
      return errorAnswer(new ProxyError(400, 'validation', 'The body ended early.'));
    }
    logger({
      level: 'error',
      event: 'internal-error',
      message: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
      method: request.method,
      path: url.pathname,
    });
    return errorAnswer(
      new ProxyError(500, 'internal', 'Something went wrong in the billing proxy.'),
    );
  }

  async function shutDown(): Promise<void> {
    hub?.close();
    if (inFlight > 0) {
      const finished = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), options.timeouts.shutdownMs);
        drained = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      if (!finished) {
        logger({
          level: 'warn',
          event: 'shutdown-timeout',
          message: `Closed with ${inFlight} request(s) still running after timeouts.shutdownMs (${options.timeouts.shutdownMs} ms)`,
          inFlight,
        });
      }
    }
    entitlements.close();
    suspensions.close();
    if (options.signals === undefined) await signals.close();
  }

  return {
    handler,
    fetch: handler,
    basePath: options.basePath,
    notify: (customer) => signals.publish(customer),
    isEntitled: (customer, feature, quantity) =>
      entitlements.isEntitled(customer, feature, quantity),
    check() {},
    close() {
      closing ??= shutDown();
      return closing;
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
        : error instanceof StoreUnavailableError
          ? storeUnavailable()
          : null;
  if (mapped === null) return error;
  Object.assign(mapped.headers, headers);
  return mapped;
}

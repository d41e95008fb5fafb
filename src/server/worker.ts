// billing-elements/server/worker: the proxy for Cloudflare Workers (and any runtime that calls a
// `fetch(request, env, ctx)` handler). The same core as billing-elements/server, without its
// Node adapters: a Worker bundle carries no node:http and no undici.
import type { BillingProxyOptions } from './options.js';
import { createBillingProxy, type BillingProxy } from './proxy.js';

export { createBillingProxy, type BillingHandler, type BillingProxy } from './proxy.js';
export type { PlatformContext } from './proxy.js';
export type {
  BillingIdentity,
  BillingProxyOptions,
  LogLevel,
  ProxyLogEntry,
  ProxyLogger,
  RateLimitOptions,
} from './options.js';
export type { IdempotencyStore } from './idempotency/store.js';
export {
  createMemoryIdempotencyStore,
  type MemoryIdempotencyStoreOptions,
} from './idempotency/memory-store.js';
export { portalHash } from './routes/portal.js';
export {
  identifyWithCustomerToken,
  identifyWithJwt,
  mintCustomerToken,
  type IdentifyFunction,
  type IdentifyWithCustomerTokenOptions,
  type IdentifyWithJwtOptions,
  type MintCustomerTokenOptions,
} from './token.js';
export { ENTITLEMENT_CACHE_MS } from './entitlements.js';
export {
  createRedisIdempotencyStore,
  type RedisIdempotencyStoreOptions,
  type RedisLikeClient,
} from './idempotency/redis-store.js';
export {
  createMemorySignalBus,
  createRedisSignalBus,
  type BillingSignal,
  type RedisPublisherLike,
  type RedisSignalBusOptions,
  type RedisSubscriberLike,
  type SignalBus,
} from './notifications/signals.js';
export { webhookSignature, type BillingNotification } from './notifications/webhook.js';
export {
  BillingIdempotencyObject,
  createDurableObjectIdempotencyStore,
  type DurableObjectIdempotencyStoreOptions,
} from './idempotency/durable-object-store.js';
export {
  BillingSignalsObject,
  createDurableObjectSignalBus,
} from './notifications/durable-object-signals.js';
export type {
  DurableObjectNamespaceLike,
  DurableObjectStateLike,
  DurableObjectStorageLike,
  DurableObjectStubLike,
  WorkerWebSocket,
} from './durable-objects.js';
export { toHonoHandler } from './adapters/hono.js';
export { toNextHandlers } from './adapters/next.js';

/** What a Worker's `fetch` receives as its third argument (the part the proxy uses). */
export interface WorkerContext {
  waitUntil(work: Promise<unknown>): void;
}

/** A Worker's default export: `export default toWorkerHandler((env) => ({ ... }))`. */
export interface WorkerHandler<Env> {
  fetch(request: Request, env: Env, context: WorkerContext): Promise<Response>;
  /** The isolate's proxy, for the Worker's own routes (`notify()`, `isEntitled()`...). */
  proxy(env: Env): BillingProxy;
}

/**
 * The proxy as a Worker: `export default toWorkerHandler((env) => ({ baseUrl: env.BILLING_URL,
 * ... }))`. The proxy is made on the first request, from that request's `env` (where a Worker's
 * secrets are), because a Worker may not start timers or draw random values outside a request;
 * then every request of the isolate uses it. The webhook's work after its answer goes to
 * `ctx.waitUntil`, which keeps it alive once the answer is sent.
 */
export function toWorkerHandler<Env>(
  options: (env: Env) => BillingProxyOptions,
): WorkerHandler<Env> {
  let made: BillingProxy | undefined;
  const proxy = (env: Env) => (made ??= createBillingProxy(options(env)));
  return {
    fetch: (request, env, context) =>
      proxy(env).handler(request, { waitUntil: (work) => context.waitUntil(work) }),
    proxy,
  };
}

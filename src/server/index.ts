// billing-elements/server: the billing proxy, its idempotency stores and its framework adapters.
export { createBillingProxy, type BillingHandler, type BillingProxy } from './proxy.js';
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
export {
  createRedisIdempotencyStore,
  type RedisIdempotencyStoreOptions,
  type RedisLikeClient,
} from './idempotency/redis-store.js';
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
  createMemorySignalBus,
  createRedisSignalBus,
  type BillingSignal,
  type RedisPublisherLike,
  type RedisSignalBusOptions,
  type RedisSubscriberLike,
  type SignalBus,
} from './notifications/signals.js';
export { webhookSignature, type BillingNotification } from './notifications/webhook.js';
export { toNodeHandler, type NodeHandler, type NodeHandlerOptions } from './adapters/node.js';
export { toExpressMiddleware } from './adapters/express.js';
export { toHonoHandler } from './adapters/hono.js';
export { toNextHandlers } from './adapters/next.js';
export { billingProxyVitePlugin, type BillingProxyVitePluginOptions } from './adapters/vite.js';

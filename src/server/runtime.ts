import type { BillingProxyOptions, ProxyLogger } from './options.js';

// What the runtime the proxy runs on cannot give it, said once, when the proxy is created.

/** True on Cloudflare Workers (workerd, locally or deployed). */
export function isCloudflareWorkers(): boolean {
  const host = globalThis as { navigator?: { userAgent?: unknown } };
  return host.navigator?.userAgent === 'Cloudflare-Workers';
}

/** Stores and buses that hold within one process (or isolate): the in-memory ones. */
const perProcess = new WeakSet<object>();

/** Marks a store or bus as holding within one process only. */
export function markPerProcess<T extends object>(part: T): T {
  perProcess.add(part);
  return part;
}

/**
 * On Cloudflare Workers, requests are spread over many isolates that share no memory, and
 * Redis over TCP is not available: an in-memory store or bus (the defaults) only holds within
 * one isolate. Whatever else is passed (the Durable Object store and bus, a store over HTTP) is
 * taken as shared.
 */
export function warnOfRuntimeLimits(
  options: Pick<BillingProxyOptions, 'idempotencyStore' | 'signals' | 'events'>,
  logger: ProxyLogger,
): void {
  if (!isCloudflareWorkers()) return;
  const { idempotencyStore, signals } = options;
  if (idempotencyStore === undefined || perProcess.has(idempotencyStore)) {
    logger({
      level: 'warn',
      event: 'runtime-limit',
      message: `On Cloudflare Workers ${idempotencyStore === undefined ? 'the default' : 'an'} in-memory idempotency store is one per isolate: a purchase retried on another isolate is not recognised as the same one. For exactly-once across isolates, pass idempotencyStore: createDurableObjectIdempotencyStore(env.BILLING_IDEMPOTENCY) from billing-elements/server/worker, on Durable Objects (Redis over TCP is not available in Workers).`,
    });
  }
  if (options.events !== false && (signals === undefined || perProcess.has(signals))) {
    logger({
      level: 'warn',
      event: 'runtime-limit',
      message: `On Cloudflare Workers ${signals === undefined ? 'the default' : 'an'} in-memory signal bus is one per isolate: a notification reaches only the event streams open on the isolate that received it. For live updates across isolates, pass signals: createDurableObjectSignalBus(env.BILLING_SIGNALS) from billing-elements/server/worker, on Durable Objects, or set events: false.`,
    });
  }
}

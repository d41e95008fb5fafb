import type { BillingProxyOptions, ProxyLogger } from './options.js';

// What the runtime the proxy runs on cannot give it, said once, when the proxy is created.

/** True on Cloudflare Workers (workerd, locally or deployed). */
export function isCloudflareWorkers(): boolean {
  const host = globalThis as { navigator?: { userAgent?: unknown } };
  return host.navigator?.userAgent === 'Cloudflare-Workers';
}

/**
 * On Cloudflare Workers, requests are spread over many isolates that share no memory, and
 * Redis over TCP is not available: the in-memory defaults only hold within one isolate.
 */
export function warnOfRuntimeLimits(
  options: Pick<BillingProxyOptions, 'idempotencyStore' | 'signals' | 'events'>,
  logger: ProxyLogger,
): void {
  if (!isCloudflareWorkers()) return;
  if (options.idempotencyStore === undefined) {
    logger({
      level: 'warn',
      event: 'runtime-limit',
      message:
        'On Cloudflare Workers the default in-memory idempotency store is one per isolate: a purchase retried on another isolate is not recognised as the same one. For exactly-once across isolates, pass an idempotencyStore that every isolate shares (on Durable Objects; Redis over TCP is not available in Workers).',
    });
  }
  if (options.signals === undefined && options.events !== false) {
    logger({
      level: 'warn',
      event: 'runtime-limit',
      message:
        'On Cloudflare Workers the default in-memory signal bus is one per isolate: a notification reaches only the event streams open on the isolate that received it. For live updates across isolates, pass signals shared by every isolate (on Durable Objects), or set events: false.',
    });
  }
}

import type { RateLimitOptions } from './options.js';

interface Bucket {
  tokens: number;
  updatedAt: number;
}

const MAX_BUCKETS = 50_000;

/**
 * A token bucket per customer, in this process. `take` answers 0 when the request may go on,
 * or the number of seconds to wait (for Retry-After).
 */
export function createRateLimiter(options: RateLimitOptions, now: () => number = Date.now) {
  const buckets = new Map<string, Bucket>();
  return {
    take(customer: string): number {
      const time = now();
      const previous = buckets.get(customer);
      const elapsedSeconds = previous === undefined ? 0 : (time - previous.updatedAt) / 1000;
      const tokens = Math.min(
        options.capacity,
        (previous?.tokens ?? options.capacity) + elapsedSeconds * options.refillPerSecond,
      );
      buckets.delete(customer);
      if (tokens < 1) {
        buckets.set(customer, { tokens, updatedAt: time });
        return Math.max(1, Math.ceil((1 - tokens) / options.refillPerSecond));
      }
      buckets.set(customer, { tokens: tokens - 1, updatedAt: time });
      // Least recently seen customers go first; a forgotten bucket is simply full again.
      if (buckets.size > MAX_BUCKETS) {
        const oldest = buckets.keys().next().value;
        if (oldest !== undefined) buckets.delete(oldest);
      }
      return 0;
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

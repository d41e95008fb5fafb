/**
 * Where purchases record their idempotency keys: a small key-value store whose writes are
 * atomic compare-and-set operations, so that one claim wins however many requests (or proxy
 * instances) race for a key. Values are opaque strings to the store.
 *
 * `ttlMs` undefined means the store's own default time to live.
 */
export interface IdempotencyStore {
  get(key: string): Promise<string | null>;
  /** Stores the value only when the key is absent (or expired). True when it was stored. */
  setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean>;
  /** Replaces the value only when the current value is exactly `expected`. True when replaced. */
  compareAndSet(key: string, expected: string, value: string, ttlMs?: number): Promise<boolean>;
  /** Deletes the key only when its value is exactly `expected`. True when deleted. */
  compareAndDelete(key: string, expected: string): Promise<boolean>;
}

export const DEFAULT_IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

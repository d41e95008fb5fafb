import { StoreUnavailableError } from '../errors.js';

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

/**
 * The store as the proxy uses it: every call bounded by `timeoutMs`, and any failure (a thrown
 * error, a rejected promise, no answer in time) turned into a StoreUnavailableError, which the
 * proxy answers with 503 `store-unavailable`.
 *
 * A call that times out may still land later. Each write of the exactly-once records is safe
 * either way: a claim or a lock that lands unseen expires with its lease; a record written
 * ahead of the apply is only ever followed by the apply after the write is confirmed.
 */
export function guardStore(store: IdempotencyStore, timeoutMs: number): IdempotencyStore {
  async function guarded<T>(name: string, call: () => Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      // Rejected one timer turn later, after the event loop has looked at its sockets: on a
      // starved process the timer can fire while the store's answer is already waiting there.
      timer = setTimeout(
        () =>
          setTimeout(
            () =>
              reject(new StoreUnavailableError(`store ${name} did not answer in ${timeoutMs} ms`)),
            0,
          ),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([call(), timeout]);
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error;
      throw new StoreUnavailableError(`store ${name} failed: ${String(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }
  return {
    get: (key) => guarded('get', () => store.get(key)),
    setIfAbsent: (key, value, ttlMs) =>
      guarded('setIfAbsent', () => store.setIfAbsent(key, value, ttlMs)),
    compareAndSet: (key, expected, value, ttlMs) =>
      guarded('compareAndSet', () => store.compareAndSet(key, expected, value, ttlMs)),
    compareAndDelete: (key, expected) =>
      guarded('compareAndDelete', () => store.compareAndDelete(key, expected)),
  };
}

import { markPerProcess } from '../runtime.js';
import { DEFAULT_IDEMPOTENCY_TTL_MS, type IdempotencyStore } from './store.js';

export interface MemoryIdempotencyStoreOptions {
  /** Most keys kept; the least recently used go first. Default 10000. */
  maxEntries?: number;
  /** Default time to live of a key. Default 24 h. */
  ttlMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

interface Entry {
  value: string;
  expiresAt: number;
}

/**
 * The default store: one process only (several instances of the host app need a shared store
 * such as `createRedisIdempotencyStore`). Bounded: beyond `maxEntries` the least recently used
 * key is forgotten, so size it for the purchases expected within the time to live.
 */
export function createMemoryIdempotencyStore(
  options: MemoryIdempotencyStoreOptions = {},
): IdempotencyStore & { readonly size: number } {
  const maxEntries = options.maxEntries ?? 10_000;
  const defaultTtl = options.ttlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS;
  const now = options.now ?? Date.now;
  if (!Number.isInteger(maxEntries) || maxEntries < 1)
    throw new TypeError('maxEntries must be a positive integer');
  if (!(defaultTtl > 0)) throw new TypeError('ttlMs must be positive');
  // A Map iterates in insertion order: re-inserting on use makes the first key the least recent.
  const entries = new Map<string, Entry>();

  function live(key: string): Entry | undefined {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    entries.delete(key);
    entries.set(key, entry);
    return entry;
  }

  function put(key: string, value: string, ttlMs: number | undefined): void {
    entries.delete(key);
    entries.set(key, { value, expiresAt: now() + (ttlMs ?? defaultTtl) });
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      entries.delete(oldest);
    }
  }

  return markPerProcess({
    get size() {
      return entries.size;
    },
    async get(key) {
      return live(key)?.value ?? null;
    },
    async setIfAbsent(key, value, ttlMs) {
      if (live(key) !== undefined) return false;
      put(key, value, ttlMs);
      return true;
    },
    async compareAndSet(key, expected, value, ttlMs) {
      if (live(key)?.value !== expected) return false;
      put(key, value, ttlMs);
      return true;
    },
    async compareAndDelete(key, expected) {
      if (live(key)?.value !== expected) return false;
      entries.delete(key);
      return true;
    },
  });
}

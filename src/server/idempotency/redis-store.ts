import { DEFAULT_IDEMPOTENCY_TTL_MS, type IdempotencyStore } from './store.js';

/**
 * The part of an ioredis (or compatible) client the store uses. ioredis itself is not a
 * dependency: pass your own client.
 */
export interface RedisLikeClient {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, px: 'PX', ttlMs: number, nx: 'NX'): Promise<'OK' | null>;
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
}

export interface RedisIdempotencyStoreOptions {
  /** Default time to live of a key. Default 24 h. */
  ttlMs?: number;
  /** Prefix of every key. Default 'billing-elements:idempotency:'. */
  prefix?: string;
}

// Compare-and-set and compare-and-delete must read and write in one step: Lua scripts run
// atomically in Redis, so no other client can slip a write between the GET and the SET.
const COMPARE_AND_SET = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0`;

const COMPARE_AND_DELETE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/** A store shared by every instance of the host app: claims are `SET NX PX`, updates Lua compare-and-set. */
export function createRedisIdempotencyStore(
  client: RedisLikeClient,
  options: RedisIdempotencyStoreOptions = {},
): IdempotencyStore {
  if (
    typeof client?.get !== 'function' ||
    typeof client.set !== 'function' ||
    typeof client.eval !== 'function'
  ) {
    throw new TypeError(
      'createRedisIdempotencyStore needs an ioredis-compatible client (get, set, eval)',
    );
  }
  const defaultTtl = Math.round(options.ttlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS);
  const prefix = options.prefix ?? 'billing-elements:idempotency:';
  if (!(defaultTtl > 0)) throw new TypeError('ttlMs must be positive');
  const ttl = (ttlMs: number | undefined) => Math.max(1, Math.round(ttlMs ?? defaultTtl));

  return {
    async get(key) {
      return client.get(prefix + key);
    },
    async setIfAbsent(key, value, ttlMs) {
      return (await client.set(prefix + key, value, 'PX', ttl(ttlMs), 'NX')) === 'OK';
    },
    async compareAndSet(key, expected, value, ttlMs) {
      return (
        Number(await client.eval(COMPARE_AND_SET, 1, prefix + key, expected, value, ttl(ttlMs))) ===
        1
      );
    },
    async compareAndDelete(key, expected) {
      return Number(await client.eval(COMPARE_AND_DELETE, 1, prefix + key, expected)) === 1;
    },
  };
}

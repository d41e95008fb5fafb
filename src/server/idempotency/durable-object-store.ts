import {
  isDurableObjectNamespace,
  type DurableObjectNamespaceLike,
  type DurableObjectStateLike,
  type DurableObjectStorageLike,
} from '../durable-objects.js';
import { DEFAULT_IDEMPOTENCY_TTL_MS, type IdempotencyStore } from './store.js';

// The idempotency store of a proxy on Cloudflare Workers: every isolate, in every location,
// shares it, so a purchase is applied once however its duplicates are spread.
//
// One Durable Object per key (`idFromName(key)`): the proxy's keys are independent (a purchase's
// record, a lock), each operation touches one key, and an object runs one request at a time,
// so every key is strongly consistent on its own and unrelated keys never wait for each other.
// Atomicity comes from the object's input gate: while an object awaits its own storage, no
// other request is delivered to it, so the read and the write of a compare-and-set (with no
// other I/O between them) happen as one step. Its output gate holds the answer until the write
// is durable: a claim the proxy was told of is never lost.
//
// Expiry: each record stores its expiry, checked on every read (an expired key is absent), and
// an alarm at the earliest expiry deletes it, so that an object left alone keeps no storage.

/** What the Worker's `fetch` sends the object: one store operation. */
type StoreCall =
  | { op: 'get'; key: string }
  | { op: 'setIfAbsent'; key: string; value: string; ttlMs: number }
  | { op: 'compareAndSet'; key: string; expected: string; value: string; ttlMs: number }
  | { op: 'compareAndDelete'; key: string; expected: string };

/** What the object answers: the value read, or whether the write happened. */
type StoreAnswer = { value: string | null } | { done: boolean };

interface StoredRecord {
  value: string;
  /** Epoch ms after which the key is absent. */
  expiresAt: number;
}

const STORE_OPERATIONS = new Set(['get', 'setIfAbsent', 'compareAndSet', 'compareAndDelete']);

/** The call in a request's body, or a TypeError saying what is wrong with it. */
function parseCall(body: unknown): StoreCall {
  const call = body as Record<string, unknown> | null;
  const text = (name: string) => typeof call?.[name] === 'string';
  if (typeof call?.op !== 'string' || !STORE_OPERATIONS.has(call.op) || !text('key'))
    throw new TypeError(
      'expected { op: get | setIfAbsent | compareAndSet | compareAndDelete, key }',
    );
  if ((call.op === 'compareAndSet' || call.op === 'compareAndDelete') && !text('expected'))
    throw new TypeError(`${call.op} needs the expected value`);
  if (call.op === 'setIfAbsent' || call.op === 'compareAndSet') {
    if (!text('value')) throw new TypeError(`${call.op} needs a value`);
    if (typeof call.ttlMs !== 'number' || !(call.ttlMs > 0))
      throw new TypeError(`${call.op} needs a positive ttlMs`);
  }
  return call as unknown as StoreCall;
}

/**
 * The Durable Object class behind `createDurableObjectIdempotencyStore`. Export it from the
 * Worker's entry module under the class name that wrangler.jsonc binds:
 * `export { BillingIdempotencyObject } from 'billing-elements/server/worker'`.
 */
export class BillingIdempotencyObject {
  readonly #storage: DurableObjectStorageLike;

  constructor(state: DurableObjectStateLike, _env?: unknown) {
    this.#storage = state.storage;
  }

  async fetch(request: Request): Promise<Response> {
    let call: StoreCall;
    try {
      call = parseCall(await request.json());
    } catch (error) {
      return Response.json({ error: `Not a store call: ${String(error)}` }, { status: 400 });
    }
    return Response.json(await this.#run(call));
  }

  /** Deletes the expired keys; wakes again at the next expiry, if any key is left. */
  async alarm(): Promise<void> {
    const now = Date.now();
    let next = Infinity;
    for (const [key, record] of await this.#storage.list<StoredRecord>()) {
      if (record.expiresAt <= now) await this.#storage.delete(key);
      else next = Math.min(next, record.expiresAt);
    }
    if (next !== Infinity) await this.#storage.setAlarm(next);
  }

  // No other I/O than this object's storage between a read and its write (see the header).
  async #run(call: StoreCall): Promise<StoreAnswer> {
    const current = await this.#live(call.key);
    switch (call.op) {
      case 'get':
        return { value: current?.value ?? null };
      case 'setIfAbsent':
        if (current !== undefined) return { done: false };
        await this.#put(call.key, call.value, call.ttlMs);
        return { done: true };
      case 'compareAndSet':
        if (current?.value !== call.expected) return { done: false };
        await this.#put(call.key, call.value, call.ttlMs);
        return { done: true };
      case 'compareAndDelete':
        if (current?.value !== call.expected) return { done: false };
        await this.#storage.delete(call.key);
        return { done: true };
    }
  }

  async #live(key: string): Promise<StoredRecord | undefined> {
    const record = await this.#storage.get<StoredRecord>(key);
    if (record === undefined || record.expiresAt > Date.now()) return record;
    await this.#storage.delete(key);
    return undefined;
  }

  async #put(key: string, value: string, ttlMs: number): Promise<void> {
    const expiresAt = Date.now() + ttlMs;
    await this.#storage.put<StoredRecord>(key, { value, expiresAt });
    const alarm = await this.#storage.getAlarm();
    if (alarm === null || expiresAt < alarm) await this.#storage.setAlarm(expiresAt);
  }
}

export interface DurableObjectIdempotencyStoreOptions {
  /** Default time to live of a key. Default 24 h. */
  ttlMs?: number;
}

/**
 * An idempotency store every isolate of a Worker shares, on Durable Objects of the class
 * `BillingIdempotencyObject`: `createDurableObjectIdempotencyStore(env.BILLING_IDEMPOTENCY)`,
 * where `BILLING_IDEMPOTENCY` is the namespace binding of that class in wrangler.jsonc. Each key
 * is one object; a call is one request to it (a failed one rejects, which the proxy answers
 * with 503 `store-unavailable`: it is never retried blindly).
 */
export function createDurableObjectIdempotencyStore(
  namespace: DurableObjectNamespaceLike,
  options: DurableObjectIdempotencyStoreOptions = {},
): IdempotencyStore {
  if (!isDurableObjectNamespace(namespace)) {
    throw new TypeError(
      'createDurableObjectIdempotencyStore needs a Durable Object namespace binding (env.BILLING_IDEMPOTENCY, with idFromName and get): bind the class BillingIdempotencyObject in wrangler.jsonc "durable_objects"',
    );
  }
  const defaultTtl = Math.round(options.ttlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS);
  if (!(defaultTtl > 0)) throw new TypeError('ttlMs must be positive');
  const ttl = (ttlMs: number | undefined) => Math.max(1, Math.round(ttlMs ?? defaultTtl));

  async function send(call: StoreCall): Promise<StoreAnswer> {
    // A new stub per call: a stub that saw an error may stay broken, and stubs cost nothing.
    const stub = namespace.get(namespace.idFromName(call.key));
    const response = await stub.fetch('https://billing-idempotency/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(call),
    });
    if (!response.ok) {
      throw new Error(
        `the idempotency object answered ${response.status}: ${(await response.text()).slice(0, 200)}`,
      );
    }
    return (await response.json()) as StoreAnswer;
  }
  const done = async (call: StoreCall) => ((await send(call)) as { done: boolean }).done === true;

  return {
    async get(key) {
      return ((await send({ op: 'get', key })) as { value: string | null }).value ?? null;
    },
    setIfAbsent: (key, value, ttlMs) => done({ op: 'setIfAbsent', key, value, ttlMs: ttl(ttlMs) }),
    compareAndSet: (key, expected, value, ttlMs) =>
      done({ op: 'compareAndSet', key, expected, value, ttlMs: ttl(ttlMs) }),
    compareAndDelete: (key, expected) => done({ op: 'compareAndDelete', key, expected }),
  };
}

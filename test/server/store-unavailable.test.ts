// A store that fails or hangs: the proxy answers 503 store-unavailable, never a 500, never a
// charge, and records nothing that would make a later retry apply twice.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createMemoryIdempotencyStore,
  webhookSignature,
  type IdempotencyStore,
} from '../../src/server/index.js';
import {
  call,
  collectingLogger,
  countingFetch,
  ledgerOf,
  priceThrough,
  proxyOver,
  seatsPurchase,
  useSandbox,
} from './helpers.js';

/** The memory store, with `override` standing in for some of its operations. */
function storeWith(override: Partial<IdempotencyStore>): IdempotencyStore {
  return { ...createMemoryIdempotencyStore(), ...override };
}

const KEY = 'store-outage-purchase-0001';

describe('an idempotency store that fails', () => {
  const sandbox = useSandbox();

  it('answers 503 store-unavailable within timeouts.storeMs when the store hangs', async () => {
    const log = collectingLogger();
    const proxy = proxyOver(sandbox, {
      idempotencyStore: storeWith({ get: () => new Promise<string | null>(() => {}) }),
      timeouts: { storeMs: 200 },
      logger: log.logger,
    });
    const price = await priceThrough(proxy);
    const started = Date.now();
    const answer = await call(proxy, '/usage', { body: seatsPurchase(KEY, price.AmountTotal) });
    const elapsed = Date.now() - started;
    assert.equal(answer.status, 503);
    assert.equal(answer.body.code, 'store-unavailable');
    assert.equal(answer.headers.get('retry-after'), '2');
    assert.ok(elapsed < 2_000, `answered after ${elapsed} ms`);
    assert.equal((await ledgerOf(sandbox)).count, 0);
    assert.ok(log.entries.some((entry) => entry.event === 'store-unavailable'));
  });

  it('never calls the apply when the record ahead of it cannot be written, and records no refusal', async () => {
    const memory = createMemoryIdempotencyStore();
    let failWrites = true;
    const flaky: IdempotencyStore = {
      ...memory,
      compareAndSet: async (key, expected, value, ttlMs) => {
        if (failWrites && value.includes('"before"')) throw new Error('ECONNRESET');
        return memory.compareAndSet(key, expected, value, ttlMs);
      },
    };
    const counter = countingFetch();
    const proxy = proxyOver(sandbox, { idempotencyStore: flaky, fetch: counter.fetch });
    const price = await priceThrough(proxy);
    const body = seatsPurchase(KEY, price.AmountTotal);
    const refused = await call(proxy, '/usage', { body });
    assert.deepEqual([refused.status, refused.body.code], [503, 'store-unavailable']);
    assert.equal(counter.calls['POST /v1/Usage'] ?? 0, 0);
    // The key is not left refused: once the store is back, the retry is applied, once.
    failWrites = false;
    const stored = JSON.parse((await memory.get(`purchase:healthy:${KEY}`)) ?? '{}');
    assert.equal(stored.state, 'pending');
    await memory.compareAndSet(
      `purchase:healthy:${KEY}`,
      JSON.stringify(stored),
      JSON.stringify({ ...stored, leaseUntil: 0 }),
    );
    const retried = await call(proxy, '/usage', { body });
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
    assert.equal((await ledgerOf(sandbox)).count, 1);
  });

  it('does not apply when it lost its key before the apply call', async () => {
    const memory = createMemoryIdempotencyStore();
    const stolen: IdempotencyStore = {
      ...memory,
      // Another owner took the key over just before this one's write of `before`.
      compareAndSet: async (key, expected, value, ttlMs) =>
        value.includes('"before"') ? false : memory.compareAndSet(key, expected, value, ttlMs),
    };
    const counter = countingFetch();
    const proxy = proxyOver(sandbox, { idempotencyStore: stolen, fetch: counter.fetch });
    const price = await priceThrough(proxy);
    const answer = await call(proxy, '/usage', { body: seatsPurchase(KEY, price.AmountTotal) });
    assert.deepEqual([answer.status, answer.body.code], [504, 'upstream-timeout']);
    assert.equal(counter.calls['POST /v1/Usage'] ?? 0, 0);
    assert.equal((await ledgerOf(sandbox)).count, 0);
  });

  it('answers a notification 503 when its dedupe cannot be stored, so that it is sent again', async () => {
    const proxy = proxyOver(sandbox, {
      idempotencyStore: storeWith({ setIfAbsent: () => Promise.reject(new Error('down')) }),
      notifications: { secret: 'webhook-secret' },
    });
    const key = 'webhook-key';
    const response = await proxy.handler(
      new Request('http://app.test/billing/webhooks', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-key': key,
          'x-service-signature': await webhookSignature(key, 'webhook-secret'),
        },
        body: JSON.stringify({
          Id: 'ntf-store-outage',
          IdBusiness: 4242,
          IdSegment: 1,
          ReferenceSegment: 'main',
          DateTrigger: new Date().toISOString(),
          TypeTrigger: 'SubscriptionUpdated',
          Customer: { ReferenceCustomer: 'healthy' },
        }),
      }),
    );
    assert.equal(response.status, 503);
    assert.equal(((await response.json()) as { code: string }).code, 'store-unavailable');
  });
});

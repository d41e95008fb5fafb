import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryIdempotencyStore } from '../../src/server/index.js';
import {
  createDurableObjectIdempotencyStore,
  createDurableObjectSignalBus,
} from '../../src/server/worker.js';
import { checkIdempotencyStoreContract } from './store-contract.js';

describe('memory idempotency store', () => {
  it('keeps the store contract: one claim, compare before write, expiry', async () => {
    await checkIdempotencyStoreContract(createMemoryIdempotencyStore());
  });

  it('claims a key once among concurrent claimers', async () => {
    const store = createMemoryIdempotencyStore();
    const claims = await Promise.all(
      Array.from({ length: 50 }, (_, index) => store.setIfAbsent('key', String(index))),
    );
    assert.equal(claims.filter(Boolean).length, 1);
  });

  it('compares before setting or deleting', async () => {
    const store = createMemoryIdempotencyStore();
    await store.setIfAbsent('key', 'a');
    assert.equal(await store.compareAndSet('key', 'b', 'c'), false);
    assert.equal(await store.compareAndSet('key', 'a', 'c'), true);
    assert.equal(await store.get('key'), 'c');
    assert.equal(await store.compareAndSet('absent', 'a', 'c'), false);
    assert.equal(await store.compareAndDelete('key', 'a'), false);
    assert.equal(await store.compareAndDelete('key', 'c'), true);
    assert.equal(await store.get('key'), null);
  });

  it('expires keys after their time to live', async () => {
    let now = 1_000;
    const store = createMemoryIdempotencyStore({ ttlMs: 100, now: () => now });
    await store.setIfAbsent('default', 'x');
    await store.setIfAbsent('short', 'x', 10);
    now += 50;
    assert.equal(await store.get('short'), null);
    assert.equal(await store.get('default'), 'x');
    now += 60;
    assert.equal(await store.get('default'), null);
    assert.equal(await store.setIfAbsent('default', 'y'), true);
  });

  it('stays bounded, forgetting the least recently used key first', async () => {
    const store = createMemoryIdempotencyStore({ maxEntries: 3 });
    for (const key of ['a', 'b', 'c']) await store.setIfAbsent(key, key);
    await store.get('a');
    await store.setIfAbsent('d', 'd');
    assert.equal(store.size, 3);
    assert.equal(await store.get('b'), null);
    assert.equal(await store.get('a'), 'a');
    assert.equal(await store.get('d'), 'd');
  });

  it('refuses nonsense options', () => {
    assert.throws(() => createMemoryIdempotencyStore({ maxEntries: 0 }), /maxEntries/);
    assert.throws(() => createMemoryIdempotencyStore({ ttlMs: -1 }), /ttlMs/);
  });
});

// Their behaviour is checked in workerd, from the packed package (test/runtimes): here, only
// that a Worker whose binding is missing or wrong is told so when the proxy is made.
describe('Durable Object store and bus, misconfigured', () => {
  it('refuse anything but a namespace binding, naming the class to bind', () => {
    for (const wrong of [undefined, null, {}, { idFromName: () => 'id' }, 'BILLING_IDEMPOTENCY']) {
      assert.throws(
        () => createDurableObjectIdempotencyStore(wrong as never),
        /createDurableObjectIdempotencyStore needs a Durable Object namespace binding .*BillingIdempotencyObject/,
      );
      assert.throws(
        () => createDurableObjectSignalBus(wrong as never),
        /createDurableObjectSignalBus needs a Durable Object namespace binding .*BillingSignalsObject/,
      );
    }
  });

  it('refuses a time to live that is not positive', () => {
    const namespace = { idFromName: (name: string) => name, get: () => ({ fetch }) };
    assert.throws(() => createDurableObjectIdempotencyStore(namespace, { ttlMs: 0 }), /ttlMs/);
  });
});

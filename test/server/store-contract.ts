// What every idempotency store must do, checked the same way on each: the memory store, the
// Redis store (a real redis-server) and the Durable Object store (in workerd, from the packed
// package: test/runtimes). Exactly once rests on these: one claim wins among any number of
// concurrent claimers, writes compare the whole current value first, and keys expire.
import assert from 'node:assert/strict';
import type { IdempotencyStore } from '../../src/server/idempotency/store.js';
import { waitFor } from '../time.js';

/** The time to live of the keys that must expire during the check. */
const SHORT_TTL_MS = 500;
/**
 * Runs the contract on `store`, under keys that start with `prefix` (unique per run when the
 * store outlives the test). `concurrency` claimers race for each key.
 */
export async function checkIdempotencyStoreContract(
  store: IdempotencyStore,
  { prefix = 'contract:', concurrency = 20 }: { prefix?: string; concurrency?: number } = {},
): Promise<void> {
  const key = (name: string) => `${prefix}${name}`;
  const racers = Array.from({ length: concurrency }, (_, index) => `v${index}`);

  // One claim among concurrent claimers; the winner's value is the one stored.
  const claims = await Promise.all(racers.map((value) => store.setIfAbsent(key('claim'), value)));
  assert.equal(claims.filter(Boolean).length, 1, 'one claim wins');
  assert.equal(await store.get(key('claim')), racers[claims.indexOf(true)]);
  assert.equal(await store.setIfAbsent(key('claim'), 'late'), false, 'a held key stays held');

  // One compare-and-set among concurrent ones from the same value (each to a value of its own).
  const claimed = racers[claims.indexOf(true)]!;
  const swaps = await Promise.all(
    racers.map((value) => store.compareAndSet(key('claim'), claimed, `${value}:next`)),
  );
  assert.equal(swaps.filter(Boolean).length, 1, 'one compare-and-set wins');
  const swapped = `${racers[swaps.indexOf(true)]!}:next`;
  assert.equal(await store.get(key('claim')), swapped);

  // Writes compare the whole value first; an absent key matches nothing.
  assert.equal(await store.compareAndSet(key('claim'), 'not-it', 'x'), false);
  assert.equal(await store.compareAndSet(key('claim'), `${swapped}-`, 'x'), false);
  assert.equal(await store.compareAndSet(key('absent'), 'a', 'x'), false);
  assert.equal(await store.get(key('absent')), null);
  assert.equal(await store.compareAndDelete(key('claim'), 'not-it'), false);
  assert.equal(await store.get(key('claim')), swapped);
  const deletes = await Promise.all(
    racers.map(() => store.compareAndDelete(key('claim'), swapped)),
  );
  assert.equal(deletes.filter(Boolean).length, 1, 'one compare-and-delete wins');
  assert.equal(await store.get(key('claim')), null);
  assert.equal(await store.setIfAbsent(key('claim'), 'again'), true, 'a deleted key is free');

  // Keys expire after their time to live; a compare-and-set gives the key its new one. (The
  // short one is long enough for a slow round trip to renew it first.)
  assert.equal(await store.setIfAbsent(key('renewed'), 'v', SHORT_TTL_MS), true);
  assert.equal(await store.compareAndSet(key('renewed'), 'v', 'w', 60_000), true);
  assert.equal(await store.setIfAbsent(key('short'), 'v', SHORT_TTL_MS), true);
  assert.equal(await store.setIfAbsent(key('long'), 'v', 60_000), true);
  // A real store (Redis) lets the key expire on its own clock: wait for it to be gone. The
  // renewed key was written before it with the same time to live, so it would be gone too
  // had the compare-and-set not given it its new one. (Ten times its time to live: a store
  // that kept it far longer fails, a slow machine does not.)
  await waitFor(
    async () => (await store.get(key('short'))) === null,
    'the short key to expire',
    SHORT_TTL_MS * 10,
  );
  assert.equal(
    await store.compareAndSet(key('short'), 'v', 'x'),
    false,
    'an expired key is absent',
  );
  assert.equal(await store.get(key('long')), 'v');
  assert.equal(await store.get(key('renewed')), 'w');
  assert.equal(await store.setIfAbsent(key('short'), 'again'), true, 'an expired key is free');
}

import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { createBillingProxy, createRedisIdempotencyStore } from '../../src/server/index.js';
import {
  call,
  control,
  countingFetch,
  proxyOptions,
  startSandbox,
  type RunningSandbox,
} from './helpers.js';
import { startRedis } from './redis-server.js';
import { checkIdempotencyStoreContract } from './store-contract.js';

describe('Redis idempotency store (real redis-server)', () => {
  let redis: { port: number; process: ChildProcess };
  let clients: Redis[] = [];
  let sandbox: RunningSandbox;

  before(async () => {
    redis = await startRedis();
    sandbox = await startSandbox();
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.quit()));
    clients = [];
    redis.process.kill('SIGTERM');
    await sandbox.close();
  });

  function client(): Redis {
    const made = new Redis({
      port: redis.port,
      host: '127.0.0.1',
      lazyConnect: false,
      maxRetriesPerRequest: 1,
    });
    clients.push(made);
    return made;
  }

  it('keeps the store contract: one claim, compare before write, expiry', async () => {
    const store = createRedisIdempotencyStore(client(), { prefix: 'unit:', ttlMs: 60_000 });
    await checkIdempotencyStoreContract(store, { prefix: 'contract:' });
    assert.equal(await client().get('unit:contract:long'), 'v', 'keys carry the prefix');
  });

  it('applies 100 concurrent identical purchases through two proxy instances exactly once', async () => {
    await control(sandbox).reset();
    const counters = [countingFetch(), countingFetch()];
    const proxies = counters.map((counter) =>
      createBillingProxy(
        proxyOptions(sandbox, {
          fetch: counter.fetch,
          idempotencyStore: createRedisIdempotencyStore(client(), { prefix: 'e2e:' }),
        }),
      ),
    );
    const [first, second] = proxies as [
      ReturnType<typeof createBillingProxy>,
      ReturnType<typeof createBillingProxy>,
    ];
    const price = await call(first, '/pricing', { body: { feature: 'seats', increment: 3 } });
    const before = await control(sandbox).stats();
    const purchase = {
      feature: 'seats',
      increment: 3,
      idempotencyKey: 'redis-two-instances-01',
      confirmedAmountTotal: price.body.AmountTotal,
    };
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        call(index % 2 === 0 ? first : second, '/usage', { body: purchase }),
      ),
    );
    assert.ok(
      answers.every((answer) => answer.status === 200),
      JSON.stringify(answers.find((answer) => answer.status !== 200)?.body),
    );
    assert.equal(answers.filter((answer) => !answer.body.replayed).length, 1);
    const afterStats = await control(sandbox).stats();
    assert.equal(
      (afterStats.appliedUsageChangesByCustomer.healthy ?? 0) -
        (before.appliedUsageChangesByCustomer.healthy ?? 0),
      1,
    );
    const state = await control(sandbox).customer('healthy');
    assert.equal(
      state.usageLog.filter((entry: { invoiceId: number | null }) => entry.invoiceId !== null)
        .length,
      1,
    );
    assert.equal(
      (counters[0]?.calls['POST /v1/Usage'] ?? 0) + (counters[1]?.calls['POST /v1/Usage'] ?? 0),
      1,
    );
    // A later duplicate on either instance gets the stored outcome.
    const later = await call(second, '/usage', { body: purchase });
    assert.equal(later.body.replayed, true);
  });
});

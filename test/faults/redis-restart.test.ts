// redis-server killed (SIGKILL) and started again on its append-only file in the middle of 200
// concurrent purchases through a real proxy process; purchases sent while it is down must be
// refused with 503 store-unavailable and charge nothing; every purchase is then retried with its
// key until it settles, and each is applied and invoiced exactly once.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startRedis } from '../server/redis-server.js';
import {
  killLeftovers,
  ledger,
  priceOfOneSeat,
  purchase,
  refusalsForgotten,
  sandboxControl,
  startProxyProcess,
  startSandboxProcess,
  verdictOf,
  type Answer,
  type ProxyProcess,
  type RunningSandboxProcess,
  type Verdict,
} from './harness.js';
import { waitFor } from '../time.js';

const PURCHASES = 200;
const DURING_OUTAGE = 20;
/** Retry rounds after the restart, at most (each after a pause past the refusals' replay). */
const MAX_RETRY_ROUNDS = 8;

const customersOf = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${prefix}-${String(index).padStart(3, '0')}`);

describe('redis-server restarted mid-load (appendonly yes, appendfsync always)', () => {
  let redis: { port: number; process: ChildProcess };
  let redisDir: string;
  let sandbox: RunningSandboxProcess;
  let proxy: ProxyProcess | undefined;

  before(async () => {
    redisDir = await mkdtemp(join(tmpdir(), 'billing-faults-'));
    [redis, sandbox] = await Promise.all([
      startRedis({ appendOnlyDir: redisDir }),
      startSandboxProcess(`load:${PURCHASES},outage:${DURING_OUTAGE}`),
    ]);
  });
  after(async () => {
    proxy?.child.kill('SIGKILL');
    redis.process.kill('SIGTERM');
    try {
      await sandbox.stop();
    } finally {
      killLeftovers();
    }
    await rm(redisDir, { recursive: true, force: true });
  });

  it('applies nothing twice; requests during the outage get 503 store-unavailable, no charge', async () => {
    const started = Date.now();
    const load = customersOf('load', PURCHASES);
    const outage = customersOf('outage', DURING_OUTAGE);
    proxy = await startProxyProcess(sandbox, {
      FAULT_REDIS_PORT: String(redis.port),
      FAULT_PREFIX: 'restart:',
    });
    const { url } = proxy;
    const price = await priceOfOneSeat(url, load[0]!);
    const keyOf = (customer: string) => `${customer}-confirmed-purchase`;
    const answers = new Map<string, Answer[]>([...load, ...outage].map((c) => [c, []]));
    const final = new Map<string, Verdict>();
    const send = async (customer: string) => {
      const answer = await purchase(url, customer, keyOf(customer), price);
      answers.get(customer)!.push(answer);
      const verdict = verdictOf(answer);
      if (verdict !== 'retry') final.set(customer, verdict);
      return answer;
    };

    // The load; Redis dies once the sandbox has applied a tenth of it.
    const inFlight = Promise.all(load.map(send));
    await waitFor(
      async () =>
        (await sandboxControl(sandbox, 'GET', '/stats')).appliedUsageChanges >= PURCHASES / 10,
      'a tenth of the load to be applied',
      // The fault stage runs beside the packed apps' builds: 30 s was once not enough there.
      60_000,
    );
    const appliedAtKill = (await sandboxControl(sandbox, 'GET', '/stats')).appliedUsageChanges;
    redis.process.kill('SIGKILL');
    await new Promise((resolve) => redis.process.once('exit', resolve));

    // The outage: new purchases are refused at once, clearly, and charge nothing.
    const outageStarted = Date.now();
    const refused = await Promise.all(outage.map(send));
    const outageMs = Date.now() - outageStarted;
    const health = await fetch(`${url}/billing/health`);
    const healthBody = await health.json();
    const outageBooks = await ledger(sandbox, outage);
    redis = await startRedis({ port: redis.port, appendOnlyDir: redisDir });
    const downMs = Date.now() - outageStarted;
    await inFlight;
    const settledByRestart = final.size;

    // Everything not settled is retried with its key, as a client does.
    let requests = PURCHASES + DURING_OUTAGE;
    for (
      let round = 0;
      final.size < PURCHASES + DURING_OUTAGE && round < MAX_RETRY_ROUNDS;
      round++
    ) {
      const open = [...load, ...outage].filter((customer) => !final.has(customer));
      // A retry is a new attempt once the proxy has forgotten its refusal.
      await refusalsForgotten(
        redis.port,
        'restart:',
        open.map((customer) => ({ customer, idempotencyKey: keyOf(customer) })),
      );
      requests += open.length;
      await Promise.all(open.map(send));
    }
    // A purchase answered 200 before the kill is replayed from the store Redis read back.
    const answeredBefore = load.filter((customer) => answers.get(customer)![0]?.status === 200);
    const replays = await Promise.all(
      answeredBefore
        .slice(0, 20)
        .map((customer) => purchase(url, customer, keyOf(customer), price)),
    );

    const books = await ledger(sandbox, [...load, ...outage]);
    const all = [...answers.values()].flat();
    const count = (test: (answer: Answer) => boolean) => all.filter(test).length;
    const applies = [...books.values()].reduce((sum, entry) => sum + entry.applies, 0);
    const invoices = [...books.values()].reduce((sum, entry) => sum + entry.invoices, 0);
    console.log(
      `[faults] redis restart: purchases ${PURCHASES} + ${DURING_OUTAGE} during the outage, applied ${appliedAtKill} when Redis died, ` +
        `down ${downMs} ms, outage answers ${refused
          .map((a) => `${a.status} ${a.code}`)
          .filter((v, i, list) => list.indexOf(v) === i)
          .join(', ')} in ${outageMs} ms, ` +
        `settled by the restart ${settledByRestart}, requests ${requests} (retries ${requests - PURCHASES - DURING_OUTAGE}), ` +
        `answers: 200 ${count((a) => a.status === 200)}, 503 ${count((a) => a.status === 503)}, 504 ${count((a) => a.status === 504)}, cut ${count((a) => a.status === 'no-answer')}; ` +
        `replayed after restart ${replays.filter((a) => a.replayed === true).length}/${replays.length}; applies ${applies}, invoices ${invoices}; ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    // During the outage: a clear 503 with its code and a retry hint, and nothing charged.
    for (const answer of refused) {
      assert.equal(answer.status, 503);
      assert.equal(answer.code, 'store-unavailable');
      assert.ok(Number(answer.retryAfter) > 0, 'Retry-After');
    }
    assert.deepEqual(
      [...outageBooks.values()].map((book) => book.applies + book.invoices),
      outage.map(() => 0),
    );
    assert.equal(health.status, 503);
    assert.deepEqual(healthBody, {
      status: 'unavailable',
      checks: { store: 'failed', service: 'ok' },
    });
    // Afterwards: every purchase settled, applied and invoiced exactly once, answers truthful.
    assert.equal(final.size, PURCHASES + DURING_OUTAGE, 'every purchase settled');
    for (const [customer, book] of books) {
      assert.deepEqual([book.applies, book.invoices, book.seats], [1, 1, 6], customer);
      assert.equal(final.get(customer), 'applied', customer);
    }
    assert.ok(replays.every((answer) => answer.status === 200));
    assert.equal(applies, PURCHASES + DURING_OUTAGE);
    assert.equal(invoices, PURCHASES + DURING_OUTAGE);
    proxy.child.kill('SIGTERM');
    await proxy.exit;
    proxy = undefined;
  });
});

// The proxy process killed (SIGKILL) at named points of 200 concurrent purchases and at random
// moments, restarted each time, every purchase retried with its idempotency key until it gets an
// answer that settles it. The sandbox runs in a process of its own and survives every kill.
// FAULT_SEED=<seed> (printed with the figures) replays a run's choices of kills; FAULT_VERBOSE=1
// prints each round.
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
  seededRandom,
  startProxyProcess,
  startSandboxProcess,
  verdictOf,
  type Answer,
  type ProxyProcess,
  type Verdict,
  type RunningSandboxProcess,
} from './harness.js';

const PURCHASES = 200;
/** The named points, each the kill of one restart; then two kills at random moments. */
const KILL_POINTS = [
  'before-claim',
  'after-claim',
  'after-before',
  'during-apply',
  'after-apply',
  'before-done',
] as const;
const SCHEDULE = [...KILL_POINTS, 'random', 'random'] as const;
/**
 * Rounds without a kill after the schedule, at most: the first waits out the leases of the dead
 * owners; the others retry what a busy machine timed out, once its refusal is forgotten.
 */
const MAX_CALM_ROUNDS = 6;
/** Instances started ahead of their round (more only compete for the CPU). */
const STANDBY = 1;

describe('proxy process killed mid-purchase (real processes, real redis-server)', () => {
  let redis: { port: number; process: ChildProcess };
  let redisDir: string;
  let sandbox: RunningSandboxProcess;
  let proxy: ProxyProcess | undefined;

  before(async () => {
    redisDir = await mkdtemp(join(tmpdir(), 'billing-faults-'));
    [redis, sandbox] = await Promise.all([
      startRedis({ appendOnlyDir: redisDir }),
      startSandboxProcess(`kill:${PURCHASES}`),
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

  it('applies and invoices each of 200 purchases exactly once, every answer truthful', async () => {
    const started = Date.now();
    const seed = Number(process.env.FAULT_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const random = seededRandom(seed);
    const customers = Array.from(
      { length: PURCHASES },
      (_, index) => `kill-${String(index).padStart(3, '0')}`,
    );
    const base = { FAULT_REDIS_PORT: String(redis.port), FAULT_PREFIX: 'kill:' };

    // The price every customer confirmed: they are all in the same state and the sandbox's
    // clock is frozen (a purchase confirmed at another price would be refused, and fail below).
    proxy = await startProxyProcess(sandbox, { ...base, FAULT_UPSTREAM_MS: '10000' });
    const price = await priceOfOneSeat(proxy.url, customers[0]!);
    proxy.child.kill('SIGTERM');
    await proxy.exit;

    const answers = new Map<string, Answer[]>(customers.map((customer) => [customer, []]));
    const final = new Map<string, Verdict>();
    const kills: string[] = [];
    let requests = 0;

    const rounds = SCHEDULE.length + MAX_CALM_ROUNDS;
    const plan = Array.from({ length: rounds }, (_, round) => ({
      point: SCHEDULE[round] ?? 'none',
      killAfter: 1 + Math.floor(random() * 10),
    }));
    const spawnFor = ({ point, killAfter }: (typeof plan)[number]) =>
      startProxyProcess(sandbox, {
        ...base,
        FAULT_KILL_AT: point === 'random' ? 'none' : point,
        FAULT_KILL_AFTER: String(killAfter),
      });
    // The next instances start while the current one works (as replacements do in
    // production): a restart costs no start-up time.
    const standby = plan.slice(0, STANDBY).map(spawnFor);
    for (let round = 0; final.size < PURCHASES && round < rounds; round++) {
      const { point, killAfter } = plan[round]!;
      // A retry is a new attempt once the proxy has forgotten its refusal.
      if (round > SCHEDULE.length)
        await refusalsForgotten(
          redis.port,
          'kill:',
          customers
            .filter((customer) => !final.has(customer))
            .map((customer) => ({ customer, idempotencyKey: `${customer}-confirmed-purchase` })),
        );
      if (point === 'during-apply') {
        // The sandbox holds applies 300 ms: the proxy dies 50 ms into one, which lands after.
        await sandboxControl(sandbox, 'POST', '/faults', {
          route: 'POST /v1/Usage',
          mode: 'delay',
          delayMs: 300,
          times: 40,
        });
      }
      const running = await standby.shift()!;
      proxy = running;
      if (round + STANDBY < rounds) standby.push(spawnFor(plan[round + STANDBY]!));
      const open = customers.filter((customer) => !final.has(customer));
      const timer =
        point === 'random'
          ? setTimeout(() => running.child.kill('SIGKILL'), 150 + Math.floor(random() * 900))
          : undefined;
      await Promise.all(
        open.map(async (customer) => {
          requests += 1;
          const answer = await purchase(
            running.url,
            customer,
            `${customer}-confirmed-purchase`,
            price,
          );
          answers.get(customer)!.push(answer);
          const verdict = verdictOf(answer);
          if (verdict !== 'retry') final.set(customer, verdict);
        }),
      );
      clearTimeout(timer);
      if (running.child.exitCode === null && running.child.signalCode === null)
        running.child.kill('SIGTERM');
      const { signal } = await running.exit;
      if (signal === 'SIGKILL') {
        const line = running.lines.find((candidate) => candidate.startsWith('killed-at '));
        kills.push(line?.slice('killed-at '.length) ?? 'random');
      }
      await sandboxControl(sandbox, 'DELETE', '/faults');
      if (process.env.FAULT_VERBOSE) {
        const codes: Record<string, number> = {};
        for (const customer of open) {
          const last = answers.get(customer)!.at(-1)!;
          const name = `${last.status}${last.code ? ` ${last.code}` : ''}`;
          codes[name] = (codes[name] ?? 0) + 1;
        }
        console.log(
          `round ${round} ${point} after ${killAfter}: ${open.length} open, signal ${signal}, ${((Date.now() - started) / 1000).toFixed(1)} s`,
          codes,
        );
      }
    }
    proxy = undefined;
    for (const started of await Promise.all(standby)) {
      started.child.kill('SIGTERM');
      await started.exit;
    }

    const books = await ledger(sandbox, customers);
    const all = [...answers.values()].flat();
    const count = (test: (answer: Answer) => boolean) => all.filter(test).length;
    const applies = [...books.values()].reduce((sum, entry) => sum + entry.applies, 0);
    const invoices = [...books.values()].reduce((sum, entry) => sum + entry.invoices, 0);
    const verdicts = [...final.values()];
    const killsByPoint = kills.reduce<Record<string, number>>(
      (tally, point) => ({ ...tally, [point]: (tally[point] ?? 0) + 1 }),
      {},
    );
    console.log(
      `[faults] SIGKILL: purchases ${PURCHASES}, kills ${kills.length} ${JSON.stringify(killsByPoint)}, ` +
        `requests ${requests} (retries ${requests - PURCHASES}), answers: 200 ${count((a) => a.status === 200)} ` +
        `(replayed ${count((a) => a.replayed === true)}), 503 ${count((a) => a.status === 503)}, ` +
        `504 ${count((a) => a.status === 504)}, cut ${count((a) => a.status === 'no-answer')}, ` +
        `refused ${verdicts.filter((v) => v === 'refused').length}, unknown ${verdicts.filter((v) => v === 'unknown').length}; ` +
        `applies ${applies}, invoices ${invoices}; ${((Date.now() - started) / 1000).toFixed(1)} s, seed ${seed}`,
    );

    // Every targeted point was reached and killed the process, and so did the random kills.
    for (const point of KILL_POINTS)
      assert.ok(kills.includes(point), `no kill at ${point} (seed ${seed})`);
    assert.ok(kills.length >= SCHEDULE.length - 1, `kills: ${kills.join(', ')}`);
    assert.equal(final.size, PURCHASES, 'every purchase got an answer that settles it');
    for (const customer of customers) {
      const book = books.get(customer)!;
      const verdict = final.get(customer);
      const seen = answers.get(customer)!.map(verdictOf);
      // Truthful: an applied answer means applied once, a refusal nothing, unknown at most once;
      // and no customer is told two different things.
      assert.ok(book.applies <= 1, `${customer} applied ${book.applies} times`);
      assert.equal(book.invoices, book.applies, `${customer}: one invoice per apply`);
      if (seen.includes('applied'))
        assert.ok(!seen.includes('refused') && !seen.includes('unknown'), `${customer}: ${seen}`);
      if (verdict === 'applied') assert.deepEqual([book.applies, book.seats], [1, 6], customer);
      if (verdict === 'refused') assert.deepEqual([book.applies, book.seats], [0, 5], customer);
    }
    // Nothing here may refuse or lose a purchase: each key is applied and invoiced once.
    assert.deepEqual(
      verdicts.filter((verdict) => verdict !== 'applied'),
      [],
    );
    assert.equal(applies, PURCHASES);
    assert.equal(invoices, PURCHASES);
  });
});

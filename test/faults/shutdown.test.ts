// SIGTERM to a real proxy process, closed as docs/proxy.md shows (proxy.close(), then the
// server): new purchases are refused with 503 shutting-down, the purchases in flight finish, the
// open event streams end with a retry: hint, and the process exits within timeouts.shutdownMs.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startRedis } from '../server/redis-server.js';
import {
  killLeftovers,
  ledger,
  priceOfOneSeat,
  purchase,
  sandboxControl,
  startProxyProcess,
  startSandboxProcess,
  type ProxyProcess,
  type RunningSandboxProcess,
} from './harness.js';
import { waitFor } from '../time.js';

const keyOf = (customer: string) => `${customer}-confirmed-purchase`;

describe('SIGTERM: the proxy process drains and exits (real processes)', () => {
  let redis: { port: number; process: ChildProcess };
  let sandbox: RunningSandboxProcess;
  let proxy: ProxyProcess | undefined;

  before(async () => {
    [redis, sandbox] = await Promise.all([startRedis(), startSandboxProcess('drain:8')]);
  });
  after(async () => {
    proxy?.child.kill('SIGKILL');
    redis.process.kill('SIGTERM');
    try {
      await sandbox.stop();
    } finally {
      killLeftovers();
    }
  });

  /** Waits until the sandbox has received `count` more apply calls than `from`. */
  async function appliesReceived(from: number, count: number): Promise<void> {
    await waitFor(
      async () => (await appliesSoFar()) >= from + count,
      'the applies to reach the sandbox',
      20_000,
    );
  }

  async function appliesSoFar(): Promise<number> {
    return (await sandboxControl(sandbox, 'GET', '/stats')).requests['POST /v1/Usage'] ?? 0;
  }

  it('refuses new purchases, finishes those in flight, ends event streams with retry:', async () => {
    proxy = await startProxyProcess(sandbox, {
      FAULT_REDIS_PORT: String(redis.port),
      FAULT_PREFIX: 'drain:',
      FAULT_SHUTDOWN_MS: '8000',
    });
    const { url } = proxy;
    const price = await priceOfOneSeat(url, 'drain-000');
    const stream = await fetch(`${url}/billing/events`, {
      headers: { cookie: 'session=drain-007' },
    });
    assert.equal(stream.status, 200);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let streamText = (await reader.read()).value ?? '';
    const opening = streamText;

    // Four purchases in flight: the sandbox holds their applies for a second.
    await sandboxControl(sandbox, 'POST', '/faults', {
      route: 'POST /v1/Usage',
      mode: 'delay',
      delayMs: 1_000,
      times: 4,
    });
    const from = await appliesSoFar();
    const drained = ['drain-000', 'drain-001', 'drain-002', 'drain-003'];
    const inFlight = Promise.all(drained.map((c) => purchase(url, c, keyOf(c), price)));
    await appliesReceived(from, drained.length);

    const signalled = Date.now();
    proxy.child.kill('SIGTERM');
    // The health route turns 503 first: what a load balancer reads to stop sending.
    const health = await waitFor(async () => {
      const answer = await fetch(`${url}/billing/health`);
      if (answer.status === 503) return answer;
      await answer.body?.cancel();
      return undefined;
    }, 'the health route to answer 503');
    assert.equal(health?.status, 503);
    assert.deepEqual(await health?.json(), { status: 'shutting-down' });
    const refused = await purchase(url, 'drain-004', keyOf('drain-004'), price);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      streamText += value;
    }
    const answers = await inFlight;
    const { code, signal } = await proxy.exit;
    const exitMs = Date.now() - signalled;
    const closed = proxy.lines.find((line) => line.startsWith('closed '));
    proxy = undefined;
    const books = await ledger(sandbox, [...drained, 'drain-004']);
    console.log(
      `[faults] SIGTERM: ${drained.length} purchases in flight answered ${answers.map((a) => a.status).join(', ')}, ` +
        `a new one ${refused.status} ${refused.code} (Retry-After ${refused.retryAfter}), ` +
        `event stream ended with ${JSON.stringify(streamText.slice(opening.length))}, ` +
        `close() resolved in ${closed?.slice('closed '.length)} ms, exited ${code ?? signal} ${exitMs} ms after SIGTERM`,
    );

    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200, 200, 200],
    );
    assert.deepEqual(
      [refused.status, refused.code, refused.retryAfter],
      [503, 'shutting-down', '1'],
    );
    assert.match(opening, /^retry: \d+\n/);
    assert.match(streamText.slice(opening.length), /retry: \d+\n\n$/);
    assert.equal(code, 0);
    assert.ok(exitMs < 8_000, `exited ${exitMs} ms after SIGTERM`);
    for (const customer of drained) assert.equal(books.get(customer)?.applies, 1, customer);
    assert.equal(books.get('drain-004')?.applies, 0);
  });

  it('resolves after timeouts.shutdownMs when a request outlasts it', async () => {
    const HELD_MS = 8_000;
    proxy = await startProxyProcess(sandbox, {
      FAULT_REDIS_PORT: String(redis.port),
      FAULT_PREFIX: 'drain:',
      FAULT_SHUTDOWN_MS: '300',
    });
    const { url } = proxy;
    const price = await priceOfOneSeat(url, 'drain-005');
    await sandboxControl(sandbox, 'POST', '/faults', {
      route: 'POST /v1/Usage',
      mode: 'delay',
      delayMs: HELD_MS,
      times: 1,
    });
    const from = await appliesSoFar();
    const slow = purchase(url, 'drain-005', keyOf('drain-005'), price);
    await appliesReceived(from, 1);
    const signalled = Date.now();
    proxy.child.kill('SIGTERM');
    const { code } = await proxy.exit;
    const exitMs = Date.now() - signalled;
    const warned = proxy.lines.some((line) => line.includes('"event":"shutdown-timeout"'));
    proxy = undefined;
    const answer = await slow;
    console.log(
      `[faults] SIGTERM with shutdownMs 300 and an apply held ${HELD_MS} ms: exited ${code} ${exitMs} ms after SIGTERM, the purchase ${answer.status}`,
    );
    assert.equal(code, 0);
    assert.ok(warned, 'a shutdown-timeout warning');
    // Well before the held apply would have ended: the bound, not the request, ended the wait.
    // The margin is wide because a loaded machine takes a second or more to end a process.
    assert.ok(exitMs < HELD_MS / 2, `exited ${exitMs} ms after SIGTERM`);
    assert.equal(answer.status, 'no-answer');
    await sandboxControl(sandbox, 'DELETE', '/faults');
  });
});

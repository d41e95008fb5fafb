// GET {basePath}/health over HTTP, against a real redis-server and the real sandbox: 200 when
// both answer, 503 naming the check that failed when one does not, nothing secret either way.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it, mock } from 'node:test';
import { Redis } from 'ioredis';
import {
  createBillingProxy,
  createRedisIdempotencyStore,
  toNodeHandler,
  type BillingProxy,
} from '../../src/server/index.js';
import { HEALTH_CACHE_MS } from '../../src/server/health.js';
import {
  collectingLogger,
  countingFetch,
  proxyOptions,
  startSandbox,
  type RunningSandbox,
} from './helpers.js';
import { startRedis } from './redis-server.js';

describe('GET {basePath}/health (real redis-server, real sandbox, over HTTP)', () => {
  let redis: { port: number; process: ChildProcess };
  let client: Redis;
  let sandbox: RunningSandbox;
  let proxy: BillingProxy;
  let server: Server;
  let url: string;
  const counter = countingFetch();
  const log = collectingLogger();

  before(async () => {
    [redis, sandbox] = await Promise.all([startRedis(), startSandbox()]);
    client = new Redis({
      host: '127.0.0.1',
      port: redis.port,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => 50,
    });
    client.on('error', () => {});
    await once(client, 'ready');
    proxy = createBillingProxy(
      proxyOptions(sandbox, {
        idempotencyStore: createRedisIdempotencyStore(client),
        fetch: counter.fetch,
        logger: log.logger,
        // A probe has no session: identify must never be asked.
        identify: () => {
          throw new Error('identify called for a health probe');
        },
      }),
    );
    server = createServer(toNodeHandler(proxy)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/billing/health`;
  });
  after(async () => {
    mock.timers.reset();
    await proxy.close();
    server.close();
    client.disconnect();
    redis.process.kill('SIGTERM');
    await sandbox.close().catch(() => {});
  });

  async function probe(): Promise<{ status: number; body: unknown; text: string }> {
    const response = await fetch(url);
    const text = await response.text();
    assert.equal(response.headers.get('cache-control'), 'no-store');
    return { status: response.status, body: JSON.parse(text), text };
  }

  /**
   * Past the cache: the next probe runs the checks again. The clock (Date only; timers stay
   * real) moves past the cache's age at once instead of the test waiting for it.
   */
  let clockMocked = false;
  const fresh = async () => {
    if (!clockMocked) mock.timers.enable({ apis: ['Date'], now: Date.now() });
    clockMocked = true;
    mock.timers.tick(HEALTH_CACHE_MS + 50);
  };

  it('answers 200 when the store and the service answer, and exposes nothing', async () => {
    const { status, body, text } = await probe();
    assert.equal(status, 200);
    assert.deepEqual(body, { status: 'ok', checks: { store: 'ok', service: 'ok' } });
    for (const secret of [
      sandbox.agentKey,
      sandbox.apiKey,
      sandbox.portalSecret,
      sandbox.apiUrl,
      String(redis.port),
      'healthy',
    ])
      assert.ok(!text.includes(secret), `the answer shows ${secret}`);
    const head = await fetch(url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
    const post = await fetch(url, { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
  });

  it('runs its checks once per second however many probes come', async () => {
    await fresh();
    const before = counter.calls['GET /v1/Usages'] ?? 0;
    const answers = await Promise.all(Array.from({ length: 50 }, () => probe()));
    assert.ok(answers.every((answer) => answer.status === 200));
    assert.equal((counter.calls['GET /v1/Usages'] ?? 0) - before, 1);
  });

  it('answers 503 naming the store when Redis is down, 200 again once it is back', async () => {
    redis.process.kill('SIGKILL');
    await once(redis.process, 'exit');
    await fresh();
    const down = await probe();
    assert.equal(down.status, 503);
    assert.deepEqual(down.body, {
      status: 'unavailable',
      checks: { store: 'failed', service: 'ok' },
    });
    assert.ok(
      log.entries.some((entry) => entry.event === 'health-check-failed' && entry.check === 'store'),
    );

    redis = await startRedis({ port: redis.port });
    let back = down;
    for (let tries = 0; tries < 20 && back.status !== 200; tries++) {
      await fresh();
      back = await probe();
    }
    assert.equal(back.status, 200);
  });

  it('answers 503 naming the service when it is down, and both when both are', async () => {
    await sandbox.close();
    await fresh();
    const serviceDown = await probe();
    assert.equal(serviceDown.status, 503);
    assert.deepEqual(serviceDown.body, {
      status: 'unavailable',
      checks: { store: 'ok', service: 'failed' },
    });
    redis.process.kill('SIGKILL');
    await once(redis.process, 'exit');
    await fresh();
    const bothDown = await probe();
    assert.equal(bothDown.status, 503);
    assert.deepEqual(bothDown.body, {
      status: 'unavailable',
      checks: { store: 'failed', service: 'failed' },
    });
  });

  it('can be switched off, and refuses a path another route has', () => {
    const off = createBillingProxy(proxyOptions(sandbox, { health: false }));
    return off.handler(new Request('http://app.test/billing/health')).then(async (response) => {
      assert.equal(response.status, 404);
      assert.throws(
        () => createBillingProxy(proxyOptions(sandbox, { health: { path: '/usages' } })),
        /health\.path: \/usages is already a route of the proxy/,
      );
    });
  });
});

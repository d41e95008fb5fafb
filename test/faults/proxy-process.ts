// A host app as it runs in production, in a process the fault tests may kill: the billing proxy
// with the Redis idempotency store, behind node:http, in front of the sandbox of another process.
//
// The kill points. With FAULT_KILL_AT=<point> and FAULT_KILL_AFTER=<n>, the process SIGKILLs
// itself the n-th time a purchase reaches the point. The points are observed from outside the
// proxy, through the two things it is given (its store and its fetch), so the proxy itself runs
// unchanged:
//   before-claim   a purchase is about to claim its key (setIfAbsent of a purchase record)
//   after-claim    the claim was stored
//   after-before   a pending record carrying `before` was stored (the write just ahead of the
//                  apply call, or a takeover of a key whose owner had got that far)
//   during-apply   the apply call (POST /v1/Usage) was sent FAULT_KILL_DELAY_MS ago and has not
//                  been answered (the tests make the sandbox hold it, so it lands after the kill)
//   after-apply    the service answered the apply; the proxy has not seen the answer
//   before-done    the `done` record is about to be written
// Prints `listening <port>`, then `killed-at <point>` just before such a kill. On SIGTERM it
// closes as a host app should: proxy.close() (new requests answered 503 while it drains), then
// the server, and exits 0 (`closed <ms>`).
import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import {
  createBillingProxy,
  createRedisIdempotencyStore,
  toNodeHandler,
  type IdempotencyStore,
} from '../../src/server/index.js';

const env = process.env;

/** The host app's session in these tests: a cookie `session=<customer reference>`. */
function identifyFromCookie(request: Request) {
  const match = /(?:^|;\s*)session=([^;]+)/.exec(request.headers.get('cookie') ?? '');
  return match?.[1] === undefined ? null : { reference: decodeURIComponent(match[1]) };
}
const sandbox = JSON.parse(env.FAULT_SANDBOX ?? '{}') as Record<string, string> & {
  businessId: number;
};
const killAt = env.FAULT_KILL_AT ?? 'none';
const killAfter = Number(env.FAULT_KILL_AFTER ?? 1);
const killDelayMs = Number(env.FAULT_KILL_DELAY_MS ?? 50);
let hits = 0;

function reached(point: string): void {
  if (point !== killAt) return;
  hits += 1;
  if (hits !== killAfter) return;
  // A pipe's writes are synchronous on Linux: the line is out before the kill.
  process.stdout.write(`killed-at ${point}\n`);
  process.kill(process.pid, 'SIGKILL');
}

// As docs/proxy.md advises: commands fail at once while Redis is unreachable (503
// store-unavailable) instead of queueing, and a command whose connection dropped is not sent
// again behind the proxy's back.
const redis = new Redis({
  host: '127.0.0.1',
  port: Number(env.FAULT_REDIS_PORT),
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  retryStrategy: () => 100,
});
redis.on('error', () => {});

const redisStore = createRedisIdempotencyStore(redis, { prefix: env.FAULT_PREFIX ?? 'faults:' });
const isPurchase = (key: string) => key.startsWith('purchase:');
const observedStore: IdempotencyStore = {
  get: (key) => redisStore.get(key),
  async setIfAbsent(key, value, ttlMs) {
    if (isPurchase(key)) reached('before-claim');
    const claimed = await redisStore.setIfAbsent(key, value, ttlMs);
    if (claimed && isPurchase(key)) reached('after-claim');
    return claimed;
  },
  async compareAndSet(key, expected, value, ttlMs) {
    const record = isPurchase(key)
      ? (JSON.parse(value) as { state: string; before?: unknown; leaseUntil?: number })
      : undefined;
    if (record?.state === 'done') reached('before-done');
    const saved = await redisStore.compareAndSet(key, expected, value, ttlMs);
    if (saved && record?.state === 'pending' && record.before !== undefined && record.leaseUntil)
      reached('after-before');
    return saved;
  },
  compareAndDelete: (key, expected) => redisStore.compareAndDelete(key, expected),
};

const observedFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (init?.method !== 'POST' || url.pathname !== '/v1/Usage') return fetch(input, init);
  const answer = fetch(input, init);
  if (killAt === 'during-apply') setTimeout(() => reached('during-apply'), killDelayMs);
  const response = await answer;
  reached('after-apply');
  return response;
};

const proxy = createBillingProxy({
  baseUrl: sandbox.apiUrl ?? '',
  agentKey: sandbox.agentKey ?? '',
  apiKey: sandbox.apiKey ?? '',
  businessId: sandbox.businessId,
  segment: sandbox.segment ?? '',
  portalScriptUrl: sandbox.portalScriptUrl ?? '',
  portalSecret: sandbox.portalSecret ?? '',
  identify: identifyFromCookie,
  basePath: '/billing',
  idempotencyStore: observedStore,
  fetch: observedFetch,
  // Short timeouts, so that a dead owner's lease (about their sum plus 5 s) runs out within the
  // test, yet long enough for a sandbox on a busy machine.
  timeouts: {
    upstreamMs: Number(env.FAULT_UPSTREAM_MS ?? 1_500),
    applyMs: 1_500,
    reconcileMs: 500,
    idempotencyWaitMs: 30_000,
    shutdownMs: Number(env.FAULT_SHUTDOWN_MS ?? 5_000),
  },
  limits: { rateLimit: false, upstreamRetries: 0, failedPurchaseTtlMs: 1_000 },
  logger: (entry) => {
    if (entry.level === 'warn' || entry.level === 'error')
      process.stdout.write(
        `log ${JSON.stringify({ event: entry.event, message: entry.message })}\n`,
      );
  },
});

// Ready once Redis is: a purchase arriving before would be answered 503 store-unavailable.
await new Promise((resolve) => redis.once('ready', resolve));
const server = createServer(toNodeHandler(proxy));
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address !== null && typeof address === 'object')
    process.stdout.write(`listening ${address.port}\n`);
});

process.on('SIGTERM', () => {
  const started = Date.now();
  // Keep answering while the proxy drains: new requests get 503 shutting-down at once (a load
  // balancer retries them elsewhere) rather than a refused connection.
  void proxy.close().then(() => {
    process.stdout.write(`closed ${Date.now() - started}\n`);
    // The last answers may still be on their way to their sockets: the server's close waits
    // for them, a moment at most (a request that outlasted shutdownMs is cut then).
    server.close(() => {
      redis.disconnect();
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 200).unref();
  });
});

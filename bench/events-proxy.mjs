// The proxy process of bench/events.bench.ts: the built package (dist/) on plain node, with
// notifications and event streams on. No upstream call is made for event streams and
// notifications, so no billing service is needed.
import { createServer } from 'node:http';
import { createBillingProxy, toNodeHandler } from '../dist/server/index.js';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 5000);

const proxy = createBillingProxy({
  baseUrl: 'http://127.0.0.1:9',
  agentKey: 'bench',
  apiKey: 'bench',
  businessId: 1,
  segment: 'main',
  portalScriptUrl: 'http://127.0.0.1:9/portal.js',
  portalSecret: 'bench',
  basePath: '/billing',
  identify: (request) => {
    const match = /session=([^;]+)/.exec(request.headers.get('cookie') ?? '');
    return match?.[1] ? { reference: match[1] } : null;
  },
  notifications: { secret: 'bench-webhook-secret', key: 'bench-webhook-key' },
  events: { maxStreams: STREAMS * 2 },
  logger: () => {},
});
const server = createServer(toNodeHandler(proxy));
server.keepAliveTimeout = 60_000;

// Each line on stdin asks for this process's memory (after a collection), as one JSON line.
process.stdin.on('data', async () => {
  globalThis.gc?.();
  if (process.env.BENCH_HEAP_SNAPSHOT)
    (await import('node:v8')).writeHeapSnapshot(process.env.BENCH_HEAP_SNAPSHOT);
  const { rss, heapUsed } = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({ rss, heapUsed })}\n`);
});
process.stdin.on('end', () => process.exit(0));
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});

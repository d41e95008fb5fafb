// `npm run bench:sandbox`: requests per second and p50/p99 latency of POST /v1/Pricing/Usage and
// GET /v1/Usages with 1,000 customers loaded. The sandbox runs in its own process on loopback;
// the clients keep their connections alive. Each run is bounded in requests and in time.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';

const CUSTOMERS = 1000;
const WARMUP = 1000;
const MAX_REQUESTS = 20_000;
const MAX_SECONDS = 8;
const TARGET_P99_MS = 5;

interface Target {
  url: string;
  agentKey: string;
  apiKey: string;
}

interface Server {
  target: Target;
  /** Server CPU time (user + system) in microseconds so far. */
  cpu: () => Promise<number>;
  stop: () => Promise<void>;
}

function startServer(): Promise<Server> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      new URL('./sandbox-server.ts', import.meta.url).pathname,
      String(CUSTOMERS),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    },
  );
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (line) => {
      child.removeAllListeners('exit');
      const stop = () =>
        new Promise<void>((done) => {
          child.once('exit', () => done());
          child.kill('SIGTERM');
        });
      const cpu = () =>
        new Promise<number>((done) => {
          child.once('message', (usage) => {
            const { user, system } = usage as NodeJS.CpuUsage;
            done(user + system);
          });
          child.send('cpu');
        });
      resolve({ target: JSON.parse(line) as Target, cpu, stop });
    });
  });
}

interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

function once(agent: Agent, target: Target, call: Call): Promise<number> {
  const url = new URL(call.path, target.url);
  const headers: Record<string, string | number> = {
    authorization: `Basic ${Buffer.from(`${target.agentKey}:${target.apiKey}`).toString('base64')}`,
  };
  if (call.body) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(call.body);
  }
  return new Promise((resolve, reject) => {
    const req = request(url, { method: call.method, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(call.body);
  });
}

interface Result {
  name: string;
  /** Server CPU microseconds per request. */
  cpuPerRequest: number;
  concurrency: number;
  requests: number;
  seconds: number;
  errors: number;
  latencies: number[];
}

async function run(
  name: string,
  server: Server,
  concurrency: number,
  next: (i: number) => Call,
): Promise<Result> {
  const { target } = server;
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  for (let i = 0; i < WARMUP; i += concurrency) {
    await Promise.all(
      Array.from({ length: concurrency }, (_, k) => once(agent, target, next(i + k))),
    );
  }
  const latencies: number[] = [];
  const cpuBefore = await server.cpu();
  let issued = 0;
  let errors = 0;
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(MAX_SECONDS * 1e9);
  const worker = async () => {
    while (issued < MAX_REQUESTS && process.hrtime.bigint() < deadline) {
      const call = next(issued++);
      const t0 = process.hrtime.bigint();
      const status = await once(agent, target, call);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (status !== 200) errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuPerRequest = ((await server.cpu()) - cpuBefore) / latencies.length;
  agent.destroy();
  return {
    name,
    cpuPerRequest,
    concurrency,
    requests: latencies.length,
    seconds,
    errors,
    latencies,
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const FEATURES = ['seats', 'projects', 'api-calls'];
const customer = (i: number) => `customer-${String((i * 7919) % CUSTOMERS).padStart(4, '0')}`;
const pricing = (i: number): Call => {
  // Starter customers (every 5th from 3) lack seats: keep to features every plan has, plus seats for the others.
  const ref = customer(i);
  const n = Number(ref.slice(-4));
  const feature = n % 5 === 3 ? (i % 2 ? 'projects' : 'api-calls') : (FEATURES[i % 3] as string);
  return {
    method: 'POST',
    path: '/v1/Pricing/Usage',
    body: JSON.stringify({
      ReferenceCustomer: ref,
      ReferenceFeature: feature,
      Increment: 1 + (i % 5),
      DateStamp: '2026-11-16T00:00:00Z',
      NextTerm: true,
    }),
  };
};
const usages = (i: number): Call => ({
  method: 'GET',
  path: `/v1/Usages?ReferenceCustomer=${customer(i)}`,
});

const server = await startServer();
const results: Result[] = [];
try {
  for (const concurrency of [1, 8]) {
    results.push(await run('POST /v1/Pricing/Usage', server, concurrency, pricing));
    results.push(await run('GET /v1/Usages', server, concurrency, usages));
  }
} finally {
  await server.stop();
}

const rows = results.map((r) => {
  const sorted = [...r.latencies].sort((a, b) => a - b);
  return {
    route: r.name,
    conns: r.concurrency,
    requests: r.requests,
    'req/s': Math.round(r.requests / r.seconds),
    'p50 ms': percentile(sorted, 50).toFixed(2),
    'p99 ms': percentile(sorted, 99).toFixed(2),
    'max ms': (sorted.at(-1) ?? NaN).toFixed(2),
    'server CPU µs/req': Math.round(r.cpuPerRequest),
    errors: r.errors,
  };
});
console.log(
  `Sandbox benchmark: ${CUSTOMERS} customers, keep-alive clients on loopback, up to ${MAX_REQUESTS} requests or ${MAX_SECONDS} s per run (after ${WARMUP} warm-up requests).`,
);
console.table(rows);
const worst = Math.max(...rows.filter((r) => r.conns === 1).map((r) => Number(r['p99 ms'])));
console.log(
  `p99 with one connection: ${worst.toFixed(2)} ms (target < ${TARGET_P99_MS} ms): ${worst < TARGET_P99_MS ? 'met' : 'NOT met'}`,
);
const load = (await import('node:os')).loadavg()[0] ?? 0;
console.log(
  `Machine load average (1 min): ${load.toFixed(2)} on ${(await import('node:os')).availableParallelism()} cores; latency tails grow with it, server CPU per request does not.`,
);
if (results.some((r) => r.errors > 0)) {
  console.error('Some requests did not answer 200.');
  process.exitCode = 1;
}

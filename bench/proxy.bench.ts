// npm run bench:proxy — the billing proxy's throughput and added latency, side by side with
// calling the sandbox directly, in one run and with the same client.
//
// Three processes, as in production: the sandbox (the billing service), the proxy (the host
// app's server) and this client. Loopback only; request counts are bounded.
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, createServer, request as httpRequest } from 'node:http';
import { cpus, loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const SEQUENTIAL_REQUESTS = 1500;
const CONCURRENT_REQUESTS = 6000;
const CONCURRENCY = 16;
const WARMUP = 300;
const ROUNDS = 3;
const CPU_REQUESTS = 2000;

type Measurement = Awaited<ReturnType<typeof measure>>;

/** Median throughput and median p50 of several runs. */
function median(results: Measurement[]): Measurement {
  const middle = Math.floor(results.length / 2);
  const byRps = [...results].sort((a, b) => a.rps - b.rps)[middle] as Measurement;
  const byP50 = [...results].sort((a, b) => a.p50 - b.p50)[middle] as Measurement;
  return { rps: byRps.rps, p50: byP50.p50, p99: byRps.p99 };
}

/** Runs both sides in alternating rounds (a, b, a, b...), so they see the same machine state. */
async function paired(
  a: () => Promise<Measurement>,
  b: () => Promise<Measurement>,
): Promise<[Measurement, Measurement]> {
  const as: Measurement[] = [];
  const bs: Measurement[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    as.push(await a());
    bs.push(await b());
  }
  return [median(as), median(bs)];
}

interface Role {
  sandbox?: boolean;
  proxy?: string;
}

async function runChildRole(role: Role): Promise<void> {
  // The parent closes our stdin to stop us: a clean exit lets --cpu-prof write its profile.
  // BENCH_PROFILE_DIR=<dir>: each child writes a CPU profile of its run there (--cpu-prof does
  // not survive the tsx loader's exit).
  const profileDir = process.env.BENCH_PROFILE_DIR;
  let stopProfile = (done: () => void) => done();
  if (profileDir !== undefined) {
    const { Session } = await import('node:inspector');
    const { writeFileSync } = await import('node:fs');
    const session = new Session();
    session.connect();
    session.post('Profiler.enable', () => session.post('Profiler.start'));
    stopProfile = (done) =>
      session.post('Profiler.stop', (_error, result) => {
        const name = role.sandbox ? 'sandbox' : 'proxy';
        writeFileSync(`${profileDir}/${name}.cpuprofile`, JSON.stringify(result.profile));
        done();
      });
  }
  process.stdin.on('end', () => stopProfile(() => process.exit(0)));
  // Each line "cpu" on stdin asks for this process's CPU time so far (µs), as one JSON line.
  process.stdin.on('data', () => {
    const { user, system } = process.cpuUsage();
    process.stdout.write(`${JSON.stringify({ cpu: user + system })}\n`);
  });
  if (role.sandbox) {
    const { startSandbox } = await import('../src/sandbox/index.js');
    const sandbox = await startSandbox();
    process.stdout.write(`${JSON.stringify(sandbox)}\n`);
    return;
  }
  if (role.proxy !== undefined) {
    const sandbox = JSON.parse(role.proxy) as Record<string, string | number>;
    const { createBillingProxy, toNodeHandler } = await import('../src/server/index.js');
    const proxy = createBillingProxy({
      baseUrl: String(sandbox.apiUrl),
      agentKey: String(sandbox.agentKey),
      apiKey: String(sandbox.apiKey),
      businessId: Number(sandbox.businessId),
      segment: String(sandbox.segment),
      portalScriptUrl: String(sandbox.portalScriptUrl),
      portalSecret: String(sandbox.portalSecret),
      basePath: '/billing',
      identify: (request) => {
        const match = /session=([^;]+)/.exec(request.headers.get('cookie') ?? '');
        return match?.[1] ? { reference: match[1] } : null;
      },
      limits: { rateLimit: false },
    });
    const server = createServer(toNodeHandler(proxy));
    server.keepAliveTimeout = 60_000;
    server.listen(0, '127.0.0.1', () => {
      process.stdout.write(
        `${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`,
      );
    });
  }
}

function startChild(
  args: string[],
): Promise<{ child: ChildProcess; info: Record<string, unknown> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), ...args],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n')[0];
      if (buffer.includes('\n') && line !== undefined)
        resolve({ child, info: JSON.parse(line) as Record<string, unknown> });
    });
    child.once('exit', (code) => reject(new Error(`child ${args.join(' ')} exited with ${code}`)));
  });
}

/** CPU time (µs) a child process has used so far. */
function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.stdout?.once('data', (chunk: Buffer) =>
      resolve((JSON.parse(chunk.toString()) as { cpu: number }).cpu),
    );
    child.stdin?.write('cpu\n');
  });
}

/** The one client of both sides: node:http with a keep-alive agent. */
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

interface Target {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

function send(target: Target): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const outgoing = httpRequest(
      target.url,
      { method: target.method, headers: target.headers, agent },
      (response) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode !== 200)
            reject(new Error(`${target.url} answered ${response.statusCode}`));
          else resolve(performance.now() - started);
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(target.body);
  });
}

async function measure(target: Target, count: number, concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        latencies.push(await send(target));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { rps: count / seconds, p50: at(0.5), p99: at(0.99) };
}

async function main(): Promise<void> {
  const sandboxChild = await startChild(['--role=sandbox']);
  const sandbox = sandboxChild.info as Record<string, string>;
  const proxyChild = await startChild([`--role=proxy=${JSON.stringify(sandbox)}`]);
  const proxyUrl = String(proxyChild.info.url);
  try {
    const basic = `Basic ${Buffer.from(`${sandbox.agentKey}:${sandbox.apiKey}`).toString('base64')}`;
    // A billable change (3 seats over the included 5 for `healthy`): one upstream call on both sides
    // (a free change also makes the proxy read the subscription, for confirmationRequired).
    const pricingBody = JSON.stringify({ feature: 'seats', increment: 3 });
    const scenarios: { name: string; direct: Target; proxied: Target }[] = [
      {
        name: 'GET /usages',
        direct: {
          url: `${sandbox.apiUrl}/v1/Usages?ReferenceCustomer=healthy&Page=1&SizePage=1000`,
          method: 'GET',
          headers: { authorization: basic, accept: 'application/json' },
        },
        proxied: {
          url: `${proxyUrl}/billing/usages`,
          method: 'GET',
          headers: { cookie: 'session=healthy' },
        },
      },
      {
        name: 'POST /pricing',
        direct: {
          url: `${sandbox.apiUrl}/v1/Pricing/Usage`,
          method: 'POST',
          headers: { authorization: basic, 'content-type': 'application/json' },
          body: JSON.stringify({
            ReferenceCustomer: 'healthy',
            ReferenceFeature: 'seats',
            Increment: 3,
            DateStamp: new Date().toISOString(),
            NextTerm: true,
          }),
        },
        proxied: {
          url: `${proxyUrl}/billing/pricing`,
          method: 'POST',
          headers: {
            cookie: 'session=healthy',
            origin: proxyUrl,
            'content-type': 'application/json',
          },
          body: pricingBody,
        },
      },
    ];

    const rows: string[] = [];
    let ok = true;
    for (const scenario of scenarios) {
      for (const target of [scenario.direct, scenario.proxied])
        await measure(target, WARMUP, CONCURRENCY);
      const [directLatency, proxiedLatency] = await paired(
        () => measure(scenario.direct, SEQUENTIAL_REQUESTS / ROUNDS, 1),
        () => measure(scenario.proxied, SEQUENTIAL_REQUESTS / ROUNDS, 1),
      );
      const [directLoad, proxiedLoad] = await paired(
        () => measure(scenario.direct, CONCURRENT_REQUESTS / ROUNDS, CONCURRENCY),
        () => measure(scenario.proxied, CONCURRENT_REQUESTS / ROUNDS, CONCURRENCY),
      );
      // CPU per request of each server process, which the machine's other load barely changes:
      // what the proxy costs compared with the service it fronts.
      const cpuBefore = await Promise.all([cpuOf(proxyChild.child), cpuOf(sandboxChild.child)]);
      await measure(scenario.proxied, CPU_REQUESTS, CONCURRENCY);
      const cpuAfter = await Promise.all([cpuOf(proxyChild.child), cpuOf(sandboxChild.child)]);
      const proxyCpu = ((cpuAfter[0] ?? 0) - (cpuBefore[0] ?? 0)) / CPU_REQUESTS;
      const sandboxCpu = ((cpuAfter[1] ?? 0) - (cpuBefore[1] ?? 0)) / CPU_REQUESTS;
      const ratio = proxiedLoad.rps / directLoad.rps;
      const added = proxiedLatency.p50 - directLatency.p50;
      ok &&= ratio >= 0.85 && added < 1;
      rows.push(
        `${scenario.name.padEnd(15)} direct ${directLoad.rps.toFixed(0).padStart(6)} req/s  p50 ${directLatency.p50.toFixed(2)} ms  p99 ${directLatency.p99.toFixed(2)} ms`,
        `${''.padEnd(15)} proxy  ${proxiedLoad.rps.toFixed(0).padStart(6)} req/s  p50 ${proxiedLatency.p50.toFixed(2)} ms  p99 ${proxiedLatency.p99.toFixed(2)} ms`,
        `${''.padEnd(15)} ratio  ${(ratio * 100).toFixed(1)} % of direct throughput, +${added.toFixed(2)} ms at p50` +
          `  (under load: p50 ${directLoad.p50.toFixed(2)} → ${proxiedLoad.p50.toFixed(2)} ms, p99 ${directLoad.p99.toFixed(2)} → ${proxiedLoad.p99.toFixed(2)} ms)`,
        `${''.padEnd(15)} cpu    proxy process ${proxyCpu.toFixed(0)} µs/request, sandbox process ${sandboxCpu.toFixed(0)} µs/request`,
      );
    }
    console.log(
      `billing proxy vs sandbox direct — ${SEQUENTIAL_REQUESTS} sequential requests for latency, ` +
        `${CONCURRENT_REQUESTS} at concurrency ${CONCURRENCY} for throughput, in ${ROUNDS} alternating rounds ` +
        `(medians), loopback, keep-alive\n` +
        `machine: ${cpus().length} cores, load average ${loadavg()
          .map((load) => load.toFixed(1))
          .join(' ')} (other work on the machine skews both sides)\n`,
    );
    console.log(rows.join('\n'));
    console.log(
      `\ntarget (≥ 85 % of direct throughput, < 1 ms added at p50): ${ok ? 'met' : 'missed'}`,
    );
  } finally {
    agent.destroy();
    for (const { child } of [proxyChild, sandboxChild]) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin?.end();
      await exited;
    }
  }
}

const roleArgument = process.argv.find((argument) => argument.startsWith('--role='));
if (roleArgument === undefined) {
  await main();
} else if (roleArgument === '--role=sandbox') {
  await runChildRole({ sandbox: true });
} else {
  await runChildRole({ proxy: roleArgument.slice('--role=proxy='.length) });
}

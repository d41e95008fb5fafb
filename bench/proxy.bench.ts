// npm run bench:proxy — the billing proxy's throughput and CPU per request against a bare Node
// passthrough to the same sandbox, in one run and with the same client (and the sandbox called
// directly, for reference).
//
// Three processes, as in production: the sandbox (the billing service), the proxy (the host
// app's server) and this client; plus a fourth, a bare passthrough (no parsing, no checks) that
// shows what any Node proxy process reaches on the same machine. Loopback only; request counts
// are bounded.
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, createServer, request as httpRequest } from 'node:http';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type * as ServerModule from '../src/server/index.js';

const SEQUENTIAL_REQUESTS = 1500;
const CONCURRENT_REQUESTS = 6000;
const CONCURRENCY = 16;
/**
 * Requests each side serves before it is measured. A server runs for hours: what a request costs
 * it is the cost once V8 has compiled the hot code, which takes a few thousand requests for the
 * proxy's code (a few hundred leave it half-compiled, and its compiler threads count in its CPU
 * time).
 */
const WARMUP = 4000;
const ROUNDS = 3;
interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  /** CPU time (µs) per request of the server process the run measured, when it measured one. */
  cpu: number;
}

/** Median throughput, median p50 and median CPU per request of several runs. */
function median(results: Measurement[]): Measurement {
  const middle = Math.floor(results.length / 2);
  const at = (key: keyof Measurement) =>
    [...results].sort((a, b) => a[key] - b[key])[middle] as Measurement;
  return { rps: at('rps').rps, p50: at('p50').p50, p99: at('rps').p99, cpu: at('cpu').cpu };
}

/** Runs every side in alternating rounds (a, b, c, a, b, c...), so they see the same machine state. */
async function alternating(runs: (() => Promise<Measurement>)[]): Promise<Measurement[]> {
  const results = runs.map((): Measurement[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, run] of runs.entries()) results[index]?.push(await run());
  }
  return results.map(median);
}

interface Role {
  sandbox?: boolean;
  proxy?: string;
  passthrough?: string;
}

/**
 * The reference: the least a Node proxy process can do — forward method, path, headers and body
 * to the sandbox over keep-alive node:http and send the answer back, nothing parsed or checked.
 * Bodies are gathered and written whole (one write each way, like the proxy), the cheapest way
 * to move small JSON documents through node:http.
 */
function startPassthrough(upstreamUrl: string): Promise<string> {
  const upstream = new URL(upstreamUrl);
  const upstreamAgent = new Agent({ keepAlive: true, maxSockets: 256, scheduling: 'lifo' });
  const gather = (from: NodeJS.ReadableStream, then: (body: Buffer) => void) => {
    const chunks: Buffer[] = [];
    from.on('data', (chunk: Buffer) => chunks.push(chunk));
    from.on('end', () => then(Buffer.concat(chunks)));
  };
  const server = createServer((incoming, answer) =>
    gather(incoming, (body) => {
      const outgoing = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
          agent: upstreamAgent,
        },
        (response) =>
          gather(response, (answerBody) =>
            answer.writeHead(response.statusCode ?? 502, response.headers).end(answerBody),
          ),
      );
      outgoing.on('error', () => answer.destroy());
      outgoing.end(body);
    }),
  );
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
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
        const name = role.sandbox ? 'sandbox' : role.proxy !== undefined ? 'proxy' : 'passthrough';
        writeFileSync(`${profileDir}/${name}.cpuprofile`, JSON.stringify(result.profile));
        done();
      });
  }
  process.stdin.on('end', () => stopProfile(() => process.exit(0)));
  // Each line "cpu" on stdin asks for this process's CPU time so far (µs), as one JSON line.
  process.stdin.on('data', () => {
    const { user, system } = process.cpuUsage();
    process.stdout.write(`${JSON.stringify({ cpu: user + system, user, system })}\n`);
  });
  if (role.sandbox) {
    const { startSandbox } = await import('../src/sandbox/index.js');
    const sandbox = await startSandbox();
    process.stdout.write(`${JSON.stringify(sandbox)}\n`);
    return;
  }
  if (role.passthrough !== undefined) {
    const sandbox = JSON.parse(role.passthrough) as Record<string, string>;
    const url = await startPassthrough(String(sandbox.url));
    process.stdout.write(`${JSON.stringify({ url })}\n`);
    return;
  }
  if (role.proxy !== undefined) {
    const sandbox = JSON.parse(role.proxy) as Record<string, string | number>;
    // The built package, as an app runs it (not the sources through tsx's loader).
    const built: string = '../dist/server/index.js';
    const { createBillingProxy, toNodeHandler } = (await import(built)) as typeof ServerModule;
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
      // BENCH_FETCH=1: upstream calls through the runtime's fetch, not node:http (the default on
      // Node), to see what the Node path saves.
      ...(process.env.BENCH_FETCH === '1'
        ? { fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init) }
        : {}),
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

/**
 * CPU time (µs) a child process has used so far. On Linux it is read from outside, the sum of
 * its threads' run times in /proc (nanoseconds): asking the process itself (the stdin probe,
 * elsewhere) runs code of its own in it, whose first use throws away the optimised code of
 * Node's stream functions, recompiled during the round being measured.
 */
async function cpuOf(child: ChildProcess): Promise<number> {
  const tasks = `/proc/${child.pid}/task`;
  if (child.pid !== undefined && existsSync(tasks)) {
    let nanoseconds = 0;
    for (const task of readdirSync(tasks)) {
      try {
        nanoseconds += Number(readFileSync(`${tasks}/${task}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // A thread that ended meanwhile.
      }
    }
    return nanoseconds / 1000;
  }
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
  return { rps: count / seconds, p50: at(0.5), p99: at(0.99), cpu: NaN };
}

/** `measure`, with the CPU time (µs) per request that `server` spent meanwhile. */
async function measureCpu(
  server: ChildProcess,
  target: Target,
  count: number,
  concurrency: number,
): Promise<Measurement> {
  const before = await cpuOf(server);
  const result = await measure(target, count, concurrency);
  return { ...result, cpu: ((await cpuOf(server)) - before) / count };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

async function main(): Promise<void> {
  const sandboxChild = await startChild(['--role=sandbox']);
  const sandbox = sandboxChild.info as Record<string, string>;
  const proxyChild = await startChild([`--role=proxy=${JSON.stringify(sandbox)}`]);
  const proxyUrl = String(proxyChild.info.url);
  const passthroughChild = await startChild([`--role=passthrough=${JSON.stringify(sandbox)}`]);
  const passthroughUrl = String(passthroughChild.info.url);
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
      // The passthrough sends the direct request on as it is, only to another port.
      const passthrough: Target = {
        ...scenario.direct,
        url: scenario.direct.url.replace(String(sandbox.url), passthroughUrl),
      };
      const targets = [scenario.direct, passthrough, scenario.proxied];
      for (const target of targets) await measure(target, WARMUP, CONCURRENCY);
      const [directLatency, passLatency, proxiedLatency] = (await alternating(
        targets.map((target) => () => measure(target, SEQUENTIAL_REQUESTS / ROUNDS, 1)),
      )) as [Measurement, Measurement, Measurement];
      // Under load, the CPU time per request of the process that serves each side (the sandbox
      // for direct calls): a figure the machine's other load inflates far less than req/s.
      const servers = [sandboxChild.child, passthroughChild.child, proxyChild.child];
      const [directLoad, passLoad, proxiedLoad] = (await alternating(
        targets.map(
          (target, index) => () =>
            measureCpu(
              servers[index] as ChildProcess,
              target,
              CONCURRENT_REQUESTS / ROUNDS,
              CONCURRENCY,
            ),
        ),
      )) as [Measurement, Measurement, Measurement];
      const ratio = proxiedLoad.rps / directLoad.rps;
      const added = proxiedLatency.p50 - directLatency.p50;
      const passRatio = passLoad.rps / directLoad.rps;
      const passAdded = passLatency.p50 - directLatency.p50;
      const ofBare = proxiedLoad.rps / passLoad.rps;
      const cpuOfBare = proxiedLoad.cpu / passLoad.cpu;
      ok &&= ofBare >= 0.85 && cpuOfBare <= 1.5;
      const line = (label: string, load: Measurement, latency: Measurement) =>
        `${''.padEnd(15)} ${label.padEnd(12)} ${load.rps.toFixed(0).padStart(6)} req/s  p50 ${ms(latency.p50)}  p99 ${ms(latency.p99)}`;
      rows.push(
        line('direct', directLoad, directLatency).replace(''.padEnd(15), scenario.name.padEnd(15)),
        line('passthrough', passLoad, passLatency),
        line('proxy', proxiedLoad, proxiedLatency),
        `${''.padEnd(15)} vs bare      proxy ${(ofBare * 100).toFixed(1)} % of the bare passthrough's throughput, CPU ${cpuOfBare.toFixed(2)} × per request`,
        `${''.padEnd(15)} ratio proxy  ${(ratio * 100).toFixed(1)} % of direct throughput, +${ms(added)} at p50` +
          `  (under load: p50 ${ms(directLoad.p50)} → ${ms(proxiedLoad.p50)}, p99 ${ms(directLoad.p99)} → ${ms(proxiedLoad.p99)})`,
        `${''.padEnd(15)} ratio bare   ${(passRatio * 100).toFixed(1)} % of direct throughput, +${ms(passAdded)} at p50` +
          `  (the bare passthrough: the ceiling of any Node proxy process here)`,
        `${''.padEnd(15)} cpu          proxy process ${proxiedLoad.cpu.toFixed(0)} µs/request (${(proxiedLoad.cpu / passLoad.cpu).toFixed(2)} × the bare passthrough's ${passLoad.cpu.toFixed(0)}), sandbox process ${directLoad.cpu.toFixed(0)} µs/request`,
      );
    }
    console.log(
      `billing proxy vs a bare passthrough (and the sandbox direct) — ${SEQUENTIAL_REQUESTS} sequential requests for latency, ` +
        `${CONCURRENT_REQUESTS} at concurrency ${CONCURRENCY} for throughput, in ${ROUNDS} alternating rounds ` +
        `(medians), loopback, keep-alive\n` +
        `machine: ${cpus().length} cores, load average ${loadavg()
          .map((load) => load.toFixed(1))
          .join(' ')} (other work on the machine skews every side)\n`,
    );
    console.log(rows.join('\n'));
    console.log(
      `\ntarget (≥ 85 % of the bare passthrough's throughput, CPU ≤ 1.5 × its per request): ${ok ? 'met' : 'missed'}`,
    );
  } finally {
    agent.destroy();
    for (const { child } of [passthroughChild, proxyChild, sandboxChild]) {
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
} else if (roleArgument.startsWith('--role=passthrough=')) {
  await runChildRole({ passthrough: roleArgument.slice('--role=passthrough='.length) });
} else {
  await runChildRole({ proxy: roleArgument.slice('--role=proxy='.length) });
}

// npm run bench:events — one proxy instance holding many server-sent event streams: its memory
// with them open, and how fast a notification reaches every open page of its customer.
//
// Two processes: the proxy (the built package on plain node: bench/events-proxy.mjs; the Node
// adapter, notifications on, the in-process signal bus) and this
// client, which opens STREAMS streams for CUSTOMERS customers (several pages each), then posts
// SIGNALS signed notifications one after the other, each for a random customer, and times how
// long each of that customer's pages takes to receive its event. Then, end to end in a real
// browser: the demo (sandbox → webhook → proxy → event stream → page), PAGE_CHANGES usages
// reported straight to the service, each timed until the open page's meter shows it. For context, a bare node:http
// process (events-baseline.mjs) holds the same streams first. Loopback only; every count is
// bounded and the run stops by itself. BENCH_HEAP_SNAPSHOT=<file> makes the proxy process write
// a heap snapshot each time its memory is read (to see what a stream costs).
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const STREAMS = 5_000;
const CUSTOMERS = 1_000;
const SIGNALS = 200;
// The same as in events-proxy.mjs.
const SECRET = 'bench-webhook-secret';
const KEY = 'bench-webhook-key';
const MEMORY_TARGET_MB = 150;
const P99_TARGET_MS = 200;
const SIGNAL_TIMEOUT_MS = 5_000;
const PAGE_CHANGES = 100;
const PAGE_P95_TARGET_MS = 1_000;

/** A server process of this bench (events-proxy.mjs or events-baseline.mjs), on plain node. */
function startServer(file: string): Promise<{ child: ChildProcess; url: string }> {
  // Plain node on the built package, as a host app runs it (no TypeScript loader in memory).
  const child = spawn(
    process.execPath,
    ['--expose-gc', fileURLToPath(new URL(file, import.meta.url))],
    { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, BENCH_STREAMS: String(STREAMS) } },
  );
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) =>
      resolve({ child, url: (JSON.parse(chunk.toString()) as { url: string }).url }),
    );
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
}

function memoryOf(child: ChildProcess): Promise<{ rss: number; heapUsed: number }> {
  return new Promise((resolve) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString())));
    child.stdin?.write('memory\n');
  });
}

interface Page {
  customer: string;
  /** Called with the arrival time of each billing-changed event. */
  onEvent?: (at: number) => void;
  close(): void;
}

/** Opens one event stream as `customer`; resolves once its first bytes came. */
function openPage(url: string, agent: Agent, customer: string): Promise<Page> {
  return new Promise((resolve, reject) => {
    const page: Page = { customer, close: () => request.destroy() };
    const request = httpRequest(
      `${url}/billing/events`,
      { agent, headers: { cookie: `session=${customer}`, accept: 'text/event-stream' } },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`GET /billing/events answered ${response.statusCode}`));
          return;
        }
        response.setEncoding('utf8');
        let opened = false;
        response.on('data', (chunk: string) => {
          if (!opened) {
            opened = true;
            resolve(page);
          }
          if (chunk.includes('event: billing-changed')) page.onEvent?.(performance.now());
        });
      },
    );
    request.on('error', reject);
    request.end();
  });
}

async function sign(): Promise<string> {
  const { webhookSignature } = await import('../src/server/index.js');
  return webhookSignature(KEY, SECRET);
}

function postNotification(
  url: string,
  agent: Agent,
  signature: string,
  customer: string,
  id: number,
) {
  const body = JSON.stringify({
    Id: `bench-${id}`,
    IdBusiness: 1,
    IdSegment: 1,
    ReferenceSegment: 'main',
    DateTrigger: new Date().toISOString(),
    TypeTrigger: 'SubscriptionFeaturesUpdated',
    Customer: { ReferenceCustomer: customer },
  });
  return new Promise<number>((resolve, reject) => {
    const request = httpRequest(
      `${url}/billing/webhooks`,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-service-key': KEY,
          'x-service-signature': signature,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The RSS of a bare node:http process holding the same streams: what any Node server pays. */
async function baselineMemory(): Promise<{ idle: number; held: number }> {
  const { child, url } = await startServer('./events-baseline.mjs');
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const pages: Page[] = [];
  try {
    const idle = await memoryOf(child);
    await openPages(url, agent, pages);
    const held = await memoryOf(child);
    return { idle: idle.rss, held: held.rss };
  } finally {
    for (const page of pages) page.close();
    agent.destroy();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin?.end();
    await exited;
  }
}

/** Opens STREAMS pages in batches, so that the listen backlog never overflows. */
async function openPages(url: string, agent: Agent, pages: Page[]): Promise<void> {
  for (let index = 0; index < STREAMS; index += 250) {
    const batch = [];
    for (let offset = index; offset < Math.min(STREAMS, index + 250); offset++)
      batch.push(openPage(url, agent, `customer-${offset % CUSTOMERS}`));
    pages.push(...(await Promise.all(batch)));
  }
}

async function main(): Promise<void> {
  const baseline = await baselineMemory();
  const { child, url } = await startServer('./events-proxy.mjs');
  const streamsAgent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const postAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const pages: Page[] = [];
  try {
    const idle = await memoryOf(child);
    const openStarted = performance.now();
    await openPages(url, streamsAgent, pages);
    const openMs = performance.now() - openStarted;
    const held = await memoryOf(child);

    const byCustomer = new Map<string, Page[]>();
    for (const page of pages) {
      const list = byCustomer.get(page.customer) ?? [];
      list.push(page);
      byCustomer.set(page.customer, list);
    }
    const signature = await sign();
    const latencies: number[] = [];
    let missed = 0;
    for (let signal = 0; signal < SIGNALS; signal++) {
      const customer = `customer-${Math.floor(Math.random() * CUSTOMERS)}`;
      const targets = byCustomer.get(customer) ?? [];
      const sentAt = performance.now();
      const arrived = Promise.all(
        targets.map(
          (page) =>
            new Promise<void>((resolve) => {
              const timer = setTimeout(() => {
                missed += 1;
                page.onEvent = undefined;
                resolve();
              }, SIGNAL_TIMEOUT_MS);
              page.onEvent = (at) => {
                clearTimeout(timer);
                page.onEvent = undefined;
                latencies.push(at - sentAt);
                resolve();
              };
            }),
        ),
      );
      const status = await postNotification(url, postAgent, signature, customer, signal);
      if (status !== 200) throw new Error(`the webhook answered ${status}`);
      await arrived;
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    const p50 = percentile(sorted, 50);
    const p95 = percentile(sorted, 95);
    const p99 = percentile(sorted, 99);
    const memoryOk = held.rss < MEMORY_TARGET_MB * 1024 * 1024;
    const latencyOk = p99 < P99_TARGET_MS && missed === 0;
    console.log(
      `billing proxy event streams — ${STREAMS} streams for ${CUSTOMERS} customers on one instance, ` +
        `${SIGNALS} notifications one after the other, loopback\n` +
        `machine: ${cpus().length} cores, load average ${loadavg()
          .map((load) => load.toFixed(1))
          .join(' ')}\n`,
    );
    console.log(
      `streams   ${STREAMS} open in ${(openMs / 1000).toFixed(1)} s\n` +
        `memory    proxy process RSS ${mb(held.rss)} with them open (idle ${mb(idle.rss)}; heap ${mb(idle.heapUsed)} → ${mb(held.heapUsed)}, ${((held.heapUsed - idle.heapUsed) / STREAMS / 1024).toFixed(1)} KB per stream)\n` +
        `          a bare node:http process holding the same streams: RSS ${mb(baseline.held)} (idle ${mb(baseline.idle)}); the proxy adds ${(((held.rss - idle.rss) / (baseline.held - baseline.idle)) * 100 - 100).toFixed(0)} % per stream\n` +
        `delivery  webhook POST → event on each of the customer's pages: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms over ${latencies.length} deliveries (${missed} missed)`,
    );
    console.log(
      `\ntarget (RSS < ${MEMORY_TARGET_MB} MB with ${STREAMS} streams, p99 < ${P99_TARGET_MS} ms): ${memoryOk && latencyOk ? 'met' : 'missed'}`,
    );
  } finally {
    for (const page of pages) page.close();
    streamsAgent.destroy();
    postAgent.destroy();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin?.end();
    await exited;
  }
}

/**
 * From a usage applied by the service to the meter's new value in an open page of the demo,
 * PAGE_CHANGES times: the whole path of a notification, in Debian's Chromium.
 */
async function pageLatencies(): Promise<number[]> {
  const { startDemo } = await import('../demo/server.js');
  const { chromium } = await import('playwright-core');
  const { findChrome, CHROME_FLAGS } = await import('../scripts/prereqs.mjs');
  const demo = await startDemo({
    port: 0,
    logLevel: 'silent',
    watch: false,
    prebuildScriptTag: false,
  });
  const browser = await chromium.launch({ executablePath: findChrome(), args: [...CHROME_FLAGS] });
  try {
    const page = await browser.newPage();
    await page.goto(`${demo.url}/`);
    await page.getByRole('button', { name: /Hannah Healthy/ }).click();
    const meter = page.locator('usage-meter[feature="api-calls"] [role="meter"]');
    await meter.waitFor();
    const authorization = `Basic ${Buffer.from(`${demo.sandbox.agentKey}:${demo.sandbox.apiKey}`).toString('base64')}`;
    // The page's event stream is open once a first change arrives.
    const valueNow = async () => Number(await meter.getAttribute('aria-valuenow'));
    const latencies: number[] = [];
    for (let change = 0; change <= PAGE_CHANGES; change++) {
      const before = await valueNow();
      const started = performance.now();
      const response = await fetch(`${demo.sandbox.apiUrl}/v1/Usage`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({
          ReferenceCustomer: 'healthy',
          ReferenceFeature: 'api-calls',
          Increment: 1,
          DateStamp: new Date().toISOString(),
        }),
      });
      if (!response.ok) throw new Error(`POST /v1/Usage answered ${response.status}`);
      await page.waitForFunction(
        ([selector, value]) =>
          Number(
            document
              .querySelector(selector as string)
              ?.shadowRoot?.querySelector('[role="meter"]')
              ?.getAttribute('aria-valuenow'),
          ) > (value as number),
        ['usage-meter[feature="api-calls"]', before] as const,
        { timeout: 10_000, polling: 'raf' },
      );
      // The first change only makes sure the stream is open.
      if (change > 0) latencies.push(performance.now() - started);
    }
    return latencies;
  } finally {
    await browser.close();
    await demo.close();
  }
}

await main();
const page = [...(await pageLatencies())].sort((a, b) => a - b);
const pageP95 = percentile(page, 95);
console.log(
  `\npage      usage applied by the service → the open demo page's meter shows it (webhook, proxy, event stream, re-read, render; Chromium): ` +
    `p50 ${percentile(page, 50).toFixed(0)} ms, p95 ${pageP95.toFixed(0)} ms, max ${page.at(-1)?.toFixed(0)} ms over ${page.length} changes\n` +
    `target (p95 < ${PAGE_P95_TARGET_MS} ms): ${pageP95 < PAGE_P95_TARGET_MS ? 'met' : 'missed'}`,
);

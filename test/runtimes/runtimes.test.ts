// The proxy from the packed package, on every runtime the docs name: Node 20 (this machine's),
// the current Node LTS, Bun, Deno and Cloudflare Workers (workerd, through `wrangler dev`). The
// app in test/runtimes/app is installed once, outside the repository, beside the tarball; each
// runtime then runs the same scenario against the packed sandbox over loopback HTTP: usages, a
// price, a confirmed purchase sent 20 times at once under one key, 20 purchases under 4 keys at
// once, a notification the sandbox signs reaching an open event stream, and a forged one
// refused. On Workers the store and the bus are on Durable Objects, and the app runs in two
// isolates that share no memory (two Workers in one `wrangler dev`, the second behind /other):
// requests are spread over both, the store keeps the same contract as the memory and Redis
// stores (test/server/store-contract.ts), and a signal made on one isolate reaches a stream open
// on the other.
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type * as SandboxModule from '../../src/sandbox/index.js';
import type * as WorkerModule from '../../src/server/worker.js';
import type { IdempotencyStore } from '../../src/server/idempotency/store.js';
import type { RunningSandbox } from '../server/helpers.js';
import { ledgerOf, readEventBlocks, serviceCall } from '../server/helpers.js';
import { checkIdempotencyStoreContract } from '../server/store-contract.js';
import { waitFor } from '../time.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const devDependencies = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  }
).devDependencies;

/**
 * The current Node LTS, from the npm registry's `node` package (which brings its binary). It is
 * installed into the test app, not this repository: as a dev dependency its `node` command
 * would shadow this machine's Node in every npm script. Bun, Deno and wrangler are dev
 * dependencies.
 */
const NODE_LTS = '24.21.0';
const WEBHOOK_SECRET = 'runtimes-webhook-secret';
const WEBHOOK_KEY = 'wh_runtimes';
const CUSTOMER = 'healthy';

let work: string;
let app: string;
let sandbox: RunningSandbox;
let webhookSignature: (key: string, secret: string) => Promise<string>;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The settings the app reads (process.env, or the Worker's vars). */
function appConfig(): Record<string, string> {
  return {
    SANDBOX_URL: sandbox.apiUrl,
    AGENT_KEY: sandbox.agentKey,
    API_KEY: sandbox.apiKey,
    BUSINESS_ID: String(sandbox.businessId),
    SEGMENT: sandbox.segment,
    PORTAL_SECRET: sandbox.portalSecret,
    WEBHOOK_SECRET,
    WEBHOOK_KEY,
  };
}

interface Started {
  url: string;
  runtime: string;
  child: ChildProcess;
  output: () => string;
}

/**
 * Starts a runtime's process in the app; resolves once `ready` finds what it waits for in its
 * output (a JSON line from server.mjs, wrangler's "Ready on").
 */
function startProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  ready: (output: string) => { url: string; runtime: string } | undefined,
): Promise<Started> {
  const child = spawn(command, args, {
    cwd: app,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${command} did not start in 60 s:\n${output}`)),
      60_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = ready(output);
      if (found !== undefined) {
        clearTimeout(timer);
        resolve({ ...found, child, output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}:\n${output}`));
    });
  });
}

/** Stops a runtime's process and everything it started (wrangler runs workerd). */
async function stopProcess(started: Started | undefined): Promise<void> {
  const pid = started?.child.pid;
  if (pid === undefined || started?.child.exitCode !== null) return;
  const exited = new Promise((resolve) => started.child.once('exit', resolve));
  process.kill(-pid, 'SIGTERM');
  const timer = setTimeout(() => process.kill(-pid, 'SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

const serverLine = (output: string) => {
  const line = output.split('\n').find((text) => text.startsWith('{"url"'));
  return line === undefined ? undefined : (JSON.parse(line) as { url: string; runtime: string });
};

interface Runtime {
  name: string;
  /**
   * The app runs in two isolates that share no memory, the second behind /other (Workers): the
   * tests spread their requests over both, and the in-memory defaults draw a warning.
   */
  isolates?: boolean;
  /** What the runtime must report of itself (undefined: not checked). */
  expect: RegExp;
  start(): Promise<Started>;
}

const runtimes: Runtime[] = [
  {
    name: `Node ${process.versions.node} (this machine's)`,
    expect: new RegExp(`^node ${process.versions.node.replace(/\./g, '\\.')}$`),
    start: () => startProcess(process.execPath, ['server.mjs'], appConfig(), serverLine),
  },
  {
    name: `Node ${NODE_LTS} (LTS, npm package "node")`,
    expect: new RegExp(`^node ${NODE_LTS.replace(/\./g, '\\.')}$`),
    start: () =>
      startProcess(
        join(app, 'node_modules', '.bin', 'node'),
        ['server.mjs'],
        appConfig(),
        serverLine,
      ),
  },
  {
    name: `Bun ${devDependencies.bun}`,
    expect: new RegExp(`^bun ${String(devDependencies.bun).replace(/\./g, '\\.')}$`),
    start: () => startProcess(bin('bun'), ['server.mjs'], appConfig(), serverLine),
  },
  {
    name: `Deno ${devDependencies.deno}`,
    expect: new RegExp(`^deno ${String(devDependencies.deno).replace(/\./g, '\\.')}$`),
    start: () =>
      startProcess(
        bin('deno'),
        ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-sys', 'server.mjs'],
        { ...appConfig(), DENO_NO_UPDATE_CHECK: '1' },
        serverLine,
      ),
  },
  {
    name: `Cloudflare Workers (workerd, wrangler ${devDependencies.wrangler} dev)`,
    expect: /^workerd$/,
    isolates: true,
    async start() {
      const [port, inspectorPort] = [await freePort(), await freePort()];
      // Both Workers read their vars from .dev.vars beside their configuration.
      writeFileSync(
        join(app, '.dev.vars'),
        Object.entries(appConfig())
          .map(([name, value]) => `${name}=${JSON.stringify(value)}\n`)
          .join(''),
      );
      return startProcess(
        bin('wrangler'),
        [
          'dev',
          '--config',
          'wrangler.jsonc',
          '--config',
          'wrangler.other.jsonc',
          '--ip',
          '127.0.0.1',
          '--port',
          String(port),
          '--inspector-port',
          String(inspectorPort),
          '--show-interactive-dev-session=false',
        ],
        { WRANGLER_SEND_METRICS: 'false', CI: 'true' },
        (output) =>
          /Ready on http:\/\/127\.0\.0\.1:\d+/.test(output)
            ? { url: `http://127.0.0.1:${port}`, runtime: 'workerd' }
            : undefined,
      );
    },
  },
];

/** An answer's status, text and parsed body. */
async function answerOf(response: Response) {
  const text = await response.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const body: any = text === '' ? undefined : JSON.parse(text);
  return { status: response.status, text, body };
}

/**
 * A call to the proxy as the customer's page makes it (same origin, the session cookie), through
 * `isolate` (a path prefix: '' or '/other').
 */
async function page(base: string, path: string, body?: unknown, isolate = '') {
  const headers: Record<string, string> = { cookie: `session=${CUSTOMER}` };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers.origin = base;
  }
  const response = await fetch(`${base}${isolate}/billing${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    body: body === undefined ? null : JSON.stringify(body),
  });
  return answerOf(response);
}

async function control(method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = {
    authorization: `Basic ${btoa(`${sandbox.agentKey}:${sandbox.apiKey}`)}`,
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    headers,
    body: body === undefined ? null : JSON.stringify(body),
  });
  return answerOf(response);
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  // At least the shared generous timeout: a loaded machine is slow to start an isolate.
  await waitFor(check, what, Math.max(timeoutMs, 15_000));
}

describe('the packed proxy on every runtime', { timeout: 600_000 }, () => {
  before(async () => {
    // The tarball is made from dist/: build it unless it is already up to date.
    await run(process.execPath, [join(root, 'scripts/build.mjs'), '--quiet', '--if-needed'], {
      cwd: root,
      timeout: 300_000,
    });
    work = mkdtempSync(join(tmpdir(), 'billing-elements-runtimes-'));
    const { stdout } = await run(
      npm,
      ['pack', '--json', '--ignore-scripts', '--pack-destination', work],
      { cwd: root, timeout: 60_000 },
    );
    const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
    app = join(work, 'app');
    cpSync(join(root, 'test', 'runtimes', 'app'), app, { recursive: true });
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'runtimes-test-app', private: true, type: 'module' }),
    );
    // One install for every runtime: the package with the server's peers, as docs say (the
    // versions this repository pins), and the Node LTS binary from the registry.
    const { devDependencies: pinned } = JSON.parse(
      readFileSync(join(root, 'package.json'), 'utf8'),
    ) as { devDependencies: Record<string, string> };
    await run(
      npm,
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--no-package-lock',
        join(work, filename),
        `zod@${pinned.zod}`,
        `node@${NODE_LTS}`,
      ],
      { cwd: app, timeout: 240_000 },
    );
    // The sandbox from the packed package too, in this process, on loopback.
    const packedSandbox = (await import(
      join(app, 'node_modules', 'billing-elements', 'dist', 'sandbox', 'index.js')
    )) as typeof SandboxModule;
    sandbox = await packedSandbox.startSandbox({
      log: () => {},
      webhookDelivery: { initialDelayMs: 50, maxAttempts: 3, timeoutMs: 2_000 },
    });
    const packedServer = (await import(
      join(app, 'node_modules', 'billing-elements', 'dist', 'server', 'worker.js')
    )) as typeof WorkerModule;
    webhookSignature = packedServer.webhookSignature;
  });

  after(async () => {
    await sandbox?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('bundles a Worker with its Durable Objects, without undici, node:http or the Node adapter', async () => {
    const out = join(work, 'worker-bundle');
    await run(bin('wrangler'), ['deploy', '--dry-run', '--minify', '--outdir', out], {
      cwd: app,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' },
      timeout: 120_000,
    });
    const file = join(out, 'worker.js');
    const code = readFileSync(file, 'utf8');
    const size = statSync(file).size;
    console.log(
      `Worker bundle, the proxy with its Durable Object store and bus (wrangler deploy --dry-run --minify): ${(size / 1024).toFixed(1)} KiB, ` +
        `${(gzipSync(code, { level: 9 }).byteLength / 1024).toFixed(1)} KiB gzip`,
    );
    assert.match(code, /export\s*\{[^}]*\bBillingIdempotencyObject\b/, 'the store’s class');
    assert.match(code, /export\s*\{[^}]*\bBillingSignalsObject\b/, 'the bus’s class');
    assert.doesNotMatch(code, /undici/i, 'no undici');
    assert.doesNotMatch(code, /(?:from|import\(|require\()\s*["']node:/, 'no Node module');
    // The Node adapter reads node:http's rawHeaders; no other part of the proxy does.
    assert.doesNotMatch(code, /\brawHeaders\b|@hono\/node-server/, 'no Node adapter');
    assert.ok(size < 256 * 1024, `the bundle is ${size} bytes`);
  });

  for (const runtime of runtimes) {
    describe(runtime.name, () => {
      let started: Started | undefined;
      let targetId: string | undefined;
      /** Where the app answers: one isolate (''), or two ('' and '/other'). */
      const isolates = runtime.isolates ? ['', '/other'] : [''];
      /** The isolate of the i-th request of a burst: each in turn. */
      const isolateOf = (index: number) => isolates[index % isolates.length];

      before(async () => {
        // Each runtime starts from the fixtures.
        assert.equal((await control('POST', '/reset')).status, 200);
        const starting = Date.now();
        started = await runtime.start();
        console.log(`${runtime.name}: started in ${Date.now() - starting} ms`);
        assert.match(started.runtime, runtime.expect);
        const target = await control('POST', '/webhooks', {
          url: `${started.url}/billing/webhooks`,
          secret: WEBHOOK_SECRET,
          key: WEBHOOK_KEY,
        });
        assert.equal(target.status, 201, target.text);
        targetId = String(target.body.id);
      });

      after(async () => {
        if (targetId !== undefined) await control('DELETE', `/webhooks/${targetId}`);
        await stopProcess(started);
      });

      it('reads the customer’s usages', async () => {
        const { status, body, text } = await page(started!.url, '/usages');
        assert.equal(status, 200, text);
        const seats = (
          body.usages as { ReferenceFeature: string; ReferenceCustomer: string }[]
        ).find((usage) => usage.ReferenceFeature === 'seats');
        assert.equal(seats?.ReferenceCustomer, CUSTOMER);
      });

      it('prices a change', async () => {
        const { status, body, text } = await page(started!.url, '/pricing', {
          feature: 'seats',
          increment: 3,
        });
        assert.equal(status, 200, text);
        assert.equal(body.ReferenceFeature, 'seats');
        assert.equal(body.QuantityAfter, body.QuantityCurrent + 3);
        assert.ok(body.AmountTotal > 0, text);
        assert.equal(body.confirmationRequired, true);
      });

      it('applies a confirmed purchase once under 20 concurrent duplicates', async () => {
        const quote = await page(started!.url, '/pricing', { feature: 'seats', increment: 3 });
        const before = await ledgerOf(sandbox, CUSTOMER);
        const purchase = {
          feature: 'seats',
          increment: 3,
          idempotencyKey: 'runtimes-duplicates-0001',
          confirmedAmountTotal: quote.body.AmountTotal,
        };
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, index) =>
            page(started!.url, '/usage', purchase, isolateOf(index)),
          ),
        );
        assert.deepEqual(
          answers.map((answer) => answer.status),
          Array.from({ length: 20 }, () => 200),
          answers.find((answer) => answer.status !== 200)?.text,
        );
        assert.ok(
          answers.every((answer) => answer.body.usage.QuantityCurrent === before.quantity + 3),
        );
        const afterwards = await ledgerOf(sandbox, CUSTOMER);
        assert.equal(afterwards.count - before.count, 1, 'one apply');
        assert.equal(afterwards.invoices - before.invoices, 1, 'one invoice');
        assert.equal(afterwards.quantity, before.quantity + 3);
      });

      it('applies 20 concurrent purchases under 4 keys once per key', async () => {
        const before = await ledgerOf(sandbox, CUSTOMER, 'projects');
        const keys = Array.from({ length: 4 }, (_, index) => `runtimes-keys-000${index}`);
        // Projects are free: each key is priced 0 whatever the others did first.
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, index) =>
            page(
              started!.url,
              '/usage',
              {
                feature: 'projects',
                increment: 1,
                idempotencyKey: keys[index % keys.length],
                confirmedAmountTotal: 0,
              },
              isolateOf(Math.floor(index / keys.length)),
            ),
          ),
        );
        assert.deepEqual(
          answers.map((answer) => answer.status),
          Array.from({ length: 20 }, () => 200),
          answers.find((answer) => answer.status !== 200)?.text,
        );
        assert.equal(answers.filter((answer) => !answer.body.replayed).length, keys.length);
        // The duplicates of a key share its answer: one quantity per key, each a step higher.
        const quantities = keys.map(
          (_, key) =>
            new Set(
              answers
                .filter((__, index) => index % keys.length === key)
                .map((answer) => answer.body.usage.QuantityCurrent as number),
            ),
        );
        assert.ok(
          quantities.every((set) => set.size === 1),
          'duplicates share their key’s answer',
        );
        assert.deepEqual(
          quantities.map((set) => [...set][0]).sort((a, b) => a! - b!),
          keys.map((_, index) => before.quantity + index + 1),
        );
        const afterwards = await ledgerOf(sandbox, CUSTOMER, 'projects');
        assert.equal(afterwards.count - before.count, keys.length, 'one apply per key');
        assert.equal(afterwards.quantity, before.quantity + keys.length);
      });

      it('passes a notification the service signs on to the customer’s open event stream', async () => {
        const controller = new AbortController();
        // On two isolates: the stream on the one the service's notification does not reach.
        const response = await fetch(`${started!.url}${isolates.at(-1)}/billing/events`, {
          headers: { cookie: `session=${CUSTOMER}`, accept: 'text/event-stream' },
          signal: controller.signal,
        });
        try {
          assert.equal(response.status, 200);
          assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
          const blocks: string[] = [];
          readEventBlocks(response.body!.getReader(), (block) => void blocks.push(block));
          await until(
            () => blocks.some((block) => block.startsWith('retry:')),
            5_000,
            'no opening',
          );
          // The host's back end reports usage on the service directly: the service notifies.
          const applied = await serviceCall(sandbox, 'POST', '/v1/Usage', {
            ReferenceCustomer: CUSTOMER,
            ReferenceFeature: 'seats',
            Increment: 1,
            DateStamp: new Date().toISOString(),
          });
          assert.equal(applied.status, 200);
          await until(
            () => blocks.some((block) => /^event: billing-changed$/m.test(block)),
            5_000,
            'no billing-changed event',
          );
        } finally {
          controller.abort();
        }
      });

      it('starts without a warning about the runtime', () => {
        const warnings = started!.output().match(/\[billing-proxy\] runtime-limit: .*/g) ?? [];
        assert.deepEqual(warnings, []);
      });

      if (runtime.isolates) {
        it('warns at start that the in-memory defaults hold within one isolate', async () => {
          // The app's second proxy, under /plain, has no store or bus of its own.
          const { status, text } = await answerOf(
            await fetch(`${started!.url}/plain/usages`, {
              headers: { cookie: `session=${CUSTOMER}` },
            }),
          );
          assert.equal(status, 200, text);
          const warnings = () =>
            started!.output().match(/\[billing-proxy\] runtime-limit: .*/g) ?? [];
          await until(() => warnings().length >= 2, 5_000, 'no warnings');
          assert.equal(warnings().length, 2, started!.output());
          assert.match(warnings()[0] ?? '', /idempotency store .*Durable Objects/);
          assert.match(warnings()[1] ?? '', /signal bus .*Durable Objects/);
        });

        it('keeps the idempotency store contract on Durable Objects, across isolates', async () => {
          let calls = 0;
          const call = async <T>(op: keyof IdempotencyStore, args: unknown[]): Promise<T> => {
            const response = await fetch(
              `${started!.url}${isolateOf(calls++)}/test/idempotency-store`,
              { method: 'POST', body: JSON.stringify({ op, args }) },
            );
            const { status, body, text } = await answerOf(response);
            assert.equal(status, 200, text);
            return body.result as T;
          };
          await checkIdempotencyStoreContract({
            get: (key) => call('get', [key]),
            setIfAbsent: (key, value, ttlMs) => call('setIfAbsent', [key, value, ttlMs]),
            compareAndSet: (key, expected, value, ttlMs) =>
              call('compareAndSet', [key, expected, value, ttlMs]),
            compareAndDelete: (key, expected) => call('compareAndDelete', [key, expected]),
          });
        });

        it('signals a purchase applied on one isolate to a stream open on the other', async () => {
          const controller = new AbortController();
          const response = await fetch(`${started!.url}/other/billing/events`, {
            headers: { cookie: `session=${CUSTOMER}`, accept: 'text/event-stream' },
            signal: controller.signal,
          });
          try {
            assert.equal(response.status, 200);
            const blocks: string[] = [];
            readEventBlocks(response.body!.getReader(), (block) => void blocks.push(block));
            await until(
              () => blocks.some((block) => block.startsWith('retry:')),
              5_000,
              'no opening',
            );
            const bought = await page(started!.url, '/usage', {
              feature: 'projects',
              increment: 1,
              idempotencyKey: 'runtimes-signal-0001',
              confirmedAmountTotal: 0,
            });
            assert.equal(bought.status, 200, bought.text);
            await until(
              () => blocks.some((block) => /^event: billing-changed$/m.test(block)),
              5_000,
              'no billing-changed event',
            );
          } finally {
            controller.abort();
          }
        });

        it('tells a page that resumes on another isolate the signal it missed', async () => {
          // A customer the second isolate has never followed: only its object knows its signals.
          const customer = 'runtimes-resume';
          const open = async (isolate: string, lastEventId?: string) => {
            const controller = new AbortController();
            const response = await fetch(`${started!.url}${isolate}/billing/events`, {
              headers: {
                cookie: `session=${customer}`,
                accept: 'text/event-stream',
                ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
              },
              signal: controller.signal,
            });
            assert.equal(response.status, 200);
            const blocks: string[] = [];
            readEventBlocks(response.body!.getReader(), (block) => void blocks.push(block));
            await until(() => blocks.length > 0, 5_000, 'no opening');
            const told = () => blocks.find((block) => /^event: billing-changed$/m.test(block));
            return { told, close: () => controller.abort() };
          };
          /** The service's notification of a usage change of the customer, to the first isolate. */
          const notify = async (id: string) => {
            const notified = await fetch(`${started!.url}/billing/webhooks`, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                'x-service-key': WEBHOOK_KEY,
                'x-service-signature': await webhookSignature(WEBHOOK_KEY, WEBHOOK_SECRET),
              },
              body: JSON.stringify({
                Id: id,
                TypeTrigger: 'UsageChanged',
                Customer: { ReferenceCustomer: customer },
              }),
            });
            assert.equal(notified.status, 200);
          };
          // The notification reaches the first isolate, whose page hears it live.
          const live = await open('');
          await notify('runtimes-resume-1');
          await until(() => live.told() !== undefined, 5_000, 'no live billing-changed event');
          live.close();
          const id = /^id: (.+)$/m.exec(live.told()!)?.[1];
          assert.ok(id !== undefined);
          // Back on the second isolate with an older id: told at once; with that id: not.
          const behind = await open('/other', '000000000000001-000000');
          const current = await open('/other', id);
          try {
            await until(() => behind.told() !== undefined, 5_000, 'no catch-up event');
            assert.match(behind.told()!, new RegExp(`^id: ${id}$`, 'm'));
            // A later signal, which every stream of the customer hears: its object sends what a
            // stream missed before anything newer, so the first event the up-to-date page hears
            // is this one, never a repeat of the signal it has.
            await notify('runtimes-resume-2');
            await until(() => current.told() !== undefined, 5_000, 'no later event');
            assert.doesNotMatch(
              current.told()!,
              new RegExp(`^id: ${id}$`, 'm'),
              'nothing for a page that is up to date',
            );
          } finally {
            behind.close();
            current.close();
          }
        });
      }

      it('refuses a forged notification', async () => {
        const response = await fetch(`${started!.url}/billing/webhooks`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-service-key': WEBHOOK_KEY,
            'x-service-signature': await webhookSignature(WEBHOOK_KEY, 'not-the-secret'),
          },
          body: JSON.stringify({
            Id: 'forged-1',
            TypeTrigger: 'UsageChanged',
            Customer: { ReferenceCustomer: CUSTOMER },
          }),
        });
        assert.equal(response.status, 403);
        assert.equal(((await response.json()) as { code: string }).code, 'invalid-signature');
      });
    });
  }
});

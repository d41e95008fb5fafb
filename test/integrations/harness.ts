// The integration tests' set-up: an app of examples/ copied outside the repository, the packed
// package installed into it with npm (as a user installs it), the sandbox started from that
// installed package, the app's own processes started, and Debian's Chromium driving its page.
// Nothing here resolves the repository's own sources or node_modules from inside the app.
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before } from 'node:test';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { pageQuiet, unansweredRequests } from '../page-requests.js';
import { waitFor } from '../time.js';
import { CHROME_FLAGS, findChrome } from '../../scripts/prereqs.mjs';

const execFileAsync = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The packed package: made once by the `integrations` stage, or here for a file run alone. */
async function tarball(): Promise<string> {
  const given = process.env.BILLING_TARBALL;
  if (given) return given;
  await execFileAsync(
    process.execPath,
    [join(ROOT, 'scripts/build.mjs'), '--quiet', '--if-needed'],
    {
      cwd: ROOT,
      timeout: 180_000,
    },
  );
  const dir = mkdtempSync(join(tmpdir(), 'billing-pack-'));
  const { stdout } = await execFileAsync(
    npm,
    ['pack', '--json', '--ignore-scripts', '--pack-destination', dir],
    { cwd: ROOT, timeout: 60_000 },
  );
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  process.env.BILLING_TARBALL = join(dir, packed!.filename);
  return process.env.BILLING_TARBALL;
}

export interface InstalledApp {
  /** The app's folder, outside the repository. */
  dir: string;
  /** Runs a command of the app (npx-like: its node_modules/.bin first); resolves its output. */
  exec(command: string, args: string[], env?: Record<string, string>): Promise<string>;
  remove(): void;
}

/** Environment without the variables that would make the app find the repository's modules. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(BILLING_|NODE_PATH$|NODE_OPTIONS$|npm_|INIT_CWD$|TSX_)/.test(name)) delete env[name];
  }
  return { ...env, NEXT_TELEMETRY_DISABLED: '1', ...extra };
}

/**
 * examples/<name> copied to a temporary folder, with the packed package installed by npm in
 * place of the registry's `billing-elements` (its package.json names the version a user would).
 */
export async function installExample(name: string): Promise<InstalledApp> {
  const packed = await tarball();
  const dir = join(mkdtempSync(join(tmpdir(), `billing-example-${name}-`)), name);
  cpSync(join(ROOT, 'examples', name), dir, {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|dist|\.next)$/.test(source),
  });
  await execFileAsync(
    npm,
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-exact', packed],
    { cwd: dir, env: cleanEnv(), timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
  );
  const installed = JSON.parse(
    readFileSync(join(dir, 'node_modules/billing-elements/package.json'), 'utf8'),
  ) as { version: string };
  assert.ok(installed.version, 'the packed package is installed');
  return {
    dir,
    async exec(command, args, env = {}) {
      try {
        const { stdout, stderr } = await execFileAsync(command, args, {
          cwd: dir,
          env: cleanEnv({ PATH: `${join(dir, 'node_modules/.bin')}:${process.env.PATH}`, ...env }),
          timeout: 300_000,
          maxBuffer: 16 * 1024 * 1024,
        });
        return stdout + stderr;
      } catch (error) {
        const failed = error as { stdout?: string; stderr?: string; message: string };
        throw new Error(
          `${command} ${args.join(' ')} failed in ${name}:\n${failed.stdout ?? ''}${failed.stderr ?? failed.message}`,
          { cause: error },
        );
      }
    },
    remove() {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    },
  };
}

/** What the examples read from their environment, pointing at a running sandbox. */
export interface Sandbox {
  url: string;
  apiUrl: string;
  agentKey: string;
  apiKey: string;
  businessId: number;
  segment: string;
  portalScriptUrl: string;
  portalSecret: string;
  close(): Promise<void>;
}

/** The sandbox of the installed package (`billing-elements/sandbox`), on a free port. */
export async function startSandboxOf(app: InstalledApp): Promise<Sandbox> {
  const entry = join(app.dir, 'node_modules/billing-elements/dist/sandbox/index.js');
  assert.ok(existsSync(entry), 'billing-elements/sandbox is installed');
  const { startSandbox } = (await import(pathToFileURL(entry).href)) as {
    startSandbox(options: { port: number; host: string }): Promise<Sandbox>;
  };
  return startSandbox({ port: 0, host: '127.0.0.1' });
}

/** The BILLING_* variables every example reads (see docs/frameworks.md). */
export function billingEnv(sandbox: Sandbox): Record<string, string> {
  return {
    BILLING_API_URL: sandbox.apiUrl,
    BILLING_AGENT_KEY: sandbox.agentKey,
    BILLING_API_KEY: sandbox.apiKey,
    BILLING_BUSINESS_ID: String(sandbox.businessId),
    BILLING_SEGMENT: sandbox.segment,
    BILLING_PORTAL_SCRIPT_URL: sandbox.portalScriptUrl,
    BILLING_PORTAL_SECRET: sandbox.portalSecret,
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface RunningProcess {
  output(): string;
  stop(): Promise<void>;
}

/**
 * A long-running command of the app (its server, `vite`, `next start`), in its own process
 * group so that stop() ends it and its children; resolves once `readyUrl` answers.
 */
export async function startProcess(
  app: InstalledApp,
  command: string,
  args: string[],
  options: {
    env?: Record<string, string>;
    readyUrl: string;
    timeoutMs?: number;
    /** Ready once it answers at all, a 500 included (a server that starts broken). */
    anyStatus?: boolean;
  },
): Promise<RunningProcess> {
  let output = '';
  const child: ChildProcess = spawn(command, args, {
    cwd: app.dir,
    env: cleanEnv({
      PATH: `${join(app.dir, 'node_modules/.bin')}:${process.env.PATH}`,
      ...options.env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const stop = async () => {
    if (!exited && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      // Its exit, or 5 s at most before it is killed.
      const patience = AbortSignal.timeout(5_000);
      await Promise.race([
        exit,
        new Promise((resolve) => patience.addEventListener('abort', resolve, { once: true })),
      ]);
      if (!exited) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  };
  const ready = await waitFor(
    async () => {
      if (exited) return 'exited';
      try {
        const response = await fetch(options.readyUrl);
        await response.body?.cancel();
        return response.status < 500 || options.anyStatus ? 'ready' : undefined;
      } catch {
        return undefined; // not listening yet
      }
    },
    `${options.readyUrl} to answer`,
    options.timeoutMs ?? 60_000,
  ).catch(() => 'late' as const);
  if (ready === 'exited')
    throw new Error(`${command} ${args.join(' ')} exited before it served:\n${output}`);
  if (ready === 'late') {
    await stop();
    throw new Error(`${options.readyUrl} did not answer in time:\n${output}`);
  }
  return { output: () => output, stop };
}

/** What a test file of one example works with, set once its `before` hook ran. */
export interface ExampleRun {
  app: InstalledApp;
  sandbox: Sandbox;
  browser: Browser;
}

/**
 * For one test file: the example `name` installed from the packed package, the sandbox of that
 * package, Chromium, and `servers` the file starts once (stopped first, at the end).
 */
export function useExample(
  name: string,
  servers?: (run: ExampleRun) => Promise<RunningProcess[]>,
): ExampleRun {
  const run = {} as ExampleRun;
  const started: RunningProcess[] = [];
  before(async () => {
    run.app = await installExample(name);
    run.sandbox = await startSandboxOf(run.app);
    run.browser = await launchBrowser();
    if (servers) started.push(...(await servers(run)));
  });
  after(async () => {
    for (const server of started) await server.stop();
    await run.browser?.close();
    await run.sandbox?.close();
    run.app?.remove();
  });
  return run;
}

/**
 * `node server.js` of the example on a free port (`PORT`), with the billing variables; `check`
 * runs on its page's URL (by default: proveBilling), then the server stops.
 */
export async function withServer(
  run: ExampleRun,
  check: (url: string) => Promise<void> = (url) => proveBilling(run.browser, run.sandbox, url),
): Promise<void> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const server = await startProcess(run.app, 'node', ['server.js'], {
    env: { ...billingEnv(run.sandbox), PORT: String(port) },
    readyUrl: url,
  });
  try {
    await check(url);
  } finally {
    await server.stop();
  }
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: findChrome(), args: [...CHROME_FLAGS] });
}

/** Every error the page's console shows (console.error, uncaught exceptions, CSP reports...). */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') {
      const { url } = message.location();
      errors.push(url ? `${message.text()} (${url})` : message.text());
    }
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

interface SandboxCustomer {
  subscriptions: { Features?: { ReferenceFeature: string; QuantityCurrent?: number }[] }[];
  invoices: { AmountTotal: number }[];
  usageLog: { feature: string; increment: number }[];
}

/** A call to the sandbox's control API (same credentials as its API). */
async function control(sandbox: Sandbox, method: string, path: string): Promise<unknown> {
  const response = await fetch(`${sandbox.url}/_sandbox/${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${sandbox.agentKey}:${sandbox.apiKey}`).toString('base64')}`,
    },
  });
  assert.ok(response.ok, `${method} /_sandbox/${path}: ${response.status}`);
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

function customer(sandbox: Sandbox, reference: string): Promise<SandboxCustomer> {
  return control(sandbox, 'GET', `customers/${reference}`) as Promise<SandboxCustomer>;
}

function seatsOf(state: SandboxCustomer): number | undefined {
  for (const subscription of state.subscriptions) {
    const seats = subscription.Features?.find((feature) => feature.ReferenceFeature === 'seats');
    if (seats) return seats.QuantityCurrent;
  }
  return undefined;
}

/** The page's requests that failed (no answer) or were answered with an error status. */
function refusedRequests(page: Page): string[] {
  const lines: string[] = [];
  page.on('requestfailed', (request) =>
    lines.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText ?? 'failed'}`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400)
      lines.push(`${response.request().method()} ${response.url()}: ${response.status()}`);
  });
  return lines;
}

/** A price with a charge (not $0.00). */
const CHARGED = /\$(?!0\.00)\d[\d,]*\.\d\d/;

/**
 * What every app must show on `url`, signed in as the sandbox's `healthy` customer (3 of 5
 * seats): the meter's figures; three more seats priced, confirmed in the element's dialog and
 * applied once (one invoice, one usage change); the embedded portal's home page; and no error
 * in the page's console.
 */
export async function proveBilling(
  browser: Browser,
  sandbox: Sandbox,
  url: string,
  options: {
    before?: (page: Page) => Promise<void>;
    /** The server's output so far, printed when a step fails. */
    serverOutput?: () => string;
  } = {},
): Promise<void> {
  // Back to the fixtures: each path of an app starts from the same customer.
  await control(sandbox, 'POST', 'reset');
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = watchConsole(page);
  const unanswered = unansweredRequests(page);
  const refused = refusedRequests(page);
  try {
    await options.before?.(page);
    await page.goto(url);
    const meter = page.locator('usage-meter[feature="seats"]');
    await meter.locator('[part~="value"]').filter({ hasText: /^3$/ }).waitFor();
    await meter.locator('[part~="total"]').filter({ hasText: /^5$/ }).waitFor();

    const before = await customer(sandbox, 'healthy');
    assert.equal(seatsOf(before), 3);
    const buy = page.locator('buy-feature[feature="seats"]');
    await buy.getByRole('spinbutton').fill('3');
    await buy.locator('[part~="price-now"]').filter({ hasText: CHARGED }).waitFor();
    await buy.getByRole('button', { name: 'Buy' }).click();
    const confirm = buy.locator('[part~="confirm"]');
    await confirm.waitFor();
    await buy.getByRole('dialog').getByText('Confirm your purchase').waitFor();
    assert.equal(seatsOf(await customer(sandbox, 'healthy')), 3, 'nothing applied before Confirm');
    await confirm.click();
    await buy.getByText('Done. You now have 6 seats.').waitFor();
    await meter.locator('[part~="value"]').filter({ hasText: /^6$/ }).waitFor();
    const after = await customer(sandbox, 'healthy');
    assert.equal(seatsOf(after), 6);
    assert.equal(after.invoices.length, before.invoices.length + 1, 'one invoice');
    assert.deepEqual(
      after.usageLog.filter((entry) => entry.feature === 'seats').map((entry) => entry.increment),
      [3],
      'applied once',
    );

    await page
      .frameLocator('billing-portal iframe:visible')
      .getByRole('heading', { level: 1, name: 'Your subscription' })
      .waitFor();
    // Late errors (a stream refused, a failed read, a hydration warning) have been printed
    // once the page has nothing left in flight.
    await pageQuiet(page, unanswered);
    assert.deepEqual(errors, [], "errors in the page's console");
  } catch (error) {
    await page
      .screenshot({ path: join(ROOT, 'test-results', `integration-failed-${Date.now()}.png`) })
      .catch(() => undefined);
    // What the page met on the way (a refused preflight, a 5xx, a dropped connection) and what
    // the server printed: a step that failed on another machine names its cause.
    console.error(
      [
        `proveBilling(${url}) failed; the page's console errors:`,
        ...errors.map((line) => `  ${line}`),
        'requests that failed or were refused:',
        ...refused.map((line) => `  ${line}`),
        ...(options.serverOutput
          ? ['the server printed:', options.serverOutput().slice(-4000)]
          : []),
      ].join('\n'),
    );
    throw error;
  } finally {
    await context.close();
  }
}

// The parts of the fault tests: the sandbox and the proxy in processes of their own, a browser-like
// purchase over HTTP, and what the sandbox applied and invoiced per customer.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { basicAuth } from '../sandbox/helpers.js';
import { waitFor } from '../time.js';

const root = new URL('../..', import.meta.url).pathname;

export interface SandboxInfo {
  url: string;
  apiUrl: string;
  agentKey: string;
  apiKey: string;
  businessId: number;
  segment: string;
  portalScriptUrl: string;
  portalSecret: string;
}

/** A TypeScript script of this folder in a Node process of its own; its stdout, line by line. */
/** Every process this file started that has not exited yet (see killLeftovers). */
const alive = new Set<ChildProcess>();

/**
 * Kills every process the harness started that still runs: a test that failed half-way leaves
 * some (a standby proxy, say), whose open pipes would keep the test file from ever exiting.
 */
export function killLeftovers(): void {
  for (const child of alive) child.kill('SIGKILL');
}

function spawnScript(script: string, env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', new URL(script, import.meta.url).pathname],
    {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  alive.add(child);
  child.once('exit', () => alive.delete(child));
  const lines: string[] = [];
  const waiting = new Set<() => void>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const wake of [...waiting]) wake();
  });
  /** The first line matching `pattern` (already printed or to come), within `timeoutMs`. */
  function line(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const look = () => {
        for (const candidate of lines) {
          const match = pattern.exec(candidate);
          if (match !== null) {
            done();
            resolve(match);
            return true;
          }
        }
        return false;
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${script}: no line matching ${pattern} in ${timeoutMs} ms`));
      }, timeoutMs);
      const exited = () => {
        if (look()) return;
        done();
        reject(new Error(`${script} exited before printing ${pattern}`));
      };
      const done = () => {
        clearTimeout(timer);
        waiting.delete(wake);
        child.off('exit', exited);
      };
      const wake = () => void look();
      if (look()) return;
      waiting.add(wake);
      child.once('exit', exited);
    });
  }
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, lines, line, exit };
}

export interface RunningSandboxProcess extends SandboxInfo {
  stop(): Promise<void>;
}

/** The sandbox in its own process, with `customers` (`prefix:count,...`) added to its fixture. */
export async function startSandboxProcess(customers: string): Promise<RunningSandboxProcess> {
  const running = spawnScript('./sandbox-process.ts', { FAULT_CUSTOMERS: customers });
  const [json] = await running.line(/^\{.*\}$/);
  const info = JSON.parse(json) as SandboxInfo;
  return {
    ...info,
    async stop() {
      if (running.child.exitCode === null && running.child.signalCode === null) {
        running.child.kill('SIGTERM');
        await running.exit;
      }
    },
  };
}

export type ProxyProcess = ReturnType<typeof spawnScript> & { url: string; pid: number };

/** The proxy in its own process (see proxy-process.ts for the FAULT_* settings). */
export async function startProxyProcess(
  sandbox: SandboxInfo,
  env: Record<string, string>,
): Promise<ProxyProcess> {
  const running = spawnScript('./proxy-process.ts', {
    FAULT_SANDBOX: JSON.stringify(sandbox),
    ...env,
  });
  const [, port] = await running.line(/^listening (\d+)$/);
  return { ...running, url: `http://127.0.0.1:${port}`, pid: running.child.pid ?? 0 };
}

/** One answer of the proxy to a purchase, or `no-answer` when the connection failed. */
export interface Answer {
  status: number | 'no-answer';
  code?: string;
  replayed?: boolean;
  retryAfter?: string | null;
}

export type Verdict = 'applied' | 'refused' | 'unknown' | 'retry';

/** What an answer tells the customer: applied, refused, unknown, or nothing yet (retry). */
export function verdictOf(answer: Answer): Verdict {
  if (answer.status === 200) return 'applied';
  if (answer.status === 502 && answer.code === 'upstream-error') return 'unknown';
  if (typeof answer.status === 'number' && answer.status >= 400 && answer.status < 500)
    return 'refused';
  // 503 (store, service, shutting down), 504 (still being processed), a cut connection.
  return 'retry';
}

/** A purchase of one seat as the page sends it: same-origin, signed in as `customer`. */
export async function purchase(
  proxyUrl: string,
  customer: string,
  idempotencyKey: string,
  confirmedAmountTotal: number,
  timeoutMs = 45_000,
): Promise<Answer> {
  try {
    const response = await fetch(`${proxyUrl}/billing/usage`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `session=${customer}`,
        origin: proxyUrl,
      },
      body: JSON.stringify({
        feature: 'seats',
        increment: 1,
        idempotencyKey,
        confirmedAmountTotal,
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await response.json()) as { code?: string; replayed?: boolean };
    return {
      status: response.status,
      ...(body.code === undefined ? {} : { code: body.code }),
      ...(body.replayed === undefined ? {} : { replayed: body.replayed }),
      retryAfter: response.headers.get('retry-after'),
    };
  } catch {
    return { status: 'no-answer' };
  }
}

/** The price of one more seat for `customer`, read through the proxy. */
export async function priceOfOneSeat(proxyUrl: string, customer: string): Promise<number> {
  const response = await fetch(`${proxyUrl}/billing/pricing`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: `session=${customer}`,
      origin: proxyUrl,
    },
    body: JSON.stringify({ feature: 'seats', increment: 1 }),
  });
  const body = (await response.json()) as { AmountTotal?: number };
  if (response.status !== 200 || typeof body.AmountTotal !== 'number')
    throw new Error(`pricing for ${customer}: ${response.status} ${JSON.stringify(body)}`);
  return body.AmountTotal;
}

/** A call to the sandbox's control API with the business's credentials. */
export async function sandboxControl(
  sandbox: SandboxInfo,
  method: string,
  path: string,
  body?: unknown,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read loosely in tests
): Promise<any> {
  const response = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    headers: {
      authorization: basicAuth(sandbox.agentKey, sandbox.apiKey),
      'content-type': 'application/json',
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`control ${method} ${path}: ${response.status}`);
  return response.json();
}

/** Per customer: usage changes the sandbox applied, invoices they issued, the seats now. */
export async function ledger(
  sandbox: SandboxInfo,
  customers: readonly string[],
): Promise<Map<string, { applies: number; invoices: number; seats: number }>> {
  const stats = await sandboxControl(sandbox, 'GET', '/stats');
  const result = new Map<string, { applies: number; invoices: number; seats: number }>();
  for (const customer of customers) {
    const state = await sandboxControl(sandbox, 'GET', `/customers/${customer}`);
    const seats = state.subscriptions[0].Features.find(
      (feature: { ReferenceFeature: string }) => feature.ReferenceFeature === 'seats',
    ).QuantityCurrent as number;
    result.set(customer, {
      applies: stats.appliedUsageChangesByCustomer[customer] ?? 0,
      invoices: state.usageLog.filter(
        (entry: { invoiceId: number | null }) => entry.invoiceId !== null,
      ).length,
      seats,
    });
  }
  return result;
}

/** Waits for a child process to end (it may have ended already). */
export async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await once(child, 'exit');
}

/** A small seeded generator (mulberry32), so that a run's kill points can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Resolves once the proxy processes remember none of these purchases as refused: their records
 * under `prefix` in the Redis at `redisPort` are gone or in another state, the refusals' time
 * to live (limits.failedPurchaseTtlMs) run out. A retry with the same key is then a new
 * attempt, not a replay of the refusal.
 */
export async function refusalsForgotten(
  redisPort: number,
  prefix: string,
  purchases: { customer: string; idempotencyKey: string }[],
): Promise<void> {
  if (purchases.length === 0) return;
  const keys = purchases.map(
    ({ customer, idempotencyKey }) =>
      `${prefix}purchase:${encodeURIComponent(customer)}:${idempotencyKey}`,
  );
  const client = new Redis({ host: '127.0.0.1', port: redisPort, maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  try {
    await waitFor(async () => {
      const records = await client.mget(...keys);
      return records.every(
        (record) =>
          record === null || (JSON.parse(record) as { state?: string }).state !== 'failed',
      );
    }, 'the refused purchases to be forgotten');
  } finally {
    client.disconnect();
  }
}

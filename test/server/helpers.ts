// Shared set-up of the proxy tests: a real sandbox over HTTP, the real proxy in front of it,
// and a counting (never answering) fetch wrapper to see what reaches the upstream.
import { once } from 'node:events';
import assert from 'node:assert/strict';
import { after, before, beforeEach } from 'node:test';
import { request as httpRequest, type ClientRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox } from '../../src/sandbox/index.js';
import {
  createBillingProxy,
  type BillingProxy,
  type BillingProxyOptions,
  type BillingSignal,
  type ProxyLogEntry,
  type SignalBus,
} from '../../src/server/index.js';
import { basicAuth } from '../sandbox/helpers.js';

export type RunningSandbox = Awaited<ReturnType<typeof startSandbox>>;

export const APP_ORIGIN = 'http://app.test';

/** Counts the proxy's upstream calls per "METHOD /path" (query left out). */
export function countingFetch() {
  const calls: Record<string, number> = {};
  let total = 0;
  const wrapped: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    calls[key] = (calls[key] ?? 0) + 1;
    total += 1;
    return fetch(input, init);
  };
  return {
    fetch: wrapped,
    calls,
    get total() {
      return total;
    },
  };
}

/** The host app's session in these tests: a cookie `session=<customer reference>`. */
export async function identifyFromCookie(request: Request) {
  const match = /(?:^|;\s*)session=([^;]+)/.exec(request.headers.get('cookie') ?? '');
  if (match?.[1] === undefined) return null;
  const reference = decodeURIComponent(match[1]);
  return { reference, name: `User ${reference}`, email: `${reference}@example.test` };
}

export function proxyOptions(
  sandbox: RunningSandbox,
  overrides: Partial<BillingProxyOptions> = {},
): BillingProxyOptions {
  const { apiUrl, agentKey, apiKey, businessId, segment, portalScriptUrl, portalSecret } = sandbox;
  return {
    baseUrl: apiUrl,
    ...{ agentKey, apiKey, businessId, segment, portalScriptUrl, portalSecret },
    identify: identifyFromCookie,
    basePath: '/billing',
    allowedOrigins: ['https://nocode.example'],
    limits: { rateLimit: false },
    // Tests that look at the log pass their own; the rest keep the output clean.
    logger: () => {},
    ...overrides,
  };
}

export interface CallOptions {
  method?: string;
  customer?: string | null;
  body?: unknown;
  /** Raw body text (wins over body). */
  rawBody?: string;
  origin?: string | null;
  headers?: Record<string, string>;
}

/** A browser-like request to the proxy: same-origin, signed in as `customer`. */
export function browserRequest(path: string, options: CallOptions = {}): Request {
  const method =
    options.method ??
    (options.body !== undefined || options.rawBody !== undefined ? 'POST' : 'GET');
  const headers = new Headers(options.headers);
  const customer = options.customer === undefined ? 'healthy' : options.customer;
  if (customer !== null) headers.set('cookie', `session=${encodeURIComponent(customer)}`);
  const origin =
    options.origin === undefined ? (method === 'GET' ? null : APP_ORIGIN) : options.origin;
  if (origin !== null) headers.set('origin', origin);
  const body =
    options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined && !headers.has('content-type'))
    headers.set('content-type', 'application/json');
  return new Request(`${APP_ORIGIN}/billing${path}`, { method, headers, body: body ?? null });
}

export async function call(proxy: BillingProxy, path: string, options: CallOptions = {}) {
  const response = await proxy.handler(browserRequest(path, options));
  const text = await response.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const body: any = text === '' ? undefined : JSON.parse(text);
  return { status: response.status, headers: response.headers, body, text };
}

/**
 * A JSON call to the sandbox at `url` with the business's credentials (HTTP Basic, agent key and
 * API key), as the host's back end makes it: its status and its body, parsed.
 */
async function sandboxCall(sandbox: RunningSandbox, method: string, url: string, body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: {
      authorization: basicAuth(sandbox.agentKey, sandbox.apiKey),
      'content-type': 'application/json',
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read loosely in tests
  const parsed: any = text === '' ? undefined : JSON.parse(text);
  return { status: response.status, ok: response.ok, text, body: parsed };
}

/** The sandbox's control API (same credentials as the API). */
export function control(sandbox: RunningSandbox) {
  async function request(method: string, path: string, body?: unknown) {
    const answer = await sandboxCall(sandbox, method, `${sandbox.url}/_sandbox${path}`, body);
    if (!answer.ok) throw new Error(`control ${method} ${path}: ${answer.status} ${answer.text}`);
    return answer.body;
  }
  return {
    reset: () => request('POST', '/reset'),
    fault: (fault: { route: string; mode: string; delayMs?: number; times?: number }) =>
      request('POST', '/faults', fault),
    clearFaults: () => request('DELETE', '/faults'),
    stats: (): Promise<{
      requests: Record<string, number>;
      appliedUsageChanges: number;
      appliedUsageChangesByCustomer: Record<string, number>;
    }> => request('GET', '/stats'),
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    customer: (reference: string): Promise<any> =>
      request('GET', `/customers/${encodeURIComponent(reference)}`),
    paymentMethod: (reference: string, state: 'valid' | 'invalid' | 'absent') =>
      request('POST', `/customers/${encodeURIComponent(reference)}/payment-method`, { state }),
    /** Pays an invoice as its hosted charge page does once the customer confirms. */
    payInvoice: (id: number) => request('POST', `/invoices/${id}/pay`),
    /** Starts a pending subscription as its checkout would (no payment method needed). */
    completeSubscription: (id: number) => request('POST', `/subscriptions/${id}/complete`),
    /** Sets the sandbox's clock (forward only); it keeps running from there unless frozen. */
    setClock: (iso: string) => request('POST', '/clock', { set: iso }),
  };
}

/** The sandbox's own API, called directly with its credentials (as the host's back end would). */
export async function serviceCall(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  body?: unknown,
) {
  const { status, body: answer } = await sandboxCall(
    sandbox,
    method,
    `${sandbox.apiUrl}${path}`,
    body,
  );
  return { status, body: answer };
}

/** The body of a purchase of 3 seats under `idempotencyKey`, confirmed at `confirmedAmountTotal`. */
export function seatsPurchase(idempotencyKey: string, confirmedAmountTotal: number) {
  return { feature: 'seats', increment: 3, idempotencyKey, confirmedAmountTotal };
}

/**
 * What the sandbox has applied and invoiced for a customer: usage changes applied, invoices of
 * usage changes (and their amounts), the quantity of `feature` and the current period's end.
 */
export async function ledgerOf(sandbox: RunningSandbox, customer = 'healthy', feature = 'seats') {
  const state = await control(sandbox).customer(customer);
  const stats = await control(sandbox).stats();
  const subscription = state.subscriptions.find(
    (candidate: { StateSubscription: string }) =>
      candidate.StateSubscription !== 'PendingSubscription',
  );
  const invoiceIds: number[] = state.usageLog
    .map((entry: { invoiceId: number | null }) => entry.invoiceId)
    .filter((id: number | null) => id !== null);
  return {
    count: stats.appliedUsageChangesByCustomer[customer] ?? 0,
    invoices: invoiceIds.length,
    invoiceAmounts: state.invoices
      .filter((invoice: { Id: number }) => invoiceIds.includes(invoice.Id))
      .map((invoice: { AmountTotal: number }) => invoice.AmountTotal) as number[],
    quantity: subscription.Features.find(
      (candidate: { ReferenceFeature: string }) => candidate.ReferenceFeature === feature,
    ).QuantityCurrent as number,
    periodEnd: subscription.DatePeriodEnd as string,
  };
}

/** Collects the logger's entries. */
export function collectingLogger() {
  const entries: ProxyLogEntry[] = [];
  return { entries, logger: (entry: ProxyLogEntry) => void entries.push(entry) };
}

export { startSandbox };

/**
 * The suite's real sandbox: started before the suite, back to its fixtures (state, clock,
 * faults, stats) before each test, closed after it. `onStart` receives it once started; the
 * answer stands for it from then on (each of its properties is read from the running sandbox).
 */
export function useSandbox(onStart?: (sandbox: RunningSandbox) => void): RunningSandbox {
  let running: RunningSandbox | undefined;
  before(async () => {
    running = await startSandbox();
    onStart?.(running);
  });
  after(() => running?.close());
  beforeEach(async () => {
    if (running !== undefined) await control(running).reset();
  });
  return new Proxy({} as RunningSandbox, {
    get(_started, property) {
      if (running === undefined) throw new Error('the sandbox is used before it started');
      return Reflect.get(running, property);
    },
  });
}

export interface ProxyUnderTest {
  sandbox: RunningSandbox;
  proxy: BillingProxy;
  /** Counts what the proxy sent to the sandbox during the test. */
  counter: ReturnType<typeof countingFetch>;
}

/**
 * useSandbox, and before each test a new proxy over it (the shared test options, its upstream
 * calls counted): `set` receives them.
 */
export function useProxy(set: (made: ProxyUnderTest) => void): void {
  let sandbox: RunningSandbox | undefined;
  useSandbox((started) => (sandbox = started));
  beforeEach(() => {
    if (sandbox === undefined) return;
    set({ sandbox, ...countedProxy(sandbox) });
  });
}

/**
 * Reads an event stream in the background and hands each of its blocks (the lines of one event,
 * up to the blank line that ends it) to `onBlock`; stops when the stream ends or is aborted.
 */
export function readEventBlocks(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  onBlock: (block: string) => void,
): void {
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        onBlock(block);
      }
    }
  })();
}

/** The price `proxy` quotes `customer` for `increment` of `feature`; fails unless it answers 200. */
export async function priceThrough(
  proxy: BillingProxy,
  feature = 'seats',
  increment = 3,
  customer = 'healthy',
) {
  const { status, body } = await call(proxy, '/pricing', {
    customer,
    body: { feature, increment },
  });
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}

/** A new proxy over `sandbox`: the shared test options, then `overrides`. */
export function proxyOver(
  sandbox: RunningSandbox,
  overrides: Partial<BillingProxyOptions> = {},
): BillingProxy {
  return createBillingProxy(proxyOptions(sandbox, overrides));
}

/** A new proxy over `sandbox` (the shared test options, then `overrides`), its upstream calls counted. */
export function countedProxy(
  sandbox: RunningSandbox,
  overrides: Partial<BillingProxyOptions> = {},
) {
  const counter = countingFetch();
  const proxy = createBillingProxy(proxyOptions(sandbox, { fetch: counter.fetch, ...overrides }));
  return { counter, proxy };
}

/** Starts `server` on a free loopback port and gives its origin. */
export async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A POST /billing/pricing from the healthy customer, same-origin, sent over a raw socket so that
 * a test controls the body's framing (`transfer-encoding`, a `content-length` it never honours)
 * and writes the body itself.
 */
export function rawPricingPost(origin: string, framing: Record<string, string>): ClientRequest {
  return httpRequest(`${origin}/billing/pricing`, {
    method: 'POST',
    headers: {
      cookie: 'session=healthy',
      origin,
      'content-type': 'application/json',
      ...framing,
    },
  });
}

/** Asserts that the proxy at `origin` still answers the healthy customer's GET /billing/usages. */
export async function assertStillServes(origin: string): Promise<void> {
  const response = await fetch(`${origin}/billing/usages`, {
    headers: { cookie: 'session=healthy' },
  });
  assert.equal(response.status, 200);
}

/**
 * Every signal `bus` carries, in order, heard by a listener of the test's own: the event a page
 * receives for one of them has its id.
 */
export function heardOn(bus: SignalBus) {
  const heard: BillingSignal[] = [];
  bus.subscribe((signal) => void heard.push(signal));
  return {
    heard,
    /** The ids of the signals heard for `customer`. */
    ids: (customer: string) =>
      heard.filter((signal) => signal.customer === customer).map(({ id }) => id),
  };
}

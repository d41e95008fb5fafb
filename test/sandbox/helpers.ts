// Shared set-up of the sandbox tests: a real sandbox on a random port, spoken to over HTTP the
// way the proxy and a browser would.
import assert from 'node:assert/strict';
import { after, before, beforeEach } from 'node:test';
import { startSandbox, type SandboxOptions, type RunningSandbox } from '../../src/sandbox/index.js';

/** 2026-11-16 00:00 UTC: 15 of the 30 days of the November period remain (share 1/2). */
export const MID_NOVEMBER = '2026-11-16T00:00:00.000Z';

export interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

export interface TestSandbox {
  sandbox: RunningSandbox;
  /** Lines the sandbox logged (unknown fields it ignored), oldest first. */
  logs: string[];
  api(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Answer>;
  control(method: string, path: string, body?: unknown): Promise<Answer>;
  /** GET of the control view of a customer. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  customer(reference: string): Promise<any>;
  close(): Promise<void>;
}

/** Asserts that the service refused with `status` and the error `code` (`message` says which case). */
export function assertRefused(
  answer: Answer,
  status: number,
  code: string,
  message?: string,
): void {
  assert.equal(answer.status, status, message);
  assert.equal(answer.body.Code, code, message);
}

export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown = undefined;
  if ((response.headers.get('content-type') ?? '').includes('json') && text !== '')
    body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body, text };
}

export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const logs: string[] = [];
  const sandbox = await startSandbox({
    now: MID_NOVEMBER,
    log: (line) => logs.push(line),
    ...options,
  });
  const authorization = basicAuth(sandbox.agentKey, sandbox.apiKey);
  const request = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const init: RequestInit = { method, headers: { authorization, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    return answer(await fetch(`${sandbox.url}${path}`, init));
  };
  return {
    sandbox,
    logs,
    api: request,
    control: (method, path, body) => request(method, `/_sandbox${path}`, body),
    async customer(reference) {
      const res = await request('GET', `/_sandbox/customers/${encodeURIComponent(reference)}`);
      if (res.status !== 200)
        throw new Error(`control customer ${reference}: ${res.status} ${res.text}`);
      return res.body;
    },
    close: () => sandbox.close(),
  };
}

/**
 * The suite's sandbox: started before its tests (with `options`, or what `options()` gives once
 * the suite's other servers run), back to its fixtures with an empty log before each test, closed
 * after them. The answer stands for it from the first test on.
 */
export function useTestSandbox(options: SandboxOptions | (() => SandboxOptions) = {}): TestSandbox {
  let running: TestSandbox | undefined;
  const current = (): TestSandbox => {
    if (running === undefined) throw new Error('the test sandbox is used before it started');
    return running;
  };
  before(async () => {
    running = await startTestSandbox(typeof options === 'function' ? options() : options);
  });
  after(() => running?.close());
  beforeEach(async () => {
    await current().control('POST', '/reset');
    current().logs.length = 0;
  });
  return {
    get sandbox() {
      return current().sandbox;
    },
    get logs() {
      return current().logs;
    },
    api: (...args) => current().api(...args),
    control: (...args) => current().control(...args),
    customer: (reference) => current().customer(reference),
    close: () => current().close(),
  };
}

/** The QuantityCurrent of `customer`'s `feature`, as GET /v1/Usages lists it first. */
export async function quantityOf(
  t: Pick<TestSandbox, 'api'>,
  customer: string,
  feature: string,
): Promise<number> {
  const query = new URLSearchParams({ ReferenceCustomer: customer, ReferenceFeature: feature });
  return (await t.api('GET', `/v1/Usages?${query}`)).body.Items[0].QuantityCurrent;
}

export function link(
  resource: { Links?: { rel: string; href?: string; query?: string }[] },
  rel: string,
) {
  const found = resource.Links?.find((l) => l.rel === rel);
  if (!found)
    throw new Error(`no ${rel} link in ${JSON.stringify(resource.Links?.map((l) => l.rel))}`);
  return found;
}

export function rels(resource: { Links?: { rel: string }[] }): string[] {
  return (resource.Links ?? []).map((l) => l.rel).sort();
}

/**
 * The body of a usage change or of its price: `customer`'s `feature`, then the change (one of
 * Increment, QuantityCurrent, IsEnabled) and any other field, in that order.
 */
export function usageBody(
  customer: string,
  feature: string,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  return { ReferenceCustomer: customer, ReferenceFeature: feature, ...fields };
}

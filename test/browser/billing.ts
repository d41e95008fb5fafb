// Helpers for browser tests: they talk to the test server (test/browser-server.ts), which
// runs the real proxy at /billing over a real sandbox.
import { expect } from '@open-wc/testing';
import { resetBillingConfig } from '../../src/client/config.js';
import { BillingError } from '../../src/client/errors.js';
import { getProxyClient } from '../../src/client/proxy-client.js';
import { getUsageStore } from '../../src/client/usage-store.js';
import type { PricingResponse, PurchaseResponse } from '../../src/contract/proxy-api.js';
import { waitFor } from '../time.js';

const COOKIE = 'billing_test_customer';

export interface TestEnv {
  sandboxUrl: string;
  hostedUrl: string;
  portalScriptUrl: string;
  flakyPortalScriptUrl: string;
}

export interface TestStats {
  /** Requests that reached the test server's proxies, by `METHOD /path` (no query). */
  requests: Record<string, number>;
  /** Event streams the proxies answered: each then follows its customer's signals. */
  streamsOpened: number;
  /** Requests for the repairable portal script at /_test/flaky-portal.js. */
  flakyPortalScript: number;
}

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(path, {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return response;
}

/** Signs a customer in for every later request to the proxy (the host app's session). */
export function signIn(customer: string): void {
  document.cookie = `${COOKIE}=${encodeURIComponent(customer)}; path=/; SameSite=Lax`;
}

export function signOut(): void {
  document.cookie = `${COOKIE}=; path=/; max-age=0`;
}

/** A customer reference no other test uses (the proxy creates it on first use). */
export function uniqueCustomer(prefix = 'customer'): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Puts the sandbox back to its fixtures, clears faults and the request counters. */
export async function resetSandbox(): Promise<void> {
  await call('/_test/reset', { method: 'POST' });
}

/** Forgets what this page's runtime knows (usages in memory and sessionStorage, configuration). */
export function resetClient(): void {
  for (const endpoint of ['/billing', '/billing-flaky', '/billing-alt', '/billing-limited'])
    getUsageStore(endpoint).clear();
  sessionStorage.clear();
  resetBillingConfig();
}

/** Everything a test usually starts from: a fresh sandbox, a fresh runtime, a signed-in customer. */
export async function freshStart(customer = 'healthy'): Promise<void> {
  await resetSandbox();
  // Signed in first, as an app does before it calls clear(): what the elements of the page ask
  // for again once cleared is the new customer's.
  signIn(customer);
  resetClient();
}

const DAY_MS = 86_400_000;

/**
 * Moves the service's clock to `days` before the end of `customer`'s billing period (its first
 * subscription's). The periods follow the calendar: when less than that is left today, the clock
 * first goes into the next period (the subscription renews), so that the test does not depend
 * on the day it runs.
 */
export async function daysLeftInPeriod(customer: string, days: number): Promise<void> {
  const periodEnd = async () => {
    const state = await sandbox<{ subscriptions: { DatePeriodEnd: string }[] }>(
      `customers/${customer}`,
    );
    return Date.parse(state.subscriptions[0]!.DatePeriodEnd);
  };
  const { now } = await sandbox<{ now: string }>('clock');
  let end = await periodEnd();
  if (end - days * DAY_MS <= Date.parse(now)) {
    await sandbox('clock', { set: new Date(end + 60_000).toISOString() });
    end = await periodEnd();
  }
  await sandbox('clock', { set: new Date(end - days * DAY_MS).toISOString() });
}

/** Calls the sandbox's control API (`/_sandbox/<path>`), credentials added by the server. */
export async function sandbox<T = unknown>(
  path: string,
  body?: unknown,
  method?: string,
): Promise<T> {
  const response = await call(`/_test/sandbox/${path.replace(/^\//, '')}`, {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as T;
}

/** Calls the billing service's own API (`/v1/<path>`) as the host's back end would. */
export async function serviceApi<T = unknown>(path: string, body?: unknown): Promise<T> {
  const response = await call(`/_test/service/${path.replace(/^\//, '')}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`service ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Makes the next matching request(s) to the sandbox misbehave (delay, drop, 500). */
export function addFault(fault: {
  route: string;
  mode:
    | 'delay'
    | 'delay-after-apply'
    | 'drop-before-apply'
    | 'drop-after-apply'
    | 'status-500'
    | 'html-after-apply'
    | 'empty-after-apply';
  delayMs?: number;
  times?: number;
}): Promise<unknown> {
  return sandbox('faults', fault);
}

export async function testEnv(): Promise<TestEnv> {
  return (await (await call('/_test/env')).json()) as TestEnv;
}

export async function testStats(): Promise<TestStats> {
  return (await (await call('/_test/stats')).json()) as TestStats;
}

/** How many `METHOD /path` requests reached the proxy since the last reset. */
export async function proxyRequestCount(method: string, path: string): Promise<number> {
  return (await testStats()).requests[`${method} ${path}`] ?? 0;
}

/**
 * A purchase of one `feature` unit made outside this page (another device of the same customer):
 * straight to the proxy, so that only its event stream tells the page.
 */
export async function purchaseElsewhere(feature: string): Promise<void> {
  const post = (path: string, body: unknown) =>
    fetch(`/billing${path}`, {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((response) => response.json() as Promise<{ AmountTotal: number }>);
  const { AmountTotal } = await post('/pricing', { feature, increment: 1 });
  await post('/usage', {
    feature,
    increment: 1,
    idempotencyKey: crypto.randomUUID(),
    confirmedAmountTotal: AmountTotal,
  });
}

/**
 * Resolves once the proxy has answered the page's event stream: a change made after it reaches
 * the page. (A change made before, while the stream was still opening, is not signalled.)
 */
export async function streamOpen(): Promise<void> {
  await waitFor(async () => (await testStats()).streamsOpened > 0, 'the event stream to open');
}

/** Makes the portal script of the `/billing-flaky` proxy fail (404) or load (the real one). */
export async function setFlakyPortalScript(failing: boolean): Promise<void> {
  await call('/_test/flaky-portal', { method: 'POST', body: JSON.stringify({ failing }) });
}

/** Resolves when `predicate` holds, polling; rejects after `timeoutMs` with `what`. */
export async function until(
  predicate: () => boolean,
  what: string,
  timeoutMs?: number,
): Promise<void> {
  await waitFor(predicate, what, timeoutMs);
}

/** Resolves with the next `type` event on `target`. */
export function nextEvent<E extends Event = Event>(
  target: EventTarget,
  type: string,
  timeoutMs = 8000,
): Promise<E> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`No ${type} event within ${timeoutMs} ms`)),
      timeoutMs,
    );
    target.addEventListener(
      type,
      (event) => {
        clearTimeout(timer);
        resolve(event as E);
      },
      { once: true },
    );
  });
}

/** The BillingError a promise rejects with (fails the test when it resolves or rejects otherwise). */
export async function failure(promise: Promise<unknown>): Promise<BillingError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).to.be.instanceOf(BillingError);
  return error as BillingError;
}

/**
 * Waits (up to `timeoutMs`, or fails) for the proxy to have received more `method path` requests than
 * `before`, and answers how many it has received now.
 */
export async function requestsAfter(
  method: string,
  path: string,
  before: number,
  timeoutMs?: number,
): Promise<number> {
  return waitFor(
    async () => {
      const count = await proxyRequestCount(method, path);
      return count > before ? count : undefined;
    },
    `a ${method} ${path} request`,
    timeoutMs,
  );
}

/**
 * Buys `increment` of `feature` through the real proxy at the price it quotes now, as
 * <buy-feature> does without the element, and merges the answer into the page's usage store.
 */
export async function buyThroughProxy(
  feature: string,
  increment: number,
): Promise<{ pricing: PricingResponse; purchase: PurchaseResponse }> {
  const client = getProxyClient();
  const pricing = await client.getPricing({ feature, increment });
  const purchase = await client.purchase({
    feature,
    increment,
    idempotencyKey: crypto.randomUUID(),
    confirmedAmountTotal: pricing.AmountTotal,
  });
  getUsageStore().applyUsage(purchase.usage);
  return { pricing, purchase };
}

/** A button named `name` at the end of the page, focused: what opens a dialog, in a test. */
export function focusedOpener(name: string): HTMLButtonElement {
  const opener = document.createElement('button');
  opener.textContent = name;
  document.body.append(opener);
  opener.focus();
  return opener;
}

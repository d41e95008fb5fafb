// Shared set-up of the end-to-end tests: the real demo (sandbox, proxy, Vite) started from code
// on a free port, Debian's Chromium through playwright-core (or another engine: engines.ts),
// axe, and screenshots.
import assert from 'node:assert/strict';
import { after, before, beforeEach } from 'node:test';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import {
  chromium,
  type Browser,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { CHROME_FLAGS, findChrome } from '../../scripts/prereqs.mjs';
import { startDemo, type DemoServer } from '../../demo/server.js';
import { waitFor } from '../time.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Screenshots of the main states, for a reviewer (named in the README). */
export const SCREENSHOT_DIR = join(ROOT, 'test-results', 'screenshots');
/** Set UPDATE_DOCS_SCREENSHOTS=1 to refresh the README's picture from a run. */
export const DOCS_SCREENSHOT_DIR = join(ROOT, 'docs', 'screenshots');

/** What a file's tests drive: a browser (playwright-core's Chromium, or test/e2e/engines.ts). */
interface Closable {
  close(): Promise<void>;
}

export interface E2E<B extends Closable = Browser> {
  demo: DemoServer;
  browser: B;
  close(): Promise<void>;
}

export interface DemoOptions {
  /** Build the script-tag file when the demo starts rather than on its first request. */
  prebuildScriptTag?: boolean;
}

/** Debian's Chromium (or CHROME_PATH) through playwright-core. */
const launchChromium = () =>
  chromium.launch({ executablePath: findChrome(), args: [...CHROME_FLAGS] });

/**
 * The demo on a free port (own Vite cache, so concurrent files do not share one) and a browser
 * from `launch`.
 */
export async function setUpWith<B extends Closable>(
  launch: () => Promise<B>,
  options: DemoOptions = {},
): Promise<E2E<B>> {
  const cacheDir = await mkdtemp(join(tmpdir(), 'billing-e2e-vite-'));
  const demo = await startDemo({
    port: 0,
    strictPort: true,
    logLevel: 'silent',
    watch: false,
    cacheDir,
    prebuildScriptTag: options.prebuildScriptTag ?? false,
  });
  let browser: B;
  try {
    browser = await launch();
  } catch (error) {
    await demo.close();
    throw error;
  }
  return {
    demo,
    browser,
    async close() {
      await browser.close();
      await demo.close();
      await rm(cacheDir, { recursive: true, force: true });
    },
  };
}

/**
 * The demo and the browser of one test file: started before its first test, closed after its
 * last, and the sandbox reset before each test. The returned object reads the running ones.
 */
export function demoWithBrowserForFile<B extends Closable>(
  launch: () => Promise<B>,
  options: DemoOptions = {},
): E2E<B> {
  let running: E2E<B> | undefined;
  const started = (): E2E<B> => {
    if (!running) throw new Error('the demo starts before the first test of the file');
    return running;
  };
  before(async () => {
    running = await setUpWith(launch, options);
  });
  after(async () => {
    await running?.close();
  });
  beforeEach(async () => {
    await resetSandbox(started().demo);
  });
  return {
    get demo() {
      return started().demo;
    },
    get browser() {
      return started().browser;
    },
    close: () => started().close(),
  };
}

/** The demo and Debian's Chromium of one test file, with the steps every test starts from. */
export interface DemoSession extends E2E {
  /** A fresh browser context and its page (see `newPage`). */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** Signs `page` in as the fixture customer `reference` (see `signIn`). */
  signIn(page: Page, reference: string): Promise<void>;
  /** Everything the sandbox knows about the customer `reference` (see `sandboxCustomer`). */
  customer(reference: string): Promise<SandboxCustomer>;
}

/** The demo and Debian's Chromium for one test file (see demoWithBrowserForFile). */
export function demoForFile(options: DemoOptions = {}): DemoSession {
  const e2e = demoWithBrowserForFile(launchChromium, options);
  return {
    get demo() {
      return e2e.demo;
    },
    get browser() {
      return e2e.browser;
    },
    close: () => e2e.close(),
    newPage: (pageOptions) => newPage(e2e, pageOptions),
    signIn: (page, reference) => signIn(page, e2e.demo, reference),
    customer: (reference) => sandboxCustomer(e2e.demo, reference),
  };
}

/** A fresh browser context (no cookies, no sessionStorage) and its page; page errors fail the test. */
export async function newPage(e2e: E2E, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await e2e.browser.newContext({
    viewport: { width: 1360, height: 900 },
    reducedMotion: 'reduce',
    ...options,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  errorsByPage.set(page, errors);
  page.on('pageerror', (error) => errors.push(error.message));
  return page;
}

const errorsByPage = new WeakMap<Page, string[]>();

/** Uncaught errors of the page's scripts since it opened. */
export function pageErrors(page: Page): string[] {
  return errorsByPage.get(page) ?? [];
}

/** Retries an assertion until it passes or the time is up (the UI updates asynchronously). */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 10_000): Promise<T> {
  let failed: unknown;
  const passed = await waitFor(
    async () => {
      try {
        return { value: await check() };
      } catch (error) {
        failed = error;
        return undefined;
      }
    },
    'the check to pass',
    timeoutMs,
  ).catch(() => undefined);
  // The assertion's own error, with its diff, when the time is up.
  if (passed === undefined) throw failed;
  return passed.value;
}

/** The figures a <usage-meter> shows for one feature: "3 of 5" → { used: '3', total: '5' }. */
export async function meterFigures(
  page: Page,
  feature: string,
): Promise<{ used: string; total: string | null }> {
  const meter = page.locator(`usage-meter[feature="${feature}"]`).first();
  const used =
    (await meter.locator('[part~="value"]').first().textContent({ timeout: 10_000 })) ?? '';
  const totals = meter.locator('[part~="total"]');
  const total = (await totals.count()) > 0 ? await totals.first().textContent() : null;
  return { used: used.trim(), total: total?.trim() ?? null };
}

/** Signs in on the demo's sign-in page by picking the customer, and waits for the dashboard. */
export async function signIn(page: Page, demo: DemoServer, reference: string): Promise<void> {
  await page.goto(`${demo.url}/`);
  await page.locator(`button.account[value="${reference}"]`).click();
  await page.waitForURL(`${demo.url}/app/`);
}

function authorization(demo: DemoServer): string {
  const { agentKey, apiKey } = demo.sandbox;
  return `Basic ${Buffer.from(`${agentKey}:${apiKey}`).toString('base64')}`;
}

/** Calls the sandbox's control API. */
export async function control<T = unknown>(
  demo: DemoServer,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${demo.sandbox.url}/_sandbox/${path}`, {
    method,
    headers: {
      authorization: authorization(demo),
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} /_sandbox/${path} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export interface SandboxInvoice {
  Id: number;
  FullNumber: string;
  StateInvoice: string;
  AmountTotal: number;
  Currency: string;
}

export interface SandboxCustomer {
  customer: { ReferenceCustomer: string; Name: string };
  paymentMethod: string;
  isPaymentCappingReached: boolean;
  subscriptions: {
    Id: number;
    StateSubscription: string;
    ReferenceOffer: string;
    Features?: { ReferenceFeature: string; QuantityIncluded?: number; QuantityCurrent?: number }[];
  }[];
  invoices: SandboxInvoice[];
  usageLog: { feature: string; increment: number; amountTotal: number }[];
}

/** Everything the sandbox knows about a customer (GET /_sandbox/customers/{ref}). */
export function sandboxCustomer(demo: DemoServer, reference: string): Promise<SandboxCustomer> {
  return control<SandboxCustomer>(demo, 'GET', `customers/${encodeURIComponent(reference)}`);
}

/** The sandbox back to its fixtures, so a test does not depend on what ran before it. */
export async function resetSandbox(demo: DemoServer): Promise<void> {
  await control(demo, 'POST', 'reset');
}

export function quantityOf(customer: SandboxCustomer, feature: string): number | undefined {
  for (const subscription of customer.subscriptions) {
    const found = subscription.Features?.find((item) => item.ReferenceFeature === feature);
    if (found) return found.QuantityCurrent;
  }
  return undefined;
}

/** Runs axe (WCAG 2 A and AA) on the page, hosted iframes included, and fails on any violation. */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const report = results.violations
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n` +
        violation.nodes
          .map((node) => `    ${node.target.join(' ')}: ${node.failureSummary ?? ''}`)
          .join('\n'),
    )
    .join('\n');
  assert.equal(results.violations.length, 0, `axe found violations on ${what}:\n${report}`);
}

/** Saves a screenshot of the page under test-results/screenshots (and docs/ when asked). */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean; docs?: boolean } = {},
): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  // A page scrolled by a portal opening would shift its sticky sidebar in a full-page capture.
  const fullPage = options.fullPage ?? true;
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage, animations: 'disabled' });
  if (options.docs && process.env.UPDATE_DOCS_SCREENSHOTS === '1') {
    await mkdir(DOCS_SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({
      path: join(DOCS_SCREENSHOT_DIR, `${name}.png`),
      animations: 'disabled',
    });
  }
}

/**
 * A price line with a charge (any amount but $0.00): prorated prices shrink as the sandbox's
 * clock nears the end of the period, so no lower bound is assumed.
 */
export const CHARGED = /\$(?!0\.00)\d[\d,]*\.\d\d/;

/** Formats hundredths of USD as the elements do in English. */
export function usd(amount: number): string {
  return new Intl.NumberFormat('en', { style: 'currency', currency: 'USD' }).format(amount / 100);
}

/** What a price that costs nothing now reads, in English. */
export const FREE = /No extra cost|\$0\.00/;

/** A phone's screen, for the narrow-screen tests. */
export const PHONE = {
  viewport: { width: 360, height: 780 },
  isMobile: true,
  hasTouch: true,
} satisfies BrowserContextOptions;

/**
 * Buys with the `<buy-feature>` located by `buy`, `quantity` of it (else the quantity shown),
 * when it costs nothing now: no confirmation is asked. Waits for its success line, `done`.
 */
export async function buyFree(buy: Locator, done: string, quantity?: number): Promise<void> {
  if (quantity !== undefined) await buy.getByRole('spinbutton').fill(String(quantity));
  await buy.locator('[part~="price-now"]').filter({ hasText: FREE }).waitFor();
  await buy.getByRole('button', { name: /^Buy/ }).click();
  // Every purchase is confirmed, a free one too: its dialog says nothing is due now, and its
  // button names the change ("Add 2 seats").
  const dialog = buy.getByRole('dialog');
  await dialog
    .locator('[part~="confirm"]')
    .filter({ hasText: /^\s*Add / })
    .click();
  await buy.getByText(done).waitFor();
}

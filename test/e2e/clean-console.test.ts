// Every page of the demo, for every customer of the sandbox whatever their state (overdue
// invoices, suspended, pending, no plan, a plan without a feature...): it loads without a console
// error or a failed request (an expected state of a customer is not an error of the page), and
// the overview offers each remedy once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConsoleMessage, Page, Request, Response } from 'playwright-core';
import { pageQuiet, unansweredRequests } from '../page-requests.js';
import { SCENARIOS } from '../../demo/customers.js';
import { demoForFile } from './helpers.js';

const e2e = demoForFile();

const PAGES = ['/app/', '/app/plans', '/app/billing', '/app/portal', '/app/embed'];
/** The parts of a button or link of our elements that remedies a state. */
const REMEDY_PARTS = ['remedy', 'retry', 'see-plans', 'sign-in'];

/**
 * Lets the page's elements load what they need (no skeleton and no price being asked), then
 * waits for the page to have nothing left in flight: a console line or a failed request that
 * comes just after the elements settle (a late read, a second render) still counts against it.
 */
async function settle(page: Page, unanswered: () => number): Promise<void> {
  await page.waitForLoadState('load');
  await page.waitForFunction(
    () => {
      const tags = 'usage-meter, buy-feature, feature-gate, plan-picker';
      return [...document.querySelectorAll(tags)].every(
        (el) =>
          el.getAttribute('state') !== 'loading' &&
          !el.shadowRoot?.querySelector('[aria-busy="true"], [data-standing="unknown"]'),
      );
    },
    undefined,
    { timeout: 15_000 },
  );
  await pageQuiet(page, unanswered);
}

/** The visible remedies our elements offer on the page. */
function remedies(page: Page): Promise<string[]> {
  return page.evaluate((parts) => {
    const found: string[] = [];
    const tags = 'usage-meter, buy-feature, feature-gate, plan-picker, billing-portal';
    for (const el of document.querySelectorAll(tags)) {
      for (const node of el.shadowRoot?.querySelectorAll<HTMLElement>('button, a') ?? []) {
        const box = node.getBoundingClientRect();
        if (box.width > 0 && parts.some((name) => node.part.contains(name)))
          found.push(`${el.localName}: ${node.textContent?.trim()}`);
      }
    }
    return found;
  }, REMEDY_PARTS);
}

for (const { reference } of SCENARIOS) {
  test(`${reference}: every page loads with a clean console and one call to action`, async () => {
    const page = await e2e.newPage();
    const unanswered = unansweredRequests(page);
    await e2e.signIn(page, reference);
    await settle(page, unanswered);
    for (const path of PAGES) {
      // Leaving a page aborts its event stream: not a failure of the next page.
      await page.goto('about:blank');
      const problems: string[] = [];
      let recording = true;
      const note = (line: string) => recording && problems.push(line);
      // Warnings count too: Lit's development build, which the demo's dev server loads, warns
      // of an element's mistakes (and of itself, a banner the demo silences).
      const onConsole = (entry: ConsoleMessage) => {
        if (entry.type() === 'error' || entry.type() === 'warning')
          note(`console ${entry.type()}: ${entry.text()}`);
      };
      const onPageError = (error: Error) => note(`page error: ${error.message}`);
      const onResponse = (response: Response) => {
        if (response.status() >= 400) note(`${response.status()} ${response.url()}`);
      };
      // A request the page itself abandons (a preview frame drawn again, a read superseded by
      // a newer one) prints nothing and fails nothing; any other failure counts.
      const onRequestFailed = (request: Request) => {
        const reason = request.failure()?.errorText ?? '';
        if (reason !== 'net::ERR_ABORTED') note(`failed ${request.url()} ${reason}`);
      };
      page.on('console', onConsole);
      page.on('pageerror', onPageError);
      page.on('response', onResponse);
      page.on('requestfailed', onRequestFailed);
      await page.goto(`${e2e.demo.url}${path}`);
      await settle(page, unanswered);
      recording = false;
      // (Only this path's listeners: the count of unanswered requests goes on.)
      page.off('console', onConsole);
      page.off('pageerror', onPageError);
      page.off('response', onResponse);
      page.off('requestfailed', onRequestFailed);
      assert.deepEqual(problems, [], `${reference} ${path}`);
      const offered = await remedies(page);
      assert.ok(offered.length <= 1, `${reference} ${path}: ${offered.join(', ')}`);
    }
    await page.context().close();
  });
}

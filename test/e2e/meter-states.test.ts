// The meters' states on the demo dashboard, screenshot light and dark, 1280 and
// 360 px wide, in English and French (the layout shift of a load with slow usages is
// layout-shift.test.ts's: the runner's limit is per file).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, demoForFile, eventually, pageErrors, screenshot } from './helpers.js';

const e2e = demoForFile();

const VIEWS = [
  { name: 'light-1280', colorScheme: 'light', width: 1280 },
  { name: 'dark-360', colorScheme: 'dark', width: 360 },
  { name: 'dark-1280', colorScheme: 'dark', width: 1280 },
  { name: 'light-360', colorScheme: 'light', width: 360 },
] as const;

/** The dashboard's meters, not counting the one a gate shows for a pending plan (its slot). */
const states = (page: Page) =>
  page.$$eval('usage-meter:not([slot])', (meters) =>
    meters.map((meter) => meter.getAttribute('state')),
  );

/** What each meter of the dashboard says (its shadow root's text). */
const meterTexts = (page: Page) =>
  page.$$eval('usage-meter:not([slot])', (meters) =>
    meters.map((meter) => meter.shadowRoot?.textContent?.replace(/\s+/g, ' ').trim() ?? ''),
  );

/** Every view of one state of the dashboard, in English then French. */
async function shoot(
  customer: string,
  name: string,
  ready: (page: Page) => Promise<void>,
  before?: (page: Page) => Promise<void>,
): Promise<void> {
  for (const view of VIEWS) {
    const page = await e2e.newPage({
      colorScheme: view.colorScheme,
      viewport: { width: view.width, height: 900 },
    });
    await e2e.signIn(page, customer);
    await before?.(page);
    await eventually(() => ready(page));
    await assertAccessible(page, `${name} (${view.name})`);
    await screenshot(page, `meter-${name}-${view.name}-en`);
    const english = await meterTexts(page);
    await page.evaluate(() => document.documentElement.setAttribute('lang', 'fr'));
    // The meters speak French: their words changed.
    await eventually(async () => {
      assert.notEqual(
        (await meterTexts(page)).join(' '),
        english.join(' '),
        'the meters in French',
      );
    });
    await screenshot(page, `meter-${name}-${view.name}-fr`);
    assert.deepEqual(pageErrors(page), []);
    await page.context().close();
  }
}

test('no subscription: one calm "choose a plan" on the page', async () => {
  await shoot('no-subscription', 'no-subscription', async (page) => {
    // Seats, projects, API calls and single sign-on (priority support is an add-on now, sold
    // by <buy-feature> in the same card): the page is one region, its first meter speaks.
    assert.deepEqual(await states(page), ['no-subscription', 'covered', 'covered', 'covered']);
  });
});

test('pending: the plan’s allowances, starting when checkout is complete', async () => {
  await shoot('pending', 'pending', async (page) => {
    assert.deepEqual(await states(page), ['pending', 'pending', 'pending', 'pending']);
  });
});

test('pending: the page offers "Complete your subscription" once', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'pending');
  const card = page.locator('section.card', { has: page.locator('#features-heading') });
  // Both have settled: the gate on the pending plan, the add-on refused until checkout.
  await card.locator('feature-gate[state="pending"]').waitFor({ state: 'attached' });
  await card.locator('buy-feature [part~="add-on"][data-standing="refused"]').waitFor();
  // The page's first buy control carries its one action; the add-on says what it waits for and
  // points there, the gate shows the plan's terms.
  await eventually(async () => {
    const complete = page.getByRole('button', { name: 'Complete your subscription' });
    assert.equal(await complete.count(), 1);
  });
  await card.locator('buy-feature [part~="waits"]').getByText('See what to do').waitFor();
  await card.locator('usage-meter[slot="pending"][state="pending"]').waitFor();
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

test('signed out: "Sign in to see your plan", once per region', async () => {
  await shoot(
    'healthy',
    'signed-out',
    async (page) => {
      assert.equal((await states(page))[0], 'signed-out');
    },
    async (page) => {
      await eventually(async () => assert.equal((await states(page))[0], 'ready'));
      await page.context().clearCookies();
      await page.evaluate(() =>
        (
          document.querySelector('usage-meter') as HTMLElement & { refresh(): Promise<void> }
        ).refresh(),
      );
    },
  );
});

test('bought extra: 5 included + 1 extra, no alarm', async () => {
  await shoot('no-payment-method', 'extra', async (page) => {
    assert.equal((await states(page))[0], 'ready');
    const figures = await page
      .locator('usage-meter[feature="seats"] [part~="figures"]')
      .textContent();
    assert.match(figures!.replace(/\s+/g, ' '), /5 of 5/);
  });
});

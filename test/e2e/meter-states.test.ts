// The meters' states on the demo dashboard, screenshot light and dark, 1280 and
// 360 px wide, in English and French; and the layout shift of a dashboard load with slow usages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  assertAccessible,
  control,
  demoForFile,
  eventually,
  pageErrors,
  screenshot,
} from './helpers.js';

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

// The skeletons take the final shape (a single meter's detail row is
// reserved, an on/off feature marked `on-off` loads as one line) and the demo's stylesheet keeps
// each element's room until it is defined: 0.0012 at the last run (0.056 before).
test(
  'the dashboard loads with slow usages without shifting its layout',
  { timeout: 120_000 },
  async () => {
    const page = await e2e.newPage({ viewport: { width: 1280, height: 900 } });
    await e2e.signIn(page, 'healthy');
    await control(e2e.demo, 'POST', 'faults', {
      route: 'GET /v1/Usages',
      mode: 'delay',
      // Long enough that the meters are still loading when the page's load event fires on a busy
      // machine (the page's modules take over a second there).
      delayMs: 3000,
      // Every read of the usages while the page loads, not only the first (which a request
      // still running from the sign-in may take).
      times: 20,
    });
    // A new session: the usages are not in sessionStorage, so they load slowly.
    await page.evaluate(() => sessionStorage.clear());
    await page.addInitScript(() => {
      (window as unknown as { shift: number }).shift = 0;
      // Whether a meter was seen loading: what this test measures is a load with the usages late.
      (window as unknown as { late: boolean }).late = false;
      new MutationObserver((records) => {
        for (const { target } of records)
          if ((target as Element).localName === 'usage-meter')
            if ((target as Element).getAttribute('state') === 'loading')
              (window as unknown as { late: boolean }).late = true;
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['state'] });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
        })[])
          if (!entry.hadRecentInput) {
            (window as unknown as { shift: number }).shift += entry.value;
            if (localStorage.getItem('debug-shift'))
              console.log(
                'shift',
                Math.round(entry.startTime),
                entry.value,
                JSON.stringify(
                  (
                    (
                      entry as unknown as {
                        sources: { node?: Node; previousRect: DOMRect; currentRect: DOMRect }[];
                      }
                    ).sources ?? []
                  ).map((s) => [
                    (s.node as Element | undefined)?.outerHTML?.slice(0, 80) ?? s.node?.nodeName,
                    s.previousRect.top,
                    s.previousRect.height,
                    s.currentRect.top,
                    s.currentRect.height,
                  ]),
                ),
              );
          }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    if (process.env.DEBUG_SHIFT) {
      await page.evaluate(() => localStorage.setItem('debug-shift', '1'));
      page.on('console', (m) => console.log(m.text()));
    }
    await page.reload();
    // What is measured is a load with the usages late: the meters start as skeletons.
    await eventually(async () =>
      assert.ok(await page.evaluate(() => (window as unknown as { late: boolean }).late)),
    );
    if ((await states(page)).includes('loading'))
      await screenshot(page, 'meter-loading-light-1280', { fullPage: false });
    // Seats, projects, API calls and single sign-on (behind its gate); priority support is sold
    // as an add-on by a <buy-feature>, whose standing shows once its price is known.
    await eventually(
      async () => assert.deepEqual(await states(page), ['ready', 'ready', 'ready', 'ready']),
      20_000,
    );
    await page
      .locator(
        'buy-feature[feature="priority-support"] [part~="add-on"]:not([data-standing="unknown"])',
      )
      .waitFor();
    // A shift that comes just after the last element settles counts too: the shift is read once
    // the elements' boxes have kept still over three frames (the layout-shift entries of the
    // frames before have been reported by then), or after 600 frames. A frame that does not come
    // within 100 ms (a page the browser stopped drawing) counts as one, so the wait is bounded.
    await page.evaluate(async () => {
      // (No named function in here: the test's compiler would wrap it in a helper the page lacks.)
      let last = '';
      for (let steady = 0, frames = 0; steady < 3 && frames < 600; frames++) {
        await new Promise((resolve) => {
          requestAnimationFrame(resolve);
          setTimeout(resolve, 100);
        });
        const now = JSON.stringify(
          [...document.querySelectorAll('usage-meter, buy-feature, feature-gate, plan-picker')].map(
            (el) => Object.values(el.getBoundingClientRect().toJSON()),
          ),
        );
        steady = now === last ? steady + 1 : 0;
        last = now;
      }
    });
    const shift = await page.evaluate(() => (window as unknown as { shift: number }).shift);
    console.log(`cumulative layout shift, dashboard with usages 3 s late: ${shift.toFixed(4)}`);
    assert.ok(shift <= 0.02, `layout shift ${shift}`);
    await page.context().close();
  },
);

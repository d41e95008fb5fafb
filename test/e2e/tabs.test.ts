// Tabs of one browser: what one tab does, the others follow, and a tab opened for one customer
// never shows or changes another's (tabs share the site's cookie).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  control,
  demoForFile,
  eventually,
  meterFigures,
  pageErrors,
  screenshot,
} from './helpers.js';

const e2e = demoForFile();

test('the billing and portal pages follow a subscription made in another tab', async () => {
  const tab = await e2e.newPage();
  await e2e.signIn(tab, 'no-subscription');
  await tab.goto(`${e2e.demo.url}/app/billing`);
  const summary = tab.getByRole('region', { name: 'Subscription' });
  const badge = tab.locator('[data-plan]');
  await summary.getByRole('button', { name: 'Choose a plan' }).waitFor();
  // The card names the state in the glossary's words, once: its tag, no "Plan: None yet".
  await summary.getByText('No plan yet', { exact: true }).waitFor();
  assert.doesNotMatch((await summary.textContent()) ?? '', /None yet|Plan\s*No plan/);
  await badge.getByText('No plan yet', { exact: true }).waitFor();
  // The sample customer's note tells the state it starts in.
  const note = tab.getByRole('note', { name: 'Demo scenario' });
  await note.getByText('A new account that has not chosen a plan yet.').waitFor();

  // The customer portal page, open in a tab of its own. Without a subscription the portal's
  // home is the choice of a plan.
  const portalTab = await tab.context().newPage();
  const portalErrors: string[] = [];
  portalTab.on('pageerror', (error) => portalErrors.push(error.message));
  await portalTab.goto(`${e2e.demo.url}/app/portal`);
  // The frame shown (a refresh loads the next one out of sight, in a container of its own).
  const portal = portalTab.frameLocator('billing-portal > #service_portal iframe');
  await portal.getByRole('heading', { level: 1, name: 'Choose a plan' }).waitFor();

  // Another tab of the same session subscribes to Pro through the Plans page.
  const other = await tab.context().newPage();
  await other.goto(`${e2e.demo.url}/app/plans`);
  await other.locator('plan-picker').getByRole('button', { name: 'Subscribe to Pro' }).click();
  const hosted = other.frameLocator('body > billing-portal iframe');
  await hosted.getByRole('heading', { level: 1, name: 'Subscribe to Pro' }).waitFor();
  await hosted.getByLabel('Name on card').fill('Noah No-Plan');
  await hosted.getByLabel('Card number').fill('4242 4242 4242 4242');
  await hosted.getByLabel('Expiry (MM/YY)').fill('12/30');
  await hosted.getByLabel('Security code').fill('123');
  await hosted.getByRole('button', { name: 'Subscribe' }).click();
  await hosted.getByText('Your subscription is active.').waitFor();

  // The first tabs follow without a reload: the billing page's own summary and badge (the
  // demo's code, on `billing-updated`), and the portal page's portal (the element).
  const navigations: string[] = [];
  for (const page of [tab, portalTab]) {
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });
  }
  await summary.getByText('Renews on').waitFor();
  assert.match((await summary.textContent()) ?? '', /Plan\s*Pro/);
  await summary.getByRole('button', { name: 'Change plan' }).waitFor();
  await badge.getByText('Pro · Active').waitFor();
  // The note would now contradict the badge ("No plan yet"): it is gone.
  await note.waitFor({ state: 'hidden' });
  await portal.getByRole('heading', { level: 1, name: 'Your subscription' }).waitFor();
  await portal.getByRole('heading', { level: 2, name: /Pro/ }).waitFor();
  await portalTab.locator('[data-plan]').getByText('Pro · Active').waitFor();
  assert.deepEqual(navigations, [], 'no reload');
  assert.deepEqual(pageErrors(tab), []);
  assert.deepEqual(portalErrors, []);
  assert.deepEqual(pageErrors(other), []);
  await tab.context().close();
});

test('a sign-in as another customer in another tab: the first tab shows neither, and buys nothing', async () => {
  const tab = await e2e.newPage();
  await e2e.signIn(tab, 'healthy');
  await eventually(async () => {
    assert.deepEqual(await meterFigures(tab, 'seats'), { used: '3', total: '5' });
  });
  const seats = tab.locator('buy-feature[feature="seats"]');
  await seats.locator('[part~="price-now"]').waitFor();
  const before = await control<{ appliedUsageChanges: number }>(e2e.demo, 'GET', 'stats');

  // The same browser signs in as Ulla in a second tab: the site's cookie names her now.
  const other = await tab.context().newPage();

  await e2e.signIn(other, 'unlimited');
  await eventually(async () => {
    assert.deepEqual(await meterFigures(other, 'seats'), { used: '42', total: null });
  });

  // The first tab, opened for Hannah, shows none of Ulla's figures and says what happened.
  const said =
    'Another account has signed in since this page opened. Reload the page to see its billing.';
  await tab.locator('usage-meter[feature="seats"]').getByText(said).waitFor();
  assert.doesNotMatch((await tab.locator('main').innerText()) ?? '', /\b42\b/);
  // The purchase shown before is priced again, and the proxy refuses it for Hannah's page; the
  // seats card says so in brief and points to the meter's Reload, the page's one remedy.
  await seats.getByText('Another account has signed in since this page opened.').waitFor();
  await tab
    .locator('usage-meter[feature="seats"]')
    .getByRole('button', { name: 'Reload the page' })
    .waitFor();
  assert.equal(await tab.getByRole('button', { name: 'Reload the page' }).count(), 1);
  await screenshot(tab, 'another-customer-signed-in', { fullPage: false });
  const after = await control<{ appliedUsageChanges: number }>(e2e.demo, 'GET', 'stats');
  assert.equal(after.appliedUsageChanges, before.appliedUsageChanges);
  // Reloaded, the page is Ulla's, as the app's own header says.
  await tab.reload();
  await eventually(async () => {
    assert.deepEqual(await meterFigures(tab, 'seats'), { used: '42', total: null });
  });
  assert.deepEqual(pageErrors(other), []);
  await tab.context().close();
});

// The demo on a phone and its snippet builder: the script-tag page keeps its margins, the
// customer portal page leaves the portal its width, and the builder refuses what is not an address and
// names features as the catalogue does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { demoForFile, eventually, PHONE, screenshot } from './helpers.js';

const e2e = demoForFile({ prebuildScriptTag: true });

test('the script-tag page at 360 px keeps its right margin, whatever the badges say', async () => {
  const page = await e2e.newPage(PHONE);
  // Suspended: the longest on/off badge ("Included, paused while suspended").
  await e2e.signIn(page, 'capping-reached');
  await page.goto(`${e2e.demo.url}/site/`);
  await page.locator('usage-meter [part~="state"]').first().waitFor();
  await page.frameLocator('billing-portal iframe:visible').locator('h1').waitFor();
  const { scrollWidth, clientWidth, panelRight } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
    panelRight: Math.max(
      ...[...document.querySelectorAll('.panel')].map((p) => p.getBoundingClientRect().right),
    ),
  }));
  assert.equal(scrollWidth, clientWidth, 'nothing runs past the right edge');
  assert.ok(panelRight <= clientWidth - 24, `the panels keep the 24 px margin (${panelRight})`);
  await screenshot(page, 'narrow-script-tag-page');
});

test('the customer portal page at 360 px gives the portal nearly the whole width', async () => {
  const page = await e2e.newPage(PHONE);
  await e2e.signIn(page, 'healthy');
  await page.goto(`${e2e.demo.url}/app/portal`);
  const frame = page.frameLocator('billing-portal iframe:visible');
  const card = frame.locator('main .card').first();
  await card.waitFor();
  // The card of the plan, inside the frame: its own width (the frame's, less 6 px each side).
  const width = await card.evaluate((element) => element.getBoundingClientRect().width);
  assert.ok(width >= 296, `the hosted card is ${width} px wide (it was 262)`);
  const badges = await frame
    .locator('.badge')
    .evaluateAll((all) =>
      all.map(
        (badge) => badge.getBoundingClientRect().right <= document.documentElement.clientWidth,
      ),
    );
  assert.ok(badges.every(Boolean), 'every badge inside the frame');
  await screenshot(page, 'narrow-portal-page');
});

test('the French pages at 360 px fit the screen, the longest header included', async () => {
  const page = await e2e.newPage(PHONE);
  // Pending: the longest plan badge ("Pro · En attente de finalisation") beside "Se déconnecter".
  await e2e.signIn(page, 'pending');
  for (const path of ['/app/?lang=fr', '/app/plans', '/app/portal', '/app/billing']) {
    await page.goto(`${e2e.demo.url}${path}`);
    await page.locator('[data-plan]:not([hidden])').waitFor();
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    assert.equal(scrollWidth, clientWidth, `nothing runs past the right edge of ${path}`);
  }
  await page.getByRole('button', { name: 'Se déconnecter' }).waitFor();
  await screenshot(page, 'narrow-billing-page-fr');
});

test('the French billing summary at 360 px keeps its long actions inside the card', async () => {
  const page = await e2e.newPage(PHONE);
  // Suspended for a dead card: "Mettre à jour le moyen de paiement" leads, the longest label.
  await e2e.signIn(page, 'suspended');
  await page.goto(`${e2e.demo.url}/app/billing?lang=fr`);
  const card = page.getByRole('region', { name: 'Abonnement' });
  const first = card.locator('[data-actions] button').first();
  await first.getByText('Mettre à jour le moyen de paiement').waitFor();
  const overflow = await card.evaluate((section) => {
    const inner =
      section.getBoundingClientRect().right - parseFloat(getComputedStyle(section).paddingRight);
    return [...section.querySelectorAll('[data-actions] button, .notice, .tag')]
      .map((node) => node.getBoundingClientRect().right - inner)
      .filter((past) => past > 0.5);
  });
  assert.deepEqual(overflow, [], 'nothing runs past the card’s padding');
  await screenshot(page, 'narrow-billing-suspended-fr');
});

test('the snippet builder refuses what is not an address and names features', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'starter-plan');
  await page.goto(`${e2e.demo.url}/app/embed`);
  const code = page.locator('[data-snippet]');
  await code.filter({ hasText: 'usage-meter' }).waitFor();

  // The features by their catalogue names; the meter's name field follows the feature.
  const feature = page.locator('select[name="attr:feature"]');
  await eventually(async () =>
    assert.ok((await feature.locator('option').allTextContents()).includes('Single sign-on')),
  );
  await feature.selectOption('sso');
  await eventually(async () =>
    assert.match((await code.textContent()) ?? '', /label="Single sign-on"/),
  );
  // Starter lacks single sign-on: the preview names it, not its key.
  const preview = page.frameLocator('iframe[data-preview]');
  await preview.getByText('Single sign-on: not included in your plan').waitFor();
  assert.equal(await preview.getByText('sso:').count(), 0);

  // An address that is not one: marked, said, and the snippet waits.
  const before = await code.textContent();
  const endpoint = page.locator('#endpoint');
  await endpoint.fill('not a url');
  assert.equal(await endpoint.getAttribute('aria-invalid'), 'true');
  assert.equal(await page.locator('#endpoint-error').isVisible(), true);
  assert.equal(await code.textContent(), before);
  assert.equal(await page.locator('[data-copy]').getAttribute('aria-disabled'), 'true');
  await screenshot(page, 'snippet-builder-invalid-address');

  // A path on the site is an address; the snippet follows it.
  await endpoint.fill('/billing');
  assert.equal(await endpoint.getAttribute('aria-invalid'), null);
  assert.match((await code.textContent()) ?? '', /endpoint="\/billing"/);
  assert.equal(await page.locator('[data-copy]').getAttribute('aria-disabled'), 'false');
});

// Every state of the portal <buy-feature>'s remedies open, of <billing-portal> and of the hosted
// pages shown there, screenshotted in each variant (states.ts): `STATES_VARIANTS=all
// STATES_LABEL=after node --import tsx --test test/e2e/portal-states.test.ts` for the full
// review set (eight variants), two variants otherwise. Contact sheets:
// test-results/screenshots/states/<label>/<state>.png. Each state is checked before it is saved
// (states.ts: visible, saying something, no overflow at 360 px, axe). <buy-feature>'s own
// states are in buy-states.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { demoForFile } from './helpers.js';
import {
  capture,
  checkAxe,
  eachVariant,
  frameSettled,
  STATES_LABEL,
  wanted,
  writeContactSheets,
} from './states.js';

const e2e = demoForFile();

const buyOf = (page: Page) => page.locator('#buy-seats buy-feature');

/** The modal portal a remedy opens (a <billing-portal> at the end of the body). */
function modal(page: Page): { dialog: Locator; hosted: FrameLocator } {
  return {
    dialog: page.locator('body > billing-portal dialog[open]'),
    hosted: page.frameLocator('body > billing-portal iframe'),
  };
}

/** Waits for the modal portal to show a hosted page's heading, or its own error. */
async function modalShown(page: Page): Promise<void> {
  const { dialog, hosted } = modal(page);
  await dialog.waitFor();
  await Promise.race([
    hosted.locator('h1').waitFor(),
    page.locator('body > billing-portal [part~="message"]').waitFor(),
  ]);
  await frameSettled(page.locator('body > billing-portal iframe'));
}

/** Opens the page's one remedy, whichever element of the page offers it. */
async function followRemedy(page: Page): Promise<void> {
  await page.locator('[part~="remedy"]').first().click();
  await modalShown(page);
}

test('a pending subscription, and the portal its remedy opens', async (t) => {
  if (!wanted('pending')) return t.skip();
  await eachVariant(e2e, 'pending', async (page, variant) => {
    await buyOf(page).locator('[part~="error"]').waitFor();
    await capture(page, variant, 'buy-pending', page.locator('#buy-seats'));
    await followRemedy(page);
    await capture(page, variant, 'portal-pending', 'viewport');
  });
  checkAxe();
});

test('no payment method: the refusal, the register page in the modal, its completion', async (t) => {
  if (!wanted('register')) return t.skip();
  await eachVariant(e2e, 'no-payment-method', async (page, variant) => {
    await buyOf(page).locator('[part~="error"]').waitFor();
    await capture(page, variant, 'buy-refusal-payment', page.locator('#buy-seats'));
    await followRemedy(page);
    await capture(page, variant, 'portal-register', 'viewport');
    const { hosted } = modal(page);
    await hosted.locator('input[name="cardHolder"]').fill('Nadia No-Card');
    await hosted.locator('input[name="cardNumber"]').fill('4242 4242 4242 4242');
    await hosted.locator('input[name="cardExpiry"]').fill('12/30');
    await hosted.locator('input[name="cardCvc"]').fill('123');
    await hosted.locator('button[type="submit"]').click();
    await hosted.locator('.alert.success').waitFor();
    await frameSettled(page.locator('body > billing-portal iframe'));
    await capture(page, variant, 'portal-register-done', 'viewport');
  });
  checkAxe();
});

test('a plan change from the refusal: the plans table and the switch', async (t) => {
  if (!wanted('plans')) return t.skip();
  await eachVariant(e2e, 'starter-plan', async (page, variant) => {
    await page.locator('[part~="remedy"]').first().waitFor();
    await followRemedy(page);
    await capture(page, variant, 'portal-plans', 'viewport');
    const { hosted } = modal(page);
    await hosted.locator('tr', { hasText: 'Pro' }).locator('button[type="submit"]').click();
    await hosted.locator('h1').waitFor();
    await frameSettled(page.locator('body > billing-portal iframe'));
    await capture(page, variant, 'portal-plan-switch', 'viewport');
  });
  checkAxe();
});

test('a suspended subscription: the restart page', async (t) => {
  if (!wanted('restart')) return t.skip();
  await eachVariant(e2e, 'suspended', async (page, variant) => {
    await buyOf(page).locator('[part~="error"]').waitFor();
    await followRemedy(page);
    await capture(page, variant, 'portal-restart', 'viewport');
  });
  checkAxe();
});

test('the customer portal page: the embedded portal and its plans table', async (t) => {
  if (!wanted('portal-page')) return t.skip();
  await eachVariant(e2e, 'healthy', async (page, variant) => {
    // Served in the variant's language: the portal's frame loads its home in it at once.
    await page.goto(`${e2e.demo.url}/app/portal?lang=${variant.lang}`);
    const portal = page.locator('billing-portal');
    const hosted = page.frameLocator('billing-portal iframe:visible');
    await hosted.locator('h1').waitFor();
    await frameSettled(page.locator('billing-portal iframe'));
    await capture(page, variant, 'billing-portal-home', page.locator('#portal'));
    // The portal's own way to change the plan, in its frame: the page around it has none.
    const changePlan = variant.lang === 'fr' ? 'Changer d’offre' : 'Change plan';
    await hosted.getByRole('link', { name: changePlan }).click();
    await hosted.locator('table').waitFor();
    await frameSettled(page.locator('billing-portal iframe'));
    await capture(page, variant, 'billing-portal-plans', portal);
  });
  checkAxe();
});

// Last, whatever failed before it: the states saved so far, gathered per state.
test('contact sheets of every state saved', async () => {
  const sheets = await writeContactSheets(e2e.browser);
  assert.ok(sheets.length > 0, 'no state was saved');
  console.log(`${sheets.length} contact sheets in test-results/screenshots/states/${STATES_LABEL}`);
});

// The states of changes beyond one purchase: a plan change with its credit, a scheduled
// downgrade and keeping the plan, the gate's pending and denied states, seats bought past the
// plan, an add-on owned and its removal. Each is checked and screenshotted on the demo in each
// variant (states.ts: light and dark, 1280 and 360 px, English and French;
// `STATES_VARIANTS=all STATES_LABEL=after node --import tsx --test test/e2e/change-states.test.ts`
// for all eight, two otherwise). Contact sheets: test-results/screenshots/states/<label>/<state>.png.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { demoForFile } from './helpers.js';
import {
  capture,
  checkAxe,
  eachVariant,
  setLang,
  STATES_LABEL,
  wanted,
  writeContactSheets,
} from './states.js';

const e2e = demoForFile();

/** The overview's card holding `selector` (a section, or the list item of a feature). */
const cardOf = (page: Page, selector: string): Locator =>
  page.locator('section.card', { has: page.locator(selector) }).first();

/** Goes to a page of the demo in the variant's language. */
async function visit(page: Page, path: string, lang: string): Promise<void> {
  await page.goto(`${e2e.demo.url}${path}`);
  await setLang(page, lang as 'en' | 'fr');
}

test('plans: an upgrade with its credit, a scheduled downgrade, keeping the plan', async (t) => {
  if (!wanted('eyes-plans')) return t.skip();
  await eachVariant(e2e, 'healthy', async (page, variant) => {
    await visit(page, '/app/plans', variant.lang);
    const picker = page.locator('plan-picker');
    await picker.locator('[data-offer="business"]').click();
    await picker.locator('dialog[open] [part~="details"]').waitFor();
    await capture(page, variant, 'eyes-upgrade-credit', 'viewport');
    await picker.locator('[part~="cancel"]').click();
    await picker.locator('dialog[open]').waitFor({ state: 'detached' });

    await picker.locator('[data-offer="starter"]').click();
    await picker.locator('dialog[open] [part~="confirm"]').click();
    await picker.locator('[part~="starts"]').waitFor();
    await capture(page, variant, 'eyes-plan-scheduled', picker);
    await picker.locator('[part~="keep"]').click();
    await picker.locator('dialog[open] [part~="confirm"]').waitFor();
    await capture(page, variant, 'eyes-plan-keep-dialog', 'viewport');
    await picker.locator('[part~="cancel"]').click();
    await picker.locator('dialog[open]').waitFor({ state: 'detached' });

    await visit(page, '/app/billing', variant.lang);
    const summary = page.locator('section', { has: page.locator('[data-summary]') }).first();
    await page.locator('[data-summary][aria-busy="false"]').waitFor();
    await capture(page, variant, 'eyes-billing-scheduled', summary);
  });
  checkAxe();
});

test('overview: a pending plan behind the gate', async (t) => {
  if (!wanted('eyes-gate')) return t.skip();
  await eachVariant(e2e, 'pending', async (page, variant) => {
    await page.locator('feature-gate[state="pending"]').first().waitFor({ state: 'attached' });
    await capture(page, variant, 'eyes-gate-pending', cardOf(page, '#features-heading'));
  });
  await eachVariant(e2e, 'starter-plan', async (page, variant) => {
    await page.locator('feature-gate[state="denied"]').first().waitFor({ state: 'attached' });
    await capture(page, variant, 'eyes-gate-denied', cardOf(page, '#sso-heading'));
  });
  checkAxe();
});

test('overview: seats filled and bought, then the control back to its start', async (t) => {
  if (!wanted('eyes-buy')) return t.skip();
  await eachVariant(e2e, 'healthy', async (page, variant) => {
    const buy = page.locator('#buy-seats buy-feature');
    await buy.locator('[part~="price-now"]').waitFor();
    // Three seats: two fill the plan's five, one is extra; Buy prices them at once, then asks.
    await buy.locator('[part~="input"]').fill('3');
    await buy.locator('[part~="buy"]').click();
    await buy.locator('dialog[open] [part~="confirm"]').click();
    await buy.locator('[part~="success"]').waitFor();
    await buy.locator('[part~="price-now"]').waitFor();
    await capture(page, variant, 'eyes-buy-after-success', page.locator('#buy-seats'));
    const meters = page.locator('section', { has: page.locator('#usage-heading') });
    await capture(page, variant, 'eyes-meters-extra', meters);
  });
  await eachVariant(e2e, 'unlimited', async (page, variant) => {
    await page.locator('#buy-seats buy-feature [part~="unlimited"]').waitFor();
    await capture(page, variant, 'eyes-buy-unlimited', page.locator('#buy-seats'));
    await page.locator('buy-feature [part~="add-on"][data-standing="included"]').waitFor();
    await capture(page, variant, 'eyes-add-on-included', cardOf(page, '#features-heading'));
  });
  checkAxe();
});

test('overview: an owned add-on, and its removal confirmed apart', async (t) => {
  if (!wanted('eyes-add-on')) return t.skip();
  await eachVariant(e2e, 'starter-plan', async (page, variant) => {
    const addOn = page.locator('buy-feature[feature="priority-support"]');
    await addOn.locator('[part~="add"][aria-disabled="false"]').click();
    await addOn.locator('dialog[open] [part~="confirm"]').click();
    await addOn.locator('[part~="add-on"][data-standing="owned"]').waitFor();
    await addOn.locator('[part~="remove"][aria-disabled="false"]').waitFor();
    await capture(page, variant, 'eyes-add-on-owned', cardOf(page, '#features-heading'));
    await addOn.locator('[part~="remove"]').click();
    await addOn.locator('dialog[open] [part~="confirm"]').waitFor();
    await capture(page, variant, 'eyes-add-on-remove-dialog', 'viewport');
  });
  checkAxe();
});

test('contact sheets of the change states', async () => {
  const sheets = await writeContactSheets(e2e.browser);
  assert.ok(sheets.length > 0, 'no state was saved');
  console.log(`${sheets.length} contact sheets in test-results/screenshots/states/${STATES_LABEL}`);
});

// Every state of <buy-feature>, screenshotted in each variant (states.ts): `STATES_VARIANTS=all
// STATES_LABEL=after node --import tsx --test test/e2e/buy-states.test.ts` for the full review
// set (eight variants), two variants otherwise. Contact sheets:
// test-results/screenshots/states/<label>/<state>.png. The steps only wait for what every
// version shows (parts, dialogs, hosted headings), so the same file captures a "before" and an
// "after" set. Each state is checked before it is saved (states.ts: visible, saying something,
// no overflow at 360 px, axe). The portal's states are in portal-states.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { demoForFile } from './helpers.js';
import {
  capture,
  checkAxe,
  eachVariant,
  settle,
  STATES_LABEL,
  wanted,
  writeContactSheets,
} from './states.js';

const e2e = demoForFile();

const buyOf = (page: Page) => page.locator('#buy-seats buy-feature');

/** Types a quantity as a person does and waits for its price (or its refusal) to settle. */
async function typeQuantity(buy: Locator, value: string): Promise<void> {
  await buy.locator('[part~="input"]').fill(value);
  await settle(buy.page());
}

test('buy-feature: prices, focus, dialog, invalid and empty quantities, success', async (t) => {
  if (!wanted('buy')) return t.skip();
  await eachVariant(e2e, 'healthy', async (page, variant) => {
    const card = page.locator('#buy-seats');
    const buy = buyOf(page);
    await buy.locator('[part~="price-now"]').waitFor();
    await capture(page, variant, 'buy-priced-included', card);

    // Three seats: two fit in the five of the plan, one is extra.
    await typeQuantity(buy, '3');
    await capture(page, variant, 'buy-priced-split', card);
    await page.keyboard.press('Tab');
    await capture(page, variant, 'buy-focus', card);
    await page.keyboard.press('Enter');
    await buy.locator('dialog[open]').waitFor();
    await capture(page, variant, 'buy-dialog-split', 'viewport');
    await page.keyboard.press('Escape');
    await buy.locator('dialog[open]').waitFor({ state: 'detached' });

    await typeQuantity(buy, '0');
    await capture(page, variant, 'buy-invalid', card);
    await typeQuantity(buy, '');
    await capture(page, variant, 'buy-empty', card);

    // Two free seats, then one paid: the dialog names one seat.
    await typeQuantity(buy, '2');
    await buy.locator('[part~="buy"]').click();
    await buy.locator('dialog[open] [part~="confirm"]').click();
    await buy.locator('[part~="success"]').waitFor();
    await capture(page, variant, 'buy-success', card);
    await typeQuantity(buy, '1');
    await buy.locator('[part~="buy"]').click();
    await buy.locator('dialog[open]').waitFor();
    await capture(page, variant, 'buy-dialog-one', 'viewport');
  });
  checkAxe();
});

test('buy-feature: a discounted price in the dialog', async (t) => {
  if (!wanted('discount')) return t.skip();
  await eachVariant(e2e, 'discounted', async (page, variant) => {
    const buy = buyOf(page);
    await buy.locator('[part~="price-now"]').waitFor();
    await typeQuantity(buy, '3');
    await buy.locator('[part~="buy"]').click();
    await buy.locator('dialog[open]').waitFor();
    await capture(page, variant, 'buy-dialog-discount', 'viewport');
  });
  checkAxe();
});

test('a buy control on an on/off feature, a setup mistake: an unknown portal page', async (t) => {
  if (!wanted('setup')) return t.skip();
  await eachVariant(e2e, 'healthy', async (page, variant) => {
    await buyOf(page).locator('[part~="price-now"]').waitFor();
    await page.evaluate(() => {
      const card = document.querySelector('#buy-seats')!;
      const onOff = document.createElement('buy-feature');
      onOff.id = 'on-off';
      onOff.setAttribute('feature', 'sso');
      card.append(onOff);
      const portal = document.createElement('billing-portal');
      portal.id = 'unknown-page';
      portal.setAttribute('page', 'invoices');
      card.append(portal);
    });
    // An on/off feature is its add-on: on Pro, single sign-on is included.
    await page.locator('#on-off [part~="add-on-text"]').waitFor();
    await capture(page, variant, 'buy-on-off', page.locator('#on-off'));
    await page.locator('#unknown-page [part~="message"]').waitFor();
    await capture(page, variant, 'portal-unknown-page', page.locator('#unknown-page'));
  });
  checkAxe();
});

// Last, whatever failed before it: the states saved so far, gathered per state.
test('contact sheets of every state saved', async () => {
  const sheets = await writeContactSheets(e2e.browser);
  assert.ok(sheets.length > 0, 'no state was saved');
  console.log(`${sheets.length} contact sheets in test-results/screenshots/states/${STATES_LABEL}`);
});

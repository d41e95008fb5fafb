// Every refusal of the billing service as the customer meets it in the demo, and its remedy
// followed through the portal's hosted pages until the purchase goes through.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import {
  assertAccessible,
  CHARGED,
  eventually,
  meterFigures,
  pageErrors,
  quantityOf,
  type SandboxCustomer,
  screenshot,
  demoForFile,
  buyFree,
  PHONE,
} from './helpers.js';

const e2e = demoForFile();

/**
 * The portal the elements open in a dialog when the page has no <billing-portal>: a
 * <billing-portal> at the end of the body, its dialog in its shadow root, and the hosted page
 * in its light-DOM container (slotted into the dialog).
 */
function portalDialog(page: Page): { dialog: Locator; hosted: FrameLocator } {
  const dialog = page.locator('body > billing-portal').getByRole('dialog');
  return { dialog, hosted: page.frameLocator('body > billing-portal iframe') };
}

/** Buys `quantity` seats through the confirmation dialog; the meter then shows `expectedTotal`. */
async function buySeats(page: Page, quantity: number, expectedTotal: number): Promise<void> {
  const buy = page.locator('buy-feature[feature="seats"]');
  await buy.getByRole('spinbutton').fill(String(quantity));
  await buy.locator('[part~="price-now"]').filter({ hasText: CHARGED }).waitFor();
  await buy.getByRole('button', { name: 'Buy' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm your purchase' });
  await confirm.locator('[part~="confirm"]').click();
  await buy.getByText(`Done. You now have ${expectedTotal} seats.`).waitFor();
  await eventually(async () => {
    assert.equal((await meterFigures(page, 'seats')).used, String(expectedTotal));
  });
}

/**
 * The remedied customer now has six seats and exactly one invoice more than `before` (the
 * purchase's), and the page logged no error; closes the page.
 */
async function assertSixSeatsOneInvoice(
  page: Page,
  reference: string,
  before: SandboxCustomer,
): Promise<void> {
  const afterPurchase = await e2e.customer(reference);
  assert.equal(quantityOf(afterPurchase, 'seats'), 6);
  assert.equal(afterPurchase.invoices.length, before.invoices.length + 1);
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
}

test('no payment method: the refusal offers to add one, then the purchase goes through', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'no-payment-method');
  const buy = page.locator('buy-feature[feature="seats"]');
  // All five seats are used, so one more costs something: refused without a payment method.
  const refusal = buy.locator('[part~="error"]');
  await refusal.getByText('Add a payment method to make this change.').waitFor();
  await assertAccessible(page, 'the payment-method refusal');
  await screenshot(page, 'refusal-no-payment-method', { fullPage: false });

  await refusal.getByRole('button', { name: 'Add a payment method' }).click();
  const { dialog, hosted } = portalDialog(page);
  await hosted
    .getByRole('heading', { level: 1, name: 'Contact details and payment method' })
    .waitFor();
  await hosted.getByLabel('Name on card').fill('Nadia No-Card');
  await hosted.getByLabel('Card number').fill('4242 4242 4242 4242');
  await hosted.getByLabel('Expiry (MM/YY)').fill('12/30');
  await hosted.getByLabel('Security code').fill('123');
  await screenshot(page, 'remedy-register', { fullPage: false });
  await hosted.getByRole('button', { name: 'Save' }).click();
  await hosted.getByText(/saved/i).first().waitFor();
  assert.equal((await e2e.customer('no-payment-method')).paymentMethod, 'valid');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await dialog.waitFor({ state: 'hidden' });

  const before = await e2e.customer('no-payment-method');
  await buySeats(page, 1, 6);
  await assertSixSeatsOneInvoice(page, 'no-payment-method', before);
});

test('capping reached: settle the invoices, restart the subscription, then buy', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'capping-reached');
  const start = await e2e.customer('capping-reached');
  assert.equal(start.isPaymentCappingReached, true);
  const buy = page.locator('buy-feature[feature="seats"]');
  const refusal = buy.locator('[part~="error"]');
  await refusal.getByRole('button', { name: 'Pay overdue invoices' }).waitFor();
  await screenshot(page, 'refusal-capping-reached', { fullPage: false });

  await refusal.getByRole('button', { name: 'Pay overdue invoices' }).click();
  const { dialog, hosted } = portalDialog(page);
  // The proxy lists the due invoices, so the remedy opens the payment of the oldest one.
  await hosted.getByRole('heading', { level: 1, name: 'Pay an invoice' }).waitFor();
  await assertAccessible(page, 'the charge page in the portal dialog');
  await screenshot(page, 'remedy-charge', { fullPage: false });
  await hosted.getByRole('button', { name: /^Pay \$/ }).click();
  await hosted.getByText('Thank you, the invoice is paid.').waitFor();
  // The page stays about paying while an overdue invoice is left: the next one, then the restart.
  assert.equal(await hosted.getByRole('link', { name: 'Restart subscription' }).count(), 0);
  await hosted.getByRole('link', { name: /^Pay invoice / }).click();
  await hosted.getByRole('button', { name: /^Pay \$/ }).click();
  await hosted.getByText('Thank you, the invoice is paid.').waitFor();
  await hosted.getByRole('link', { name: 'Restart subscription' }).click();
  await hosted.getByRole('heading', { level: 1, name: 'Restart your subscription' }).waitFor();
  await hosted.getByRole('button', { name: /Restart/ }).click();
  await hosted.getByText('Your subscription is active again.').waitFor();
  await screenshot(page, 'remedy-restarted', { fullPage: false });
  await dialog.getByRole('button', { name: 'Done' }).click();
  await dialog.waitFor({ state: 'hidden' });

  const restarted = await e2e.customer('capping-reached');
  assert.equal(restarted.isPaymentCappingReached, false);
  assert.equal(restarted.subscriptions[0]?.StateSubscription, 'Running');
  assert.equal(restarted.invoices.filter((invoice) => invoice.StateInvoice === 'Paid').length, 2);
  // Two seats of five are used: the third is free, so buy up to the limit and one beyond.
  await buyFree(buy, 'Done. You now have 5 seats.', 3);
  await buySeats(page, 1, 6);
  await assertSixSeatsOneInvoice(page, 'capping-reached', restarted);
});

test('capping reached: every page offers to pay the overdue invoices first, never a restart', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'capping-reached');
  // Plans: the picker's notice says to pay first, its button settles the invoices.
  await page.goto(`${e2e.demo.url}/app/plans`);
  const notice = page.locator('plan-picker [part~="notice"]');
  await notice.getByText('invoices are overdue. Pay them, then restart').waitFor();
  assert.equal(await notice.getByRole('button', { name: 'Restart subscription' }).count(), 0);
  await notice.getByRole('button', { name: 'Pay overdue invoices' }).waitFor();
  // Overview: single sign-on is paused, said once: the features list in a word, the SSO
  // settings' gate with the reason; the page offers the payment once, and the gate points to it.
  await page.goto(`${e2e.demo.url}/app/`);
  const gates = page.locator('feature-gate[feature="sso"]');
  await gates
    .first()
    .locator('usage-meter[slot="fallback"] [part~="state"]')
    .getByText('Included, paused while suspended')
    .waitFor();
  const gate = gates.last();
  await gate.getByText('paused while your subscription is suspended').waitFor();
  assert.equal(
    await page
      .getByText('paused while your subscription is suspended')
      .filter({ visible: true })
      .count(),
    1,
  );
  await gate.getByRole('button', { name: 'See what to do' }).waitFor();
  await page.getByRole('button', { name: 'Pay overdue invoices' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Pay overdue invoices' }).count(), 1);
  assert.equal(await page.getByText('Single sign-on is on for').isVisible(), false);
  // Billing: the invoices' Pay buttons lead; the summary offers no restart yet.
  await page.goto(`${e2e.demo.url}/app/billing`);
  await page
    .locator('billing-history')
    .getByRole('button', { name: /^Pay \$49\.00 for invoice/ })
    .first()
    .waitFor();
  await page.locator('[data-summary][aria-busy="false"]').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Restart subscription' }).count(), 0);
  // The customer portal page: the service's portal home says the same, in its own words.
  await page.goto(`${e2e.demo.url}/app/portal`);
  const portal = page.frameLocator('billing-portal iframe:visible');
  await portal.getByText('Some invoices are overdue. Pay them, then restart.').waitFor();
  await portal.getByRole('link', { name: 'Pay overdue invoices' }).waitFor();
  assert.equal(await portal.getByRole('link', { name: 'Restart subscription' }).count(), 0);
  await page.context().close();
});

test('capping reached: the billing page lists the invoices once, each overdue one with its Pay', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'capping-reached');
  await page.goto(`${e2e.demo.url}/app/billing`);
  const history = page.locator('billing-history');
  await history.getByRole('table', { name: 'Invoices' }).waitFor();
  const pays = history.getByRole('button', { name: /^Pay \$49\.00 for invoice INV-/ });
  await pays.first().waitFor();
  assert.equal(await pays.count(), 2);
  await history
    .getByText(
      'Your subscription is suspended because invoices are overdue: pay them, then restart it.',
    )
    .waitFor();
  // Told once: the summary above says what is due now, not the invoices again.
  assert.equal(await page.locator('[data-summary]').getByRole('button').count(), 0);
  // The invoices are the cause: the subscription card offers no payment method.
  assert.equal(
    await page
      .getByRole('region', { name: 'Subscription' })
      .getByRole('button', { name: 'Update payment method' })
      .count(),
    0,
  );
  assert.equal(
    await page
      .locator('[data-summary]')
      .getByText(/overdue/i)
      .count(),
    0,
  );
  await assertAccessible(page, 'the billing page with overdue invoices');
  await screenshot(page, 'billing-invoices-to-pay', { fullPage: false });
  await page.context().close();
});

test('suspended for a dead card: the billing and portal pages lead with the payment method', async () => {
  const page = await e2e.newPage({ viewport: { width: 1280, height: 900 } });
  await e2e.signIn(page, 'suspended');
  await page.goto(`${e2e.demo.url}/app/billing`);
  const summary = page.getByRole('region', { name: 'Subscription' });
  // The cause is named, and the step that must come first leads: a restart would be refused.
  await summary
    .getByText(
      'Your subscription is suspended because your payment method no longer works: update it first, then restart your subscription.',
    )
    .waitFor();
  // Only the step that can succeed is offered: no restart until the card is replaced.
  const buttons = summary.locator('[data-actions] button');
  assert.deepEqual(await buttons.allTextContents(), ['Update payment method']);
  assert.deepEqual(await buttons.evaluateAll((all) => all.map((b) => b.className)), ['button']);
  // Told once: the seats card says what it waits for, and points to the card's button (the
  // page marks it as its call to action for the payment method).
  const seats = page.locator('buy-feature[feature="seats"]');
  await seats.locator('[part~="waits"]').getByText('Needs a working payment method.').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Update payment method' }).count(), 1);
  await seats.getByRole('button', { name: 'See what to do' }).click();
  await eventually(async () => {
    assert.equal(
      await buttons.first().evaluate((button) => button === document.activeElement),
      true,
    );
  });
  await assertAccessible(page, 'the billing page suspended for a dead card');
  await screenshot(page, 'billing-suspended-card');

  // The customer portal page: the service's portal home names the cause and leads the same way.
  const portalPage = await page.context().newPage();
  await portalPage.goto(`${e2e.demo.url}/app/portal`);
  const home = portalPage.frameLocator('billing-portal iframe:visible');
  await home.getByText('Your payment method no longer works: update it to restart.').waitFor();
  const links = home.locator('.actions a');
  assert.deepEqual((await links.allTextContents()).slice(0, 2), [
    'Update payment method',
    'Restart subscription',
  ]);
  assert.deepEqual((await links.evaluateAll((all) => all.map((a) => a.className))).slice(0, 2), [
    'button',
    'button quiet',
  ]);
  await assertAccessible(portalPage, 'the customer portal page suspended for a dead card');
  await portalPage.close();

  // The card replaced (in the modal portal the summary's button opens), the summary offers the
  // restart, and it leads.
  await buttons.getByText('Update payment method').click();
  const { dialog, hosted: portal } = portalDialog(page);
  await portal
    .getByRole('heading', { level: 1, name: 'Contact details and payment method' })
    .waitFor();
  await portal.getByLabel('Name on card').fill('Sam Suspended');
  await portal.getByLabel('Card number').fill('4242 4242 4242 4242');
  await portal.getByLabel('Expiry (MM/YY)').fill('12/30');
  await portal.getByLabel('Security code').fill('123');
  await portal.getByRole('button', { name: 'Save' }).click();
  await portal.getByText('Your details and payment method are saved.').waitFor();
  await dialog.getByRole('button', { name: /^(Done|Close)$/ }).click();
  await dialog.waitFor({ state: 'hidden' });
  await eventually(async () => {
    assert.deepEqual(await buttons.allTextContents(), ['Restart subscription']);
  });
  assert.deepEqual(await buttons.evaluateAll((all) => all.map((b) => b.className)), ['button']);
  await page.context().close();
});

test('no payment method: the billing page asks to add one, in the elements’ words', async () => {
  const page = await e2e.newPage({ viewport: { width: 1280, height: 900 } });
  await e2e.signIn(page, 'no-payment-method');
  for (const [lang, add, change, waits] of [
    ['en', 'Add a payment method', 'Change plan', 'Needs a payment method.'],
    ['fr', 'Ajouter un moyen de paiement', 'Changer d’offre', 'Nécessite un moyen de paiement.'],
  ] as const) {
    await page.goto(`${e2e.demo.url}/app/billing?lang=${lang}`);
    // A running subscription without a card on file: nothing to update, one to add. The card
    // takes the verb from the elements' own cause table, once the seats control learned it.
    // Adding it is the remedy, so it leads (the filled button); changing the plan is quiet.
    const buttons = page.locator('[data-actions] button');
    await eventually(async () => {
      assert.deepEqual(await buttons.allTextContents(), [add, change]);
      assert.deepEqual(await buttons.evaluateAll((all) => all.map((button) => button.className)), [
        'button',
        'button quiet',
      ]);
    });
    const seats = page.locator('buy-feature[feature="seats"] [part~="waits"]');
    await seats.getByText(waits).waitFor();
    assert.doesNotMatch((await seats.textContent()) ?? '', /working|valide/);
    await screenshot(page, `billing-no-payment-method-${lang}`);
  }
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

test('suspended for a dead card: the elements name it, a new card, a restart, then a purchase', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'suspended');
  await page.getByRole('banner').getByText('Pro · Suspended').waitFor();
  const refusal = page.locator('buy-feature[feature="seats"] [part~="error"]');
  // The cause, and the remedy that works first: a restart would only be refused.
  await refusal
    .getByText(
      'Your subscription is suspended: your payment method no longer works. Update it, then restart your subscription.',
    )
    .waitFor();
  await assertAccessible(page, 'the suspension for a dead card');
  await screenshot(page, 'refusal-payment-method-invalid', { fullPage: false });
  await refusal.getByRole('button', { name: 'Update payment method' }).click();
  const { dialog, hosted } = portalDialog(page);
  await hosted
    .getByRole('heading', { level: 1, name: 'Contact details and payment method' })
    .waitFor();
  await hosted.getByLabel('Name on card').fill('Sam Suspended');
  await hosted.getByLabel('Card number').fill('4242 4242 4242 4242');
  await hosted.getByLabel('Expiry (MM/YY)').fill('12/30');
  await hosted.getByLabel('Security code').fill('123');
  await hosted.getByRole('button', { name: 'Save' }).click();
  await hosted.getByText('Your details and payment method are saved.').waitFor();
  // Nothing restarts by itself: the saved card's page offers the restart.
  await hosted.getByRole('link', { name: 'Restart subscription' }).click();
  await hosted.getByRole('heading', { level: 1, name: 'Restart your subscription' }).waitFor();
  await screenshot(page, 'remedy-restart', { fullPage: false });
  await hosted.getByRole('button', { name: 'Restart now' }).click();
  await hosted.getByText('Your subscription is active again.').waitFor();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByRole('banner').getByText('Pro · Active').waitFor();

  const restarted = await e2e.customer('suspended');
  assert.equal(restarted.subscriptions[0]?.StateSubscription, 'Running');
  assert.equal(restarted.paymentMethod, 'valid');
  // Four of five seats are used: two more cost one seat beyond the plan.
  await buySeats(page, 2, 6);
  await assertSixSeatsOneInvoice(page, 'suspended', restarted);
});

test('feature not in the plan: changing plan from the refusal makes seats buyable', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'starter-plan');
  const meter = page.locator('usage-meter[feature="seats"]');
  await meter.locator('[part~="message"]').waitFor();
  // The page offers the change once, from its first element (the seats meter), naming the
  // least expensive plan that includes seats; the buy control beside it says why it waits and
  // points there.
  const refusal = meter;
  await refusal.getByText('Seats: not included in your plan; included in Pro.').waitFor();
  await refusal.getByRole('button', { name: 'Switch to Pro' }).waitFor();
  await page
    .locator('buy-feature[feature="seats"] [part~="waits"]')
    .getByText('Not included in your plan.')
    .waitFor();
  assert.equal(await page.getByRole('button', { name: 'Switch to Pro' }).count(), 1);
  await assertAccessible(page, 'the not-in-plan state');
  await screenshot(page, 'refusal-not-in-plan', { fullPage: false });
  await refusal.getByRole('button', { name: 'Switch to Pro' }).click();
  const { dialog, hosted } = portalDialog(page);
  await hosted.getByRole('heading', { level: 1, name: 'Change plan' }).waitFor();
  await hosted.getByRole('button', { name: 'Switch Pro' }).click();
  // A paid switch is confirmed at its price first.
  await hosted.getByRole('heading', { level: 1, name: 'Confirm the change' }).waitFor();
  await hosted.getByRole('button', { name: /^Confirm and pay \$/ }).click();
  await hosted.getByText('Your plan has been changed.').waitFor();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await dialog.waitFor({ state: 'hidden' });

  // On Pro, seats are part of the plan: the meter appears and two seats fit in it.
  await page.getByRole('banner').getByText('Pro · Active').waitFor();
  await eventually(async () => {
    assert.equal((await meterFigures(page, 'seats')).total, '5');
  });
  const buy = page.locator('buy-feature[feature="seats"]');
  await buyFree(buy, 'Done. You now have 2 seats.', 2);
  const customer = await e2e.customer('starter-plan');
  assert.equal(customer.subscriptions[0]?.ReferenceOffer, 'pro');
  assert.equal(quantityOf(customer, 'seats'), 2);
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

test('unlimited access: the meters say so and there are no seats to buy', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'unlimited');
  await page.locator('usage-meter[feature="seats"] [part~="unlimited"]').waitFor();
  // No "Buy 1 seat · $0.00": nothing needs buying.
  const buy = page.locator('buy-feature[feature="seats"]');
  await buy.getByText('Seats: unlimited in your plan, nothing to buy.').waitFor();
  assert.equal(await buy.getByRole('spinbutton').count(), 0);
  assert.equal(await buy.getByRole('button').count(), 0);
  const customer = await e2e.customer('unlimited');
  assert.equal(quantityOf(customer, 'seats'), 42);
  assert.equal(customer.invoices.length, 0);
  await screenshot(page, 'unlimited', { fullPage: false });
  await page.context().close();
});

test('a pending subscription is completed, and a customer without one picks a plan, from the billing page', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'pending');
  await page.goto(`${e2e.demo.url}/app/billing`);
  const summary = page.getByRole('region', { name: 'Subscription' });
  // Told once: the seats card waits for the subscription, the card above completes it.
  await page
    .locator('buy-feature[feature="seats"] [part~="waits"]')
    .getByText('Available once your subscription is complete.')
    .waitFor();
  assert.equal(await page.getByRole('button', { name: 'Complete your subscription' }).count(), 1);
  await summary.getByRole('button', { name: 'Complete your subscription' }).click();
  const { hosted: portal } = portalDialog(page);
  await portal.getByRole('heading', { level: 1, name: 'Complete your subscription' }).waitFor();
  await assertAccessible(page, 'the page to complete a subscription');
  assert.deepEqual(pageErrors(page), [], "errors in the page's console");
  await screenshot(page, 'billing-pending');
  await page.context().close();

  const other = await e2e.newPage();
  await e2e.signIn(other, 'no-subscription');
  await other.goto(`${e2e.demo.url}/app/billing`);
  const noPlan = other.getByRole('region', { name: 'Subscription' });
  // One way to the plans on the page: the summary's; the seats control waits and points there.
  await other
    .locator('buy-feature[feature="seats"]')
    .getByRole('button', { name: 'See what to do' })
    .waitFor();
  assert.equal(
    await other.getByRole('button', { name: /^(Choose a plan|See plans|Change plan)$/ }).count(),
    1,
  );
  await noPlan.getByRole('button', { name: 'Choose a plan' }).click();
  await portalDialog(other)
    .hosted.getByRole('heading', { level: 1, name: 'Choose a plan' })
    .waitFor();
  await assertAccessible(other, 'the plans page');
  assert.deepEqual(pageErrors(other), [], "errors in the page's console");
  await screenshot(other, 'billing-choose-plan');
  await other.context().close();
});

test('at 360 px the portal is a sheet, its plans fit, its look is the page’s', async () => {
  const page = await e2e.newPage({ ...PHONE, colorScheme: 'dark' });
  await e2e.signIn(page, 'starter-plan');
  await page.getByRole('button', { name: 'Switch to Pro' }).click();
  const { dialog, hosted } = portalDialog(page);
  await hosted.getByRole('heading', { level: 1, name: 'Change plan' }).waitFor();
  // A bottom sheet as wide as the window (the demo's own page is what sets that width).
  const sheet = await dialog.boundingBox();
  const windowWidth = await page.evaluate(() => window.innerWidth);
  assert.equal(Math.round(sheet!.x), 0);
  assert.equal(Math.round(sheet!.width), windowWidth);
  const frame = page.frames().find((candidate) => candidate.url().includes('/hosted/upgrade/'))!;
  // Nothing of the plans table is cut off at the right.
  const overflow = await frame.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  assert.ok(overflow <= 0, `the hosted page is ${overflow}px wider than its frame`);
  // The demo follows the system's scheme (dark here): so do the elements and the hosted page,
  // with the demo's accent.
  assert.equal(await frame.evaluate(() => document.documentElement.dataset.theme), 'dark');
  const accent = await frame.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue('--accent').trim(),
  );
  assert.notEqual(accent, '#8ea2f2', 'the page’s accent, not the hosted pages’ own');
  await assertAccessible(page, 'the plans at 360 px in dark mode');
  await screenshot(page, 'portal-plans-phone-dark', { fullPage: false });
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

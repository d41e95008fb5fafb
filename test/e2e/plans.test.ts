// The demo's Plans page and the overview's gated SSO card, in Chromium: a plan change confirmed
// in the dialog and applied once, axe clean, screenshots light and dark at 1280 and 360 px.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  assertAccessible,
  demoForFile,
  eventually,
  pageErrors,
  resetSandbox,
  screenshot,
} from './helpers.js';

const e2e = demoForFile();

describe('demo: plans', () => {
  it('changes plan through the Plans page, once, after the confirmation', async () => {
    await resetSandbox(e2e.demo);
    const page = await e2e.newPage({ viewport: { width: 1280, height: 900 } });
    await e2e.signIn(page, 'healthy');
    await page.goto(`${e2e.demo.url}/app/plans`);
    await page.locator('plan-picker [part~="offer"]').first().waitFor();
    await assertAccessible(page, 'the Plans page');
    await screenshot(page, 'plans-light-1280');
    await page.locator('plan-picker [data-offer="business"]').click();
    await page.locator('plan-picker [part~="confirm"]').waitFor();
    await assertAccessible(page, 'the plan change dialog');
    await screenshot(page, 'plans-dialog-light-1280', { fullPage: false });
    await page.locator('plan-picker [part~="confirm"]').dblclick();
    await page.locator('plan-picker [part~="success"]').waitFor();
    const customer = await e2e.customer('healthy');
    const running = customer.subscriptions.find((s) => s.StateSubscription === 'Running') as
      { ReferenceOffer?: string } | undefined;
    assert.equal(running?.ReferenceOffer, 'business');
    assert.deepEqual(pageErrors(page), []);
    await page.context().close();
  });

  it('a checkout left open shows the refusal when seen again, once a plan started elsewhere', async () => {
    await resetSandbox(e2e.demo);
    const page = await e2e.newPage({ viewport: { width: 1280, height: 900 } });
    await e2e.signIn(page, 'no-subscription');
    await page.goto(`${e2e.demo.url}/app/plans`);
    // This tab opens the checkout of Starter, and leaves it.
    await page.locator('plan-picker').getByRole('button', { name: 'Subscribe to Starter' }).click();
    const hosted = page.frameLocator('body > billing-portal iframe');
    await hosted.getByRole('heading', { level: 1, name: 'Subscribe to Starter' }).waitFor();

    // Another tab of the same session subscribes to Pro.
    const other = await page.context().newPage();
    await other.goto(`${e2e.demo.url}/app/plans`);
    await other.locator('plan-picker').getByRole('button', { name: 'Subscribe to Pro' }).click();
    const otherHosted = other.frameLocator('body > billing-portal iframe');
    await otherHosted.getByLabel('Name on card').fill('Noah No-Plan');
    await otherHosted.getByLabel('Card number').fill('4242 4242 4242 4242');
    await otherHosted.getByLabel('Expiry (MM/YY)').fill('12/30');
    await otherHosted.getByLabel('Security code').fill('123');
    await otherHosted.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await otherHosted.getByText('Your subscription is active.').waitFor();
    await other.close();

    // Back to the first tab: its checkout is seen again (the page comes back into view), and the
    // refusal replaces the form before any card is typed; nothing was posted.
    const frame = page.frames().find((candidate) => candidate.url().includes('/subscribe'));
    assert.ok(frame, 'the checkout frame');
    await frame.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await hosted
      .getByText(
        'You already have the Pro plan. Change plan rather than start a second subscription.',
      )
      .waitFor();
    assert.equal(await hosted.getByLabel('Card number').count(), 0);
    assert.equal(await hosted.getByRole('button', { name: 'Subscribe', exact: true }).count(), 0);
    await hosted.getByRole('link', { name: 'Change plan' }).waitFor();
    await screenshot(page, 'checkout-rechecked', { fullPage: false });
    const customer = await e2e.customer('no-subscription');
    assert.deepEqual(
      customer.subscriptions.map((s) => s.ReferenceOffer),
      ['pro'],
    );
    assert.deepEqual(pageErrors(page), []);
    await page.context().close();
  });

  it('subscribes once through the portal; the picker then offers changes, never a second subscription', async () => {
    await resetSandbox(e2e.demo);
    const page = await e2e.newPage({ viewport: { width: 1280, height: 900 } });
    await e2e.signIn(page, 'no-subscription');
    await page.goto(`${e2e.demo.url}/app/plans`);
    const picker = page.locator('plan-picker');
    await picker.getByRole('button', { name: 'Subscribe to Pro' }).click();
    const dialog = page.locator('body > billing-portal').getByRole('dialog');
    const hosted = page.frameLocator('body > billing-portal iframe');
    await hosted.getByRole('heading', { level: 1, name: 'Subscribe to Pro' }).waitFor();
    await hosted.getByLabel('Name on card').fill('Noah No-Plan');
    await hosted.getByLabel('Card number').fill('4242 4242 4242 4242');
    await hosted.getByLabel('Expiry (MM/YY)').fill('12/30');
    await hosted.getByLabel('Security code').fill('123');
    await hosted.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await hosted.getByText('Your subscription is active.').waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The picker has followed the change without a reload: Pro is the current plan, and the
    // other plans are changes of it.
    await picker.locator('[data-offer-card="pro"][data-current]').waitFor({ timeout: 5000 });
    await picker.getByRole('button', { name: 'Switch to Business' }).waitFor();
    assert.equal(await picker.getByRole('button', { name: /^Subscribe to/ }).count(), 0);
    assert.equal(await picker.getByText('No plan yet. Choose one to subscribe.').count(), 0);
    const customer = await e2e.customer('no-subscription');
    assert.deepEqual(
      customer.subscriptions.map((s) => [s.ReferenceOffer, s.StateSubscription]),
      [['pro', 'Running']],
    );
    assert.equal(customer.invoices.length, 1);
    assert.deepEqual(pageErrors(page), []);
    await page.context().close();
  });

  it('says a scheduled downgrade on the Plans and Billing pages, and keeps the plan', async () => {
    await resetSandbox(e2e.demo);
    const page = await e2e.newPage({ viewport: { width: 1280, height: 900 } });
    await e2e.signIn(page, 'healthy');
    await page.goto(`${e2e.demo.url}/app/plans`);
    await page.locator('plan-picker [data-offer="starter"]').click();
    await page.locator('plan-picker [part~="confirm"]').click();
    const notice = page.locator('plan-picker [part~="scheduled"]');
    await notice.waitFor();
    assert.match((await notice.textContent()) ?? '', /Your plan changes to Starter on December/);
    await page.locator('plan-picker [part~="starts"]').waitFor();
    await assertAccessible(page, 'the Plans page with a downgrade scheduled');
    await screenshot(page, 'plans-scheduled-light-1280');
    // The Billing page says the change, not "Renews on" as if nothing changed.
    await page.goto(`${e2e.demo.url}/app/billing`);
    const facts = page.locator('[data-summary] .facts');
    await eventually(async () =>
      assert.match((await facts.textContent()) ?? '', /Changes to Starter on/),
    );
    assert.doesNotMatch((await facts.textContent()) ?? '', /Renews/);
    await screenshot(page, 'billing-scheduled-light-1280');
    // Keep Pro from the Plans page: the Billing page renews again.
    await page.goto(`${e2e.demo.url}/app/plans`);
    await page.locator('plan-picker [part~="keep"]').click();
    await page.locator('plan-picker [part~="confirm"]').click();
    await page.locator('plan-picker [part~="success"]').getByText('You stay on Pro').waitFor();
    await page.goto(`${e2e.demo.url}/app/billing`);
    await eventually(async () => assert.match((await facts.textContent()) ?? '', /Renews on/));
    const customer = await e2e.customer('healthy');
    const running = customer.subscriptions.find((s) => s.StateSubscription === 'Running') as
      { ReferenceOffer?: string; ReferenceOfferAfterTerm?: string } | undefined;
    assert.deepEqual(
      [running?.ReferenceOffer, running?.ReferenceOfferAfterTerm],
      ['pro', undefined],
    );
    assert.deepEqual(pageErrors(page), []);
    await page.context().close();
  });

  it('looks right dark and at 360 px, and gates the SSO card', async () => {
    await resetSandbox(e2e.demo);
    const page = await e2e.newPage({
      viewport: { width: 360, height: 800 },
      colorScheme: 'dark',
    });
    await e2e.signIn(page, 'starter-plan');
    await page.goto(`${e2e.demo.url}/app/plans`);
    await page.locator('plan-picker [part~="offer"]').first().waitFor();
    await screenshot(page, 'plans-dark-360');
    await page.goto(`${e2e.demo.url}/app/`);
    const gate = page.getByRole('region', { name: 'SSO settings' }).locator('feature-gate');
    await eventually(async () => assert.equal(await gate.getAttribute('state'), 'denied'));
    await assertAccessible(page, 'the overview with the SSO gate closed');
    await screenshot(page, 'overview-gate-dark-360');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${e2e.demo.url}/app/plans`);
    await page.locator('plan-picker [part~="offer"]').first().waitFor();
    await screenshot(page, 'plans-dark-1280');
    assert.deepEqual(pageErrors(page), []);
    await page.context().close();
  });
});

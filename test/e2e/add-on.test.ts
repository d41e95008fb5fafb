// The add-on through the demo: a Starter customer adds priority support from the overview's
// "Features and add-ons" card, confirms its price, and removes it again; each once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  eventually,
  assertAccessible,
  CHARGED,
  demoForFile,
  pageErrors,
  screenshot,
  usd,
  type SandboxCustomer,
} from './helpers.js';

const e2e = demoForFile();

/** Whether the customer's running subscription has priority support switched on. */
function prioritySupportOn(customer: SandboxCustomer): boolean {
  const running = customer.subscriptions.find(
    (subscription) => subscription.StateSubscription !== 'PendingSubscription',
  );
  const feature = running?.Features?.find(
    (candidate) => candidate.ReferenceFeature === 'priority-support',
  ) as { IsEnabled?: boolean } | undefined;
  return feature?.IsEnabled === true;
}

test('priority support is added after its price is confirmed, then removed, each once', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'starter-plan');
  const before = await e2e.customer('starter-plan');
  const addOn = page.locator('buy-feature[feature="priority-support"]');
  // The card claims no inclusion it lacks, and both single sign-on gates name the plan that
  // includes it, as the seats meter does (whose "Switch to Pro" the gates point to).
  await page.getByRole('heading', { level: 2, name: 'Features and add-ons' }).waitFor();
  assert.equal(await page.getByText('Included in your plan', { exact: true }).count(), 0);
  // Side by side, the shorter card keeps to its content: no empty area below the seats form.
  const seatsCard = page.locator('#buy-seats');
  await seatsCard
    .locator('buy-feature [part~="error"], buy-feature [part~="pointer"]')
    .first()
    .waitFor();
  const gap = await seatsCard.evaluate((card) => {
    const last = card.lastElementChild!.getBoundingClientRect().bottom;
    return (
      card.getBoundingClientRect().bottom - last - parseFloat(getComputedStyle(card).paddingBottom)
    );
  });
  assert.ok(gap <= 2, `the seats card ends with its content (${gap} px below it)`);
  // Single sign-on: the features list says it in a word, the SSO settings say why, once.
  const gates = page.locator('feature-gate[feature="sso"]');
  await eventually(async () => {
    assert.deepEqual(
      (await gates.locator('[part~="prompt"] p:visible').allTextContents()).map((text) =>
        text.trim(),
      ),
      ['Single sign-on: not included in your plan; included in Pro.'],
    );
  });
  await gates
    .first()
    .locator('usage-meter[slot="fallback"] [part~="state"]')
    .getByText('Not included', { exact: true })
    .waitFor();

  const priceNow = addOn.locator('[part~="price-now"]').filter({ hasText: CHARGED });
  await priceNow.waitFor();
  const previewed = (await priceNow.locator('dd').textContent())?.trim() ?? '';
  await addOn.locator('[part~="price-next"]').getByText('$28.00\u00a0/\u00a0month').waitFor();
  const availableHeight = (await addOn.locator('[part~="add-on"]').boundingBox())!.height;

  await addOn.getByRole('button', { name: 'Add Priority support' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Priority support?' });
  await dialog.waitFor();
  assert.equal((await dialog.locator('[part~="amount"]').textContent())?.trim(), previewed);
  await dialog.getByText('$28.00\u00a0/\u00a0month').waitFor();
  await assertAccessible(page, 'the add-on confirmation');
  await screenshot(page, 'add-on-confirm', { fullPage: false });
  assert.equal(prioritySupportOn(await e2e.customer('starter-plan')), false);

  // A double click on Confirm applies it once.
  await dialog.locator('[part~="confirm"]').dblclick();
  // Said once: the panel says what is owned, the success line only that it is done.
  await addOn.locator('[part~="success"]').getByText('Done.', { exact: true }).waitFor();
  await addOn.getByText('Priority support: added to your plan as an add-on.').waitFor();
  assert.equal(await addOn.getByText(/added to your plan/).count(), 1);
  const added = await e2e.customer('starter-plan');
  assert.equal(prioritySupportOn(added), true);
  const issued = added.invoices.slice(before.invoices.length);
  assert.equal(issued.length, 1, 'one invoice for the add-on');
  assert.equal(usd(issued[0]!.AmountTotal), previewed, 'the invoice is the confirmed price');

  // Owned: what is owned and Remove, no removal quote ("Nothing to pay now $0.00" read as free,
  // and the panel grew from 172 to 289 px); the panel stays the size of the one that sold it.
  const panel = addOn.locator('[part~="add-on"][data-standing="owned"]');
  await panel.waitFor();
  assert.equal(await panel.locator('[part~="price"]').count(), 0, 'no price beside Remove');
  const ownedHeight = (await panel.boundingBox())!.height;
  console.log(`add-on panel: ${availableHeight} px to add, ${ownedHeight} px owned`);
  assert.ok(ownedHeight <= availableHeight, `${ownedHeight} px owned > ${availableHeight} px`);

  // Removing costs nothing now and is confirmed all the same.
  await addOn.getByRole('button', { name: 'Remove Priority support' }).click();
  const removal = page.getByRole('dialog', { name: 'Remove Priority support?' });
  await removal.getByText('Priority support ends now, and what was already billed').waitFor();
  await removal.locator('[part~="amount"]').getByText('$19.00').waitFor();
  await assertAccessible(page, 'the removal confirmation');
  await removal.locator('[part~="confirm"]').click();
  await addOn.getByText('Done. Priority support: removed from your plan.').waitFor();
  await addOn.getByRole('button', { name: 'Add Priority support' }).waitFor();
  const removed = await e2e.customer('starter-plan');
  assert.equal(prioritySupportOn(removed), false);
  assert.equal(removed.invoices.length, added.invoices.length, 'a removal issues no invoice');
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

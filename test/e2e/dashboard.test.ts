// The demo as a customer uses it: sign in, read the meters, buy seats, use the billing page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  assertAccessible,
  CHARGED,
  eventually,
  meterFigures,
  pageErrors,
  quantityOf,
  screenshot,
  demoForFile,
  usd,
  buyFree,
  PHONE,
} from './helpers.js';

const e2e = demoForFile();

test('the sign-in page offers every fixture customer with its situation', async () => {
  const page = await e2e.newPage();
  await page.goto(`${e2e.demo.url}/`);
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  const accounts = page.locator('button.account');
  const references = await accounts.evaluateAll((buttons) =>
    buttons.map((button) => (button as HTMLButtonElement).value),
  );
  assert.deepEqual(references, [
    'healthy',
    'no-payment-method',
    'capping-reached',
    'suspended',
    'starter-plan',
    'unlimited',
    'discounted',
    'pending',
    'no-subscription',
  ]);
  // Names come from the sandbox's fixtures, situations from the demo.
  const healthy = page.getByRole('button', { name: /Hannah Healthy/ });
  assert.match((await healthy.textContent()) ?? '', /3 of 5 seats in use/);
  await assertAccessible(page, 'the sign-in page');
  await screenshot(page, 'sign-in');
  await page.context().close();
});

test('usage reported by the back end moves the meter live, without a reload', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'healthy');
  await eventually(async () => {
    assert.deepEqual(await meterFigures(page, 'api-calls'), { used: '1,200', total: '10,000' });
  });
  const navigations: string[] = [];
  page.on('framenavigated', (frame) => navigations.push(frame.url()));
  await page.getByRole('button', { name: /Simulate back-end usage/ }).click();
  // The service's notification → the proxy's webhook → the page's event stream → a re-read.
  await eventually(async () => {
    assert.deepEqual(await meterFigures(page, 'api-calls'), { used: '1,450', total: '10,000' });
  });
  assert.deepEqual(navigations, [], 'no reload');
  await screenshot(page, 'dashboard-live-update');
  await page.context().close();
});

test('a signed-in customer sees the dashboard with their own meters', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'healthy');
  const banner = page.getByRole('banner');
  await banner.getByText('Hannah Healthy').waitFor();
  await banner.getByText('Pro · Active').waitFor();
  await eventually(async () => {
    assert.deepEqual(await meterFigures(page, 'seats'), { used: '3', total: '5' });
  });
  assert.deepEqual(await meterFigures(page, 'projects'), { used: '4', total: '10' });
  assert.deepEqual(await meterFigures(page, 'api-calls'), { used: '1,200', total: '10,000' });
  // The gate's content (its pending slot holds a second meter, shown only for a pending plan).
  await page
    .locator('usage-meter[feature="sso"]:not([slot])')
    .getByText('Included', { exact: true })
    .waitFor();
  // Priority support is sold apart on Pro: the card offers it as an add-on, priced.
  const addOn = page.locator('buy-feature[feature="priority-support"]');
  await addOn.getByRole('button', { name: 'Add Priority support' }).waitFor();
  await addOn.locator('[part~="price-next"]').getByText('$58.00\u00a0/\u00a0month').waitFor();
  // The live price of the default quantity is shown before anything is bought.
  await page.locator('buy-feature[feature="seats"] [part~="price-now"]').waitFor();
  await page
    .locator('[data-add-seats-note]')
    .getByText(/^Invite more teammates\./)
    .waitFor();
  await assertAccessible(page, 'the dashboard');
  await screenshot(page, 'dashboard', { docs: true, fullPage: false });
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

test('the dashboard reads well in dark mode and on a phone', async () => {
  const dark = await e2e.newPage({ colorScheme: 'dark' });
  await e2e.signIn(dark, 'discounted');
  await eventually(async () => {
    assert.deepEqual(await meterFigures(dark, 'seats'), { used: '3', total: '5' });
  });
  await assertAccessible(dark, 'the dashboard in dark mode');
  await screenshot(dark, 'dashboard-dark', { fullPage: false });
  await dark.context().close();

  const phone = await e2e.newPage({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  await e2e.signIn(phone, 'healthy');
  await eventually(async () => {
    assert.deepEqual(await meterFigures(phone, 'seats'), { used: '3', total: '5' });
  });
  // Nothing sticks out sideways on a narrow screen.
  const overflow = await phone.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the phone`);
  await screenshot(phone, 'dashboard-phone');
  await phone.context().close();
});

// At 360 px the main navigation must not scroll sideways with its last links out of sight and
// nothing saying so: every link is on screen, whole, and can be tapped.
test('at 360 px every link of the main navigation is on screen', async () => {
  const phone = await e2e.newPage(PHONE);
  await e2e.signIn(phone, 'healthy');
  const links = phone.getByRole('navigation', { name: 'Main' }).getByRole('link');
  const names = await links.allInnerTexts();
  assert.ok(names.length >= 5, `the navigation has ${names.length} links`);
  for (const [index, name] of names.entries()) {
    const box = (await links.nth(index).boundingBox())!;
    assert.ok(
      box.x >= 0 && box.x + box.width <= 360,
      `"${name}" is cut off: ${JSON.stringify(box)}`,
    );
    assert.ok(box.height >= 24, `"${name}" is ${box.height}px high, too small to tap`);
  }
  const hidden = await phone
    .getByRole('navigation', { name: 'Main' })
    .evaluate((nav) =>
      [...nav.querySelectorAll('ul')].some((list) => list.scrollWidth > list.clientWidth),
    );
  assert.equal(hidden, false, 'a list of links scrolls sideways');
  // Nor is any other control of the page cut at the screen's edge (Sign out, Simulate…).
  const cut = await phone.evaluate(() =>
    [...document.querySelectorAll('a, button')]
      .filter((control) => control.getClientRects().length > 0)
      .filter((control) => {
        const box = control.getBoundingClientRect();
        return box.left < 0 || box.right > window.innerWidth;
      })
      .map((control) => control.textContent!.trim()),
  );
  assert.deepEqual(cut, [], 'controls cut at the edge of the screen');
  await links.filter({ hasText: 'Script-tag page' }).tap();
  await phone.waitForURL(/\/site\/$/);
  await phone.goBack();
  await assertAccessible(phone, 'the dashboard at 360 px');
  await screenshot(phone, 'dashboard-nav-360', { fullPage: false });
  assert.deepEqual(pageErrors(phone), []);
  await phone.context().close();
});

test('the language switch shows the elements in French, remembered from page to page', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'healthy');
  // The demo's own words (its shell, headings, scenario and labels) follow the page, as the
  // elements' do.
  const buy = page.locator('buy-feature[feature="seats"]');
  await buy.getByRole('button', { name: 'Buy' }).waitFor();
  await page.getByRole('heading', { level: 2, name: 'Add seats' }).waitFor();
  await page.getByRole('link', { name: 'Français' }).click();
  await page.waitForURL(/\?lang=fr$/);
  assert.equal(await page.getAttribute('html', 'lang'), 'fr');
  await buy.getByRole('button', { name: 'Acheter' }).waitFor();
  await page.getByRole('heading', { level: 1, name: 'Vue d’ensemble' }).waitFor();
  await page.getByRole('heading', { level: 2, name: 'Ajouter des sièges' }).waitFor();
  await page.getByRole('note', { name: 'Scénario de démo' }).getByText('En règle').waitFor();
  assert.equal(await page.title(), 'Vue d’ensemble · Northwind Analytics');
  // The next page, without the query, stays in French; the switch goes back to English.
  await page
    .getByRole('navigation', { name: 'Principale' })
    .getByRole('link', { name: 'Facturation' })
    .click();
  await page.waitForURL(/\/app\/billing$/);
  assert.equal(await page.getAttribute('html', 'lang'), 'fr');
  const summary = page.getByRole('region', { name: 'Abonnement' });
  await summary.getByText('Renouvellement le').waitFor();
  await summary.getByRole('button', { name: 'Changer d’offre' }).waitFor();
  const english = await page
    .locator('main')
    .evaluate((main) =>
      ['Subscription', 'Customer portal', 'Renews on', 'Due now', 'Change plan'].filter((text) =>
        (main.textContent ?? '').includes(text),
      ),
    );
  assert.deepEqual(english, [], 'no English of the demo on the French billing page');
  await page.getByRole('link', { name: 'English' }).click();
  await page.waitForURL(/\?lang=en$/);
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

test('buying seats shows the price, asks for confirmation, updates the meter and issues one invoice', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'healthy');
  const before = await e2e.customer('healthy');
  assert.equal(quantityOf(before, 'seats'), 3);
  const buy = page.locator('buy-feature[feature="seats"]');

  // Two more seats fit in the five the plan includes: no charge, so nothing to confirm.
  await buyFree(buy, 'Done. You now have 5 seats.', 2);
  await eventually(async () => {
    assert.deepEqual(await meterFigures(page, 'seats'), { used: '5', total: '5' });
  });
  const free = await e2e.customer('healthy');
  assert.equal(quantityOf(free, 'seats'), 5);
  assert.equal(free.invoices.length, before.invoices.length, 'a free change issues no invoice');

  // Two more are beyond the plan: the price is shown, then confirmed in the dialog.
  await buy.getByRole('spinbutton').fill('2');
  const priceNow = buy.locator('[part~="price-now"]').filter({ hasText: CHARGED });
  await priceNow.waitFor();
  const previewed = (await priceNow.locator('dd').textContent())?.trim() ?? '';
  assert.match(previewed, /^\$\d+\.\d\d$/);
  await buy.locator('[part~="price-next"]').getByText('$69.00\u00a0/\u00a0month').waitFor();
  await screenshot(page, 'purchase-price', { fullPage: false });

  await buy.getByRole('button', { name: 'Buy' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm your purchase' });
  await dialog.waitFor();
  assert.equal((await dialog.locator('[part~="amount"]').textContent())?.trim(), previewed);
  await dialog.getByText('Add 2 seats').waitFor();
  await dialog.getByText('$69.00\u00a0/\u00a0month').waitFor();
  await assertAccessible(page, 'the confirmation dialog');
  await screenshot(page, 'purchase-confirm', { fullPage: false });
  // Nothing is applied before the confirmation.
  assert.equal(quantityOf(await e2e.customer('healthy'), 'seats'), 5);

  await dialog.locator('[part~="confirm"]').click();
  await buy.getByText('Done. You now have 7 seats.').waitFor();
  await eventually(async () => {
    assert.deepEqual(await meterFigures(page, 'seats'), { used: '7', total: '5' });
  });
  await screenshot(page, 'purchase-done', { fullPage: false });

  const afterPurchase = await e2e.customer('healthy');
  assert.equal(quantityOf(afterPurchase, 'seats'), 7);
  const issued = afterPurchase.invoices.slice(before.invoices.length);
  assert.equal(issued.length, 1, 'exactly one invoice for the paid purchase');
  assert.equal(usd(issued[0]!.AmountTotal), previewed, 'the invoice is the confirmed price');
  assert.deepEqual(
    afterPurchase.usageLog
      .filter((entry) => entry.feature === 'seats')
      .map((entry) => entry.increment),
    [2, 2],
  );
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

test('the billing page summarises the subscription and opens portal workflows in a modal', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'healthy');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Billing' })
    .click();
  await page.waitForURL(`${e2e.demo.url}/app/billing`);
  const summary = page.getByRole('region', { name: 'Subscription' });
  await summary.getByText('Renews on').waitFor();
  assert.match((await summary.textContent()) ?? '', /Pro/);

  // The seats card's note gives the customer's own figures: 3 seats, all 3 in use (the page's
  // count), 5 included, so nothing to remove yet.
  const seats = page.getByRole('region', { name: 'Seats' });
  const note = seats.locator('[data-seats-note]');
  await eventually(async () => {
    assert.equal(
      await note.textContent(),
      'You have 3 seats, all in use. Your plan includes 5: 2 more cost nothing. ' +
        'None can be removed while all are in use. You see what changes before you confirm.',
    );
  });

  // The service's own portal home has a page of its own: this one says the plan once, and
  // points there in one quiet line.
  assert.equal(await page.locator('billing-portal').count(), 0);
  await page.getByRole('link', { name: 'Open the customer portal' }).waitFor();
  await assertAccessible(page, 'the billing page');
  await screenshot(page, 'billing');

  // Each action opens its workflow in the modal portal, and the page is there when it closes.
  const dialog = page.locator('body > billing-portal').getByRole('dialog');
  const hosted = page.frameLocator('body > billing-portal iframe');
  await summary.getByRole('button', { name: 'Update payment method' }).click();
  await hosted
    .getByRole('heading', { level: 1, name: 'Contact details and payment method' })
    .waitFor();
  await screenshot(page, 'billing-payment-method', { fullPage: false });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.locator('body > billing-portal').waitFor({ state: 'detached' });

  await summary.getByRole('button', { name: 'Change plan' }).click();
  await hosted.getByRole('heading', { level: 1, name: 'Change plan' }).waitFor();
  await screenshot(page, 'billing-change-plan', { fullPage: false });
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

test('the customer portal page embeds the service’s portal home, in both languages', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'healthy');
  await page.goto(`${e2e.demo.url}/app/billing?lang=en`);
  await page.getByRole('link', { name: 'Open the customer portal' }).click();
  await page.waitForURL(`${e2e.demo.url}/app/portal`);
  const nav = page.getByRole('navigation', { name: 'Main' });
  assert.equal(
    await nav.getByRole('link', { name: 'Customer portal' }).getAttribute('aria-current'),
    'page',
  );
  await page.getByRole('heading', { level: 1, name: 'Customer portal' }).waitFor();
  assert.equal(await page.title(), 'Customer portal · Northwind Analytics');
  const lede = page.locator('.page-head .lede');
  assert.match((await lede.textContent()) ?? '', /billing service’s own portal/);
  assert.equal(await lede.locator('code').textContent(), '<billing-portal>');
  const portal = page.getByRole('region', { name: 'Portal home' }).locator('billing-portal');
  assert.equal(await portal.getAttribute('page'), 'home');
  const frame = page.frameLocator('billing-portal iframe:visible');
  await frame.getByRole('heading', { level: 1, name: 'Your subscription' }).waitFor();
  await frame.getByRole('link', { name: 'Change plan' }).waitFor();
  await assertAccessible(page, 'the customer portal page');
  await screenshot(page, 'customer-portal', { fullPage: false });

  // In French: the page's words and the portal's.
  await page.goto(`${e2e.demo.url}/app/portal?lang=fr`);
  const navFr = page.getByRole('navigation', { name: 'Principale' });
  await navFr.getByRole('link', { name: 'Portail client', exact: true }).waitFor();
  await page.getByRole('heading', { level: 1, name: 'Portail client' }).waitFor();
  assert.match((await lede.textContent()) ?? '', /^Le portail propre au service de facturation/);
  await frame.getByRole('heading', { level: 1, name: 'Votre abonnement' }).waitFor();
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

test('the billing page’s seats note follows the customer’s seats, in their language', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'healthy');
  await page.goto(`${e2e.demo.url}/app/billing`);
  const seats = page.getByRole('region', { name: 'Seats' });
  const note = seats.locator('[data-seats-note]');
  await note.getByText(/^You have 3 seats, all in use\. Your plan includes 5:/).waitFor();

  // Two more seats, free: the note says what the customer now has, and what can be removed.
  await buyFree(seats.locator('buy-feature'), 'Done. You now have 5 seats.', 2);
  await eventually(async () => {
    assert.equal(
      await note.textContent(),
      'You have 5 seats, 3 in use. Your plan includes 5: any more are charged after you ' +
        'confirm their price. You can remove up to 2, down to the 3 in use. ' +
        'You see what changes before you confirm.',
    );
  });
  await page.context().close();

  // Other customers, other figures: unlimited seats (in French), a pending plan, no plan.
  const cases: [string, 'en' | 'fr', string][] = [
    [
      'unlimited',
      'fr',
      'Vous avez 42 sièges. Votre offre inclut des sièges illimités\u00a0: en ajouter ne coûte ' +
        'rien.',
    ],
    [
      'no-payment-method',
      'fr',
      'Vous avez 5 sièges, tous utilisés. Votre offre en inclut 5\u00a0: au-delà, chaque siège ' +
        'est facturé après confirmation de son prix. Aucun ne peut être retiré tant que tous ' +
        'sont utilisés. Vous voyez ce qui change avant de confirmer.',
    ],
    [
      'capping-reached',
      'en',
      'You have 2 seats, all in use. Your plan includes 5: 3 more cost nothing. ' +
        'Seats can be changed again once your subscription is active.',
    ],
    [
      'capping-reached',
      'fr',
      'Vous avez 2 sièges, tous utilisés. Votre offre en inclut 5\u00a0: 3 de plus ne coûtent ' +
        'rien. Les sièges pourront de nouveau être modifiés une fois votre abonnement actif.',
    ],
    ['pending', 'en', 'Your plan includes 5 seats once you complete your subscription.'],
    // No seats in the plan: the <buy-feature> beside the note says so, the note says nothing.
    ['starter-plan', 'en', ''],
  ];
  for (const [reference, language, expected] of cases) {
    const other = await e2e.newPage();
    await e2e.signIn(other, reference);
    await other.goto(`${e2e.demo.url}/app/billing?lang=${language}`);
    const otherNote = other.locator('#seats [data-seats-note]');
    await eventually(async () => {
      assert.equal((await otherNote.textContent())?.trim(), expected, reference);
      assert.equal(await otherNote.isHidden(), expected === '', reference);
    });
    await other.context().close();
  }
});

test('the billing summary says what is to pay, and when', async () => {
  // [customer, the summary's facts about money]: nothing; an invoice waiting for its payment
  // date (not "due now"); invoices past it (due now; the history names them overdue); a pending
  // plan, which has no period and no bill yet.
  const cases: [string, RegExp, RegExp][] = [
    ['healthy', /To pay\s*Nothing/, /Due now|Overdue/],
    ['discounted', /Due by [A-Z][a-z]+ \d{1,2}, \d{4}\s*\$39\.20/, /Due now|Overdue|Nothing/],
    ['capping-reached', /Due now\s*\$98\.00/, /Due by|Overdue|Nothing/],
    ['pending', /Plan\s*Pro/, /Period ends|Renews on|Due now|To pay|Overdue/],
  ];
  for (const [reference, says, doesNotSay] of cases) {
    const page = await e2e.newPage();
    await e2e.signIn(page, reference);
    await page.goto(`${e2e.demo.url}/app/billing`);
    const summary = page.locator('[data-summary][aria-busy="false"]');
    await summary.waitFor();
    const text = (await summary.textContent()) ?? '';
    assert.match(text, says, `${reference}: ${text}`);
    assert.doesNotMatch(text, doesNotSay, `${reference}: ${text}`);
    await page.context().close();
  }
});

test('the billing page’s own words follow a live change of <html lang>', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'healthy');
  await page.goto(`${e2e.demo.url}/app/billing`);
  const summary = page.locator('[data-summary]');
  const actions = page.locator('[data-actions]');
  const note = page.locator('[data-seats-note]');
  const badge = page.locator('[data-plan]');
  const buy = page.locator('#seats buy-feature');
  await summary.getByText('Renews on').waitFor();
  await note.getByText(/^You have 3 seats, all in use\. Your plan includes 5:/).waitFor();
  await badge.getByText('Pro · Active').waitFor();

  // A host app switching languages in place, as the elements allow: no reload.
  const navigations: string[] = [];
  // The page's own navigations, not its frames'.
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations.push(frame.url());
  });
  await page.evaluate(() => {
    document.documentElement.lang = 'fr';
  });
  await summary.getByText('Renouvellement le').waitFor();
  await summary.getByText('Rien', { exact: true }).waitFor();
  await actions.getByRole('button', { name: 'Changer d’offre' }).waitFor();
  await badge.getByText('Pro · Actif').waitFor();
  await note
    .getByText(/^Vous avez 3 sièges, tous utilisés\. Votre offre en inclut 5\u00a0:/)
    .waitFor();
  // The payment method's button takes the elements' words, in the new language too.
  await actions.getByRole('button', { name: 'Mettre à jour le moyen de paiement' }).waitFor();
  // The names the page gives the elements follow too ("sièges", not "seats").
  assert.equal(await buy.getAttribute('label'), 'sièges');
  assert.doesNotMatch((await summary.textContent()) ?? '', /Renews on|To pay|Nothing/);

  await page.evaluate(() => {
    document.documentElement.lang = 'en';
  });
  await summary.getByText('Renews on').waitFor();
  await actions.getByRole('button', { name: 'Change plan' }).waitFor();
  await note.getByText(/^You have 3 seats, all in use\. Your plan includes 5:/).waitFor();
  await actions.getByRole('button', { name: 'Update payment method' }).waitFor();
  assert.equal(await buy.getAttribute('label'), 'seats');
  assert.deepEqual(navigations, [], 'no reload');
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

test('signing out ends the session for the pages and for the billing proxy', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'healthy');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${e2e.demo.url}/?signed-out`);
  await page.getByText('You are signed out.').waitFor();
  const usages = await page.evaluate(async () => (await fetch('/billing/usages')).status);
  assert.equal(usages, 401);
  await page.goto(`${e2e.demo.url}/app/billing`);
  assert.equal(page.url(), `${e2e.demo.url}/?next=%2Fapp%2Fbilling`);
  // The cached usages left with the session.
  const cached = await page.evaluate(() =>
    Object.keys(sessionStorage).filter((key) => key.startsWith('billing-elements')),
  );
  assert.deepEqual(cached, []);
  await page.context().close();
});

test('the overview’s “Add seats” note is the customer’s own, in both languages', async () => {
  const page = await e2e.newPage();
  // Starter has no seats: the card's <buy-feature> says so, once; the note does not repeat it.
  await e2e.signIn(page, 'starter-plan');
  await page.goto(`${e2e.demo.url}/app/?lang=en`);
  const note = page.locator('[data-add-seats-note]');
  const card = page.locator('#buy-seats');
  await card.locator('buy-feature').getByText('Not included in your plan.').waitFor();
  assert.equal(await note.isHidden(), true);
  assert.doesNotMatch((await card.innerText()).replace(/\s+/g, ' '), /not included.*not included/i);
  await page.evaluate(() => {
    document.documentElement.lang = 'fr';
  });
  await card.locator('buy-feature').getByText('Non inclus dans votre offre.').waitFor();
  assert.equal(await note.isHidden(), true);
  assert.doesNotMatch(
    (await card.innerText()).replace(/\s+/g, ' '),
    /pas inclus|non inclus.*non inclus/i,
  );
  await screenshot(page, 'overview-starter-fr');

  // Unlimited seats: nothing to buy, so no price to see before anything is charged.
  await e2e.signIn(page, 'unlimited');
  await page.goto(`${e2e.demo.url}/app/?lang=en`);
  await note
    .getByText('Invite more teammates. Your plan includes unlimited seats: more cost nothing.', {
      exact: true,
    })
    .waitFor();
  await page.goto(`${e2e.demo.url}/app/?lang=fr`);
  await note
    .getByText(
      'Invitez d’autres membres. Votre offre inclut des sièges illimités\u00a0: en ajouter ne coûte rien.',
      { exact: true },
    )
    .waitFor();

  // Pro includes 5 seats and the healthy customer has 3: two more cost nothing.
  await e2e.signIn(page, 'healthy');
  await page.goto(`${e2e.demo.url}/app/?lang=en`);
  await note
    .getByText(
      'Invite more teammates. You have 3 seats. Your plan includes 5: 2 more cost nothing. You see and confirm the price before anything is charged.',
      { exact: true },
    )
    .waitFor();
  await page.goto(`${e2e.demo.url}/app/?lang=fr`);
  await note
    .getByText(
      /^Invitez d’autres membres\. Vous avez 3 sièges\. Votre offre en inclut 5\u00a0: 2 de plus/,
    )
    .waitFor();
  await page.goto(`${e2e.demo.url}/app/?lang=en`);
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

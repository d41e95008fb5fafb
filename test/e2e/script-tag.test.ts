// The no-build ways in: the plain HTML page on the script-tag file, and the snippet builder.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  assertAccessible,
  eventually,
  pageErrors,
  quantityOf,
  screenshot,
  demoForFile,
  buyFree,
} from './helpers.js';

const e2e = demoForFile({ prebuildScriptTag: true });

test('the plain page runs on the script-tag file alone', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'healthy');
  await page.goto(`${e2e.demo.url}/site/`);

  // As served: no dev server, no module script, one classic <script src> (the portal script
  // that <billing-portal> adds later is the billing service's).
  const html = await (await page.request.get(`${e2e.demo.url}/site/`)).text();
  assert.deepEqual(html.match(/<script[^>]*>/g), ['<script src="/billing-elements.js" defer>']);
  await page.waitForFunction(
    () => customElements.get('usage-meter') && customElements.get('buy-feature'),
  );
  assert.equal(
    await page.evaluate(() => typeof (window as { BillingElements?: unknown }).BillingElements),
    'object',
  );

  // Without `feature`, the meter lists the whole plan.
  const list = page.getByRole('region', { name: 'Usage this month' }).locator('usage-meter');
  await list.locator('[part~="item"]').nth(4).waitFor();
  assert.equal(await list.locator('[part~="item"]').count(), 5);
  await page
    .frameLocator('billing-portal iframe:visible')
    .getByRole('heading', { level: 1, name: 'Your subscription' })
    .waitFor();
  await assertAccessible(page, 'the script-tag page');
  await screenshot(page, 'script-tag-page');

  // A purchase works the same way: one more project (4 of 10 used) costs nothing.
  const buy = page.locator('buy-feature[feature="projects"]');
  await buyFree(buy, 'Done. You now have 5 projects.');
  assert.equal(quantityOf(await e2e.customer('healthy'), 'projects'), 5);

  // Loading the file a second time (two pasted snippets) changes nothing and throws nothing.
  // addScriptTag resolves once the script has run: an error it threw is already recorded.
  await page.addScriptTag({ url: '/billing-elements.js' });
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

test('the script-tag file speaks French with the file beside it, loaded for French alone', async () => {
  const page = await e2e.newPage();
  const scripts: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/billing-elements')) scripts.push(path);
  });
  await e2e.signIn(page, 'healthy');
  await page.goto(`${e2e.demo.url}/site/`);
  const meter = page.getByRole('region', { name: 'Usage this month' }).locator('usage-meter');
  await meter.locator('[part~="item"]').nth(4).waitFor();
  assert.deepEqual(scripts, ['/billing-elements.js'], 'an English page loads no other language');
  // The host app switches to French: the French texts come from beside the script-tag file.
  await page.evaluate(() => {
    document.documentElement.lang = 'fr';
  });
  await meter
    .getByText(/^Remise à zéro le /)
    .first()
    .waitFor();
  assert.deepEqual(scripts, ['/billing-elements.js', '/billing-elements.fr.js']);
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

test("the app's language switch reaches the script-tag page, and the page switches back", async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'healthy');
  await page.goto(`${e2e.demo.url}/app/?lang=fr`);
  await page.getByRole('link', { name: 'Page à balise script' }).click();
  await page.waitForURL(`${e2e.demo.url}/site/`);
  assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
  await page.getByRole('heading', { level: 1, name: 'Votre offre' }).waitFor();
  const meter = page.getByRole('region', { name: 'Consommation du mois' }).locator('usage-meter');
  await meter
    .getByText(/^Remise à zéro le /)
    .first()
    .waitFor();
  await page
    .frameLocator('billing-portal iframe:visible')
    .getByRole('heading', { level: 1, name: 'Votre abonnement' })
    .waitFor();
  await assertAccessible(page, 'the French script-tag page');
  await screenshot(page, 'script-tag-page-fr');
  // Its own switch, as the app's: back to English, and the app follows.
  await page.getByRole('link', { name: 'English' }).click();
  await page.getByRole('heading', { level: 1, name: 'Your plan' }).waitFor();
  assert.equal(await page.locator('html').getAttribute('lang'), 'en');
  await page.goto(`${e2e.demo.url}/app/`);
  assert.equal(await page.locator('html').getAttribute('lang'), 'en');
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

test("the script-tag file draws a meter's rare states, which it holds inline", async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'no-subscription');
  await page.goto(`${e2e.demo.url}/site/`);
  const meter = page.getByRole('region', { name: 'Usage this month' }).locator('usage-meter');
  await meter.getByText('Choose a plan to get started.').waitFor();
  await meter.getByRole('button', { name: 'See plans' }).waitFor();
  assert.equal(await meter.getAttribute('state'), 'no-subscription');
  // Its remedy opens the plans in the page's portal (the portal's opening code is inline too).
  await meter.getByRole('button', { name: 'See plans' }).click();
  await eventually(async () => {
    const pages = await page
      .locator('billing-portal')
      .evaluateAll((portals: Element[]) =>
        portals.map((portal) => (portal as HTMLElement & { page: string }).page),
      );
    assert.ok(pages.includes('offers'), `portal pages: ${pages.join(', ')}`);
  });
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

test('the script-tag file is served fresh from the sources as a classic script', async () => {
  const response = await fetch(`${e2e.demo.url}/billing-elements.js`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/javascript/);
  const code = await response.text();
  assert.doesNotMatch(code, /^\s*(import|export)\s/m, 'no ES module syntax at the top level');
  for (const tag of ['usage-meter', 'buy-feature', 'billing-portal'])
    assert.ok(code.includes(tag), tag);
});

test('the snippet builder previews the snippet live and copies it', async () => {
  const page = await e2e.newPage();
  await page
    .context()
    .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.demo.url });
  await e2e.signIn(page, 'healthy');
  await page.getByRole('link', { name: 'Embed snippets' }).click();
  await page.waitForURL(`${e2e.demo.url}/app/embed`);
  const code = page.locator('[data-snippet]');
  const preview = page.frameLocator('iframe[data-preview]');

  // The default: a seats meter, pointed at this app's proxy.
  await preview
    .locator('usage-meter[feature="seats"] [part~="value"]')
    .filter({ hasText: '3' })
    .waitFor();
  assert.match((await code.textContent()) ?? '', /<usage-meter\s+feature="seats"/);
  await assertAccessible(page, 'the snippet builder');
  // The proxy's address says how to let another site call this demo's proxy
  // (the option demo-server.test.ts checks), tied to the field it describes.
  // The hint first; the error the field shows when it is not an address second.
  const [endpointHint] = (await page
    .getByLabel('Proxy URL')
    .getAttribute('aria-describedby'))!.split(' ');
  assert.match(
    (await page.locator(`#${endpointHint}`).textContent())!.replace(/\s+/g, ' '),
    /allowedOrigins.*npm start -- --allow-origin https:\/\/your\.site/,
  );

  // Pick <buy-feature> for projects: the snippet and the live preview follow.
  await page.getByRole('radio', { name: /<buy-feature>/ }).check();
  await page.getByLabel('Feature', { exact: true }).selectOption('projects');
  await page.getByLabel('Unit name').fill('projects');
  await page.getByLabel('Language').selectOption('fr');
  const snippet = await eventually(async () => {
    const text = (await code.textContent()) ?? '';
    assert.match(text, /feature="projects"/);
    assert.match(text, /lang="fr"/);
    return text;
  });
  const expected = [
    // The smallest script for one element: its own module.
    `<script type="module" src="${e2e.demo.url}/cdn/buy-feature.js"></script>`,
    '<buy-feature',
    '  feature="projects"',
    '  label="projects"',
    `  endpoint="${e2e.demo.url}/billing"`,
    '  lang="fr"',
    '  style="--billing-accent: #0f766e"',
    '></buy-feature>',
  ].join('\n');
  assert.equal(snippet, expected);
  // The preview runs exactly that snippet, in French.
  await preview
    .locator('buy-feature[feature="projects"]')
    .getByRole('button', { name: 'Acheter' })
    .waitFor();
  await screenshot(page, 'snippet-builder');

  await page.getByRole('button', { name: 'Copy snippet' }).click();
  await page.getByRole('status').filter({ hasText: 'Copied to the clipboard.' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), expected);
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

test('the snippet builder offers the six elements, each loading its own code only', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'discounted');
  await page.goto(`${e2e.demo.url}/app/embed`);
  const code = page.locator('[data-snippet]');
  const tags = [
    'usage-meter',
    'buy-feature',
    'billing-portal',
    'plan-picker',
    'billing-history',
    'feature-gate',
  ];
  for (const tag of tags) {
    await page.getByRole('radio', { name: `<${tag}>` }).check();
    const snippet = await eventually(async () => {
      const text = (await code.textContent()) ?? '';
      assert.match(text, new RegExp(`<${tag}[\\s>]`));
      return text;
    });
    assert.equal(
      snippet.split('\n')[0],
      `<script type="module" src="${e2e.demo.url}/cdn/${tag}.js"></script>`,
    );
    // The preview runs the snippet: the chosen element is defined there, no other one is.
    await eventually(async () => {
      const defined = await page
        .frameLocator('iframe[data-preview]')
        .locator('body')
        .evaluate((body, all) => all.filter((name) => customElements.get(name)), tags);
      assert.deepEqual(defined, [tag]);
    });
  }
  // The gate's snippet carries the gated part; the customer's Pro plan includes SSO.
  await page
    .frameLocator('iframe[data-preview]')
    .getByText('Single sign-on is set up for your team.')
    .waitFor();
  // The invoices: a page size other than the default goes into the snippet, and the preview
  // shows that many of the customer's year of invoices.
  await page.getByRole('radio', { name: '<billing-history>' }).check();
  await page.getByLabel('Invoices per page').fill('3');
  await eventually(async () =>
    assert.match((await code.textContent()) ?? '', /<billing-history\s+page-size="3"/),
  );
  const history = page.frameLocator('iframe[data-preview]').locator('billing-history');
  await history.getByRole('button', { name: 'Show 3 more invoices' }).waitFor();
  assert.equal(await history.getByRole('row').count(), 4, 'a header and 3 invoices');
  await screenshot(page, 'snippet-builder-history');
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

test('the autoloader loads each element the first time its tag appears', async () => {
  const page = await e2e.newPage();
  await e2e.signIn(page, 'healthy');
  // A page of the app's origin (its session, its proxy) holding only the snippet.
  const snippetPage = `${e2e.demo.url}/autoloaded.html`;
  await page.route(snippetPage, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><script type="module" src="/cdn/autoloader.js"></script><usage-meter feature="seats"></usage-meter>',
    }),
  );
  await page.goto(snippetPage);
  const tags = ['usage-meter', 'buy-feature', 'billing-portal', 'plan-picker', 'feature-gate'];
  const defined = () =>
    page.evaluate((all) => all.filter((name) => customElements.get(name)), tags);
  await page.locator('usage-meter [part~="value"]').filter({ hasText: '3' }).waitFor();
  assert.deepEqual(await defined(), ['usage-meter']);

  // A tag the page adds later loads its element then, and only that one.
  await page.evaluate(() => {
    const gate = document.createElement('feature-gate');
    gate.setAttribute('feature', 'sso');
    gate.innerHTML = '<p>Single sign-on is on.</p>';
    document.body.append(gate);
  });
  // Its content shows before it is defined (an unknown tag shows its children): wait for its
  // verdict, which only the element gives.
  await page.waitForFunction(
    () =>
      (document.querySelector('feature-gate') as { state?: string } | null)?.state === 'granted',
  );
  assert.deepEqual(await defined(), ['usage-meter', 'feature-gate']);
  assert.deepEqual(pageErrors(page), []);
  await page.context().close();
});

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { portalHash } from '../../src/sandbox/index.js';
import { CHROME_FLAGS, findChrome } from '../../scripts/prereqs.mjs';
import { link, type TestSandbox, useTestSandbox } from './helpers.js';
import { GOOD_CARD, openPage } from './hosted-pages.js';

/** What the host page of the browser tests exposes. */
interface HostWindow {
  events: { type: string; detail: unknown; target: string }[];
  ServicePortal: {
    open(params: unknown, options?: { containerId?: string }): Promise<{ opened: boolean }>;
  };
}

async function customerQuery(t: TestSandbox, customer: string, rel: string): Promise<string> {
  const res = await t.api('GET', `/v1/Customer?ReferenceCustomer=${customer}`);
  return link(res.body, rel).query ?? '';
}

function params(
  t: TestSandbox,
  customer: string,
  query: string,
  hash = portalHash(customer, t.sandbox.portalSecret),
) {
  return {
    business_id: t.sandbox.businessId,
    segment_ref: t.sandbox.segment,
    customer_ref: customer,
    query,
    hash,
  };
}

describe('portal script and in-site pages over HTTP', () => {
  const t = useTestSandbox();

  const resolve = (p: Record<string, string | number>) =>
    fetch(
      `${t.sandbox.url}/portal/open?${new URLSearchParams(Object.entries(p).map(([k, v]) => [k, String(v)]))}`,
    );

  it('serves the portal script with CORS', async () => {
    const res = await fetch(t.sandbox.portalScriptUrl);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /javascript/);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.match(await res.text(), /window\.ServicePortal = \{ open: open/);
  });

  it('hash is the lowercase hex HMAC-SHA256 of the customer reference with the portal secret', () => {
    // Computed independently: printf healthy | openssl dgst -sha256 -hmac sandbox-portal-secret
    assert.equal(
      portalHash('healthy', 'sandbox-portal-secret'),
      'c3ea2391955bad72985f4344daa2ddb95417568ef836f2fb709a5e4ec448c5f3',
    );
  });

  it('resolves a valid opening to the hosted page of the query', async () => {
    const query = await customerQuery(t, 'healthy', 'insite-register');
    const res = await resolve(params(t, 'healthy', query));
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.page, 'register');
    assert.ok(body.url.startsWith(`${t.sandbox.hostedUrl}/register/`));
    assert.match(body.title, /Contact details and payment method/);
    const upper = await resolve(
      params(t, 'healthy', query, portalHash('healthy', t.sandbox.portalSecret).toUpperCase()),
    );
    assert.equal(upper.status, 200, 'hex case does not matter');
  });

  it('refuses a wrong hash, another customer’s query, a tampered query, a wrong business', async () => {
    const query = await customerQuery(t, 'healthy', 'insite-register');
    const cases: [Record<string, string | number>, number, string][] = [
      [params(t, 'healthy', query, portalHash('healthy', 'not-the-secret')), 403, 'invalid-hash'],
      [params(t, 'discounted', query), 403, 'customer-mismatch'],
      [
        params(t, 'healthy', query.slice(0, -2) + (query.endsWith('AA') ? 'BB' : 'AA')),
        400,
        'invalid-query',
      ],
      [{ ...params(t, 'healthy', query), business_id: 1 }, 404, 'unknown-business'],
      [{ ...params(t, 'healthy', query), segment_ref: 'other' }, 404, 'unknown-segment'],
      [params(t, 'ghost', query), 404, 'unknown-customer'],
    ];
    for (const [p, status, code] of cases) {
      const res = await resolve(p);
      assert.equal(res.status, status, code);
      assert.equal((await res.json()).code, code);
    }
  });

  it('the in-site page opens ?pa_query= workflows and refuses others', async () => {
    const query = await customerQuery(t, 'healthy', 'insite-collection-offers');
    const ok = await openPage(`${t.sandbox.url}/insite?pa_query=${query}`);
    assert.equal(ok.status, 200);
    assert.match(ok.html, /<div id="service_portal"><\/div>/);
    assert.match(ok.html, new RegExp(portalHash('healthy', t.sandbox.portalSecret)));
    const bad = await openPage(`${t.sandbox.url}/insite?pa_query=nope`);
    assert.equal(bad.status, 404);
    assert.match(bad.html, /role="alert"/);
  });
});

describe('portal script in a real browser', () => {
  let executablePath: string;
  let host: Server;
  let hostUrl: string;
  let browser: Browser;
  // findChrome() may have to install Chromium: do it before any server is waiting.
  before(() => {
    executablePath = findChrome();
  });
  const t = useTestSandbox();
  before(async () => {
    // The business application: another origin that embeds the portal.
    host = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><title>Host app</title>
<script src="${t.sandbox.portalScriptUrl}"></script></head>
<body><main><h1>Billing</h1><div id="service_portal"></div><div id="other"></div></main>
<script>window.events = [];
for (const type of ['service-portal:ready', 'service-portal:complete', 'service-portal:error'])
  document.addEventListener(type, (e) => window.events.push({ type, detail: e.detail, target: e.target.id }));</script>
</body></html>`);
    });
    await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
    hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;
    browser = await chromium.launch({ executablePath, args: [...CHROME_FLAGS] });
  });
  after(async () => {
    await browser?.close();
    await new Promise((r) => host.close(r));
  });

  /** Runs `test` on a new tab of the host app, closed afterwards whatever happens. */
  async function onHostPage(test: (page: Page) => Promise<void>): Promise<void> {
    const page = await browser.newPage();
    try {
      await page.goto(hostUrl);
      await test(page);
    } finally {
      await page.close();
    }
  }
  const events = (page: Page) =>
    page.evaluate(() => (window as unknown as HostWindow).events as HostWindow['events']);

  it('opens the register workflow in an iframe, follows its height and reports completion', () =>
    onHostPage(async (page) => {
      const query = await customerQuery(t, 'no-payment-method', 'insite-register');
      const result = await page.evaluate(
        async (p) =>
          ((await (window as unknown as HostWindow).ServicePortal.open(p)) as { opened: boolean })
            .opened,
        params(t, 'no-payment-method', query),
      );
      assert.equal(result, true);
      const iframe = page.locator('#service_portal iframe');
      assert.match(
        (await iframe.getAttribute('title')) ?? '',
        /Contact details and payment method/,
      );
      await page.waitForFunction(() =>
        (window as unknown as HostWindow).events.some((e) => e.type === 'service-portal:ready'),
      );
      // The iframe grows to its content (the register form is taller than the initial 560 px).
      await page.waitForFunction(
        () => parseInt(document.querySelector('iframe')!.style.height, 10) > 700,
      );
      assert.equal(
        await iframe.evaluate(
          (el) => getComputedStyle(el).width === getComputedStyle(el.parentElement!).width,
        ),
        true,
      );

      const frame = page.frameLocator('#service_portal iframe');
      await frame.getByLabel('Name on card').fill(GOOD_CARD.cardHolder);
      await frame.getByLabel('Card number').fill(GOOD_CARD.cardNumber);
      await frame.getByLabel('Expiry (MM/YY)').fill(GOOD_CARD.cardExpiry);
      await frame.getByLabel('Security code').fill(GOOD_CARD.cardCvc);
      await frame.getByRole('button', { name: 'Save' }).click();
      await frame.getByText('Your details and payment method are saved.').waitFor();
      await page.waitForFunction(() =>
        (window as unknown as HostWindow).events.some((e) => e.type === 'service-portal:complete'),
      );
      const complete = (await events(page)).filter((e) => e.type === 'service-portal:complete');
      assert.deepEqual(complete, [
        {
          type: 'service-portal:complete',
          detail: { workflow: 'register' },
          target: 'service_portal',
        },
      ]);
      assert.equal((await t.customer('no-payment-method')).paymentMethod, 'valid');
    }));

  it('shows a visible error and opens nothing on a wrong hash, a foreign or tampered query', () =>
    onHostPage(async (page) => {
      const query = await customerQuery(t, 'healthy', 'insite-register');
      for (const p of [
        params(t, 'healthy', query, '0'.repeat(64)),
        params(t, 'discounted', query),
        params(t, 'healthy', `${query.slice(0, 10)}x${query.slice(11)}`),
      ]) {
        const opened = await page.evaluate(
          async (args) =>
            (
              (await (window as unknown as HostWindow).ServicePortal.open(args)) as {
                opened: boolean;
              }
            ).opened,
          p,
        );
        assert.equal(opened, false);
        const alert = page.locator('#service_portal [role="alert"]');
        assert.equal(await alert.isVisible(), true);
        assert.match((await alert.textContent()) ?? '', /could not be opened/);
        assert.equal(await page.locator('#service_portal iframe').count(), 0);
      }
    }));

  it('opens in another container with { containerId }', () =>
    onHostPage(async (page) => {
      const query = await customerQuery(t, 'healthy', 'insite-collection-offers');
      await page.evaluate(
        (p) => (window as unknown as HostWindow).ServicePortal.open(p, { containerId: 'other' }),
        params(t, 'healthy', query),
      );
      assert.equal(await page.locator('#other iframe').count(), 1);
      assert.equal(await page.locator('#service_portal iframe').count(), 0);
    }));

  it('hosted pages pass axe (WCAG 2 A and AA)', async () => {
    const sub = (await t.api('GET', '/v1/Subscription?ReferenceCustomer=capping-reached')).body;
    const customer = (await t.api('GET', '/v1/Customer?ReferenceCustomer=capping-reached')).body;
    const invoice = (await t.customer('capping-reached')).invoices[0];
    const portal = link(sub, 'hosted-related-subscription').href ?? '';
    const pages = [
      portal,
      link(sub, 'hosted-restart').href ?? '',
      link((await t.api('GET', `/v1/Invoice/${invoice.Id}`)).body, 'hosted-charge').href ?? '',
      link((await t.api('GET', `/v1/Invoice/${invoice.Id}`)).body, 'hosted-related-invoice').href ??
        '',
      link((await t.api('GET', '/v1/Subscription/1001')).body, 'hosted-upgrade').href ?? '',
      (
        await (
          await fetch(
            `${t.sandbox.url}/portal/open?${new URLSearchParams({ ...params(t, 'capping-reached', link(customer, 'insite-register').query ?? ''), business_id: '4242' })}`,
          )
        ).json()
      ).url,
    ];
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      for (const url of pages) {
        await page.goto(url);
        const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
        assert.deepEqual(
          results.violations.map(
            (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
          ),
          [],
          url,
        );
      }
    } finally {
      await context.close();
    }
  });
});

// A page on another site (a no-code page at shop.site.test) showing the billing of a customer
// of the app at app.test, whose proxy is billing.app.test: two registrable domains, mapped to
// loopback by Chromium's host resolver, third-party cookies blocked. With the app's session
// cookie alone the elements show the signed-out state; with a customer token
// (configureBilling({ token })) they show the customer's meters, a purchase is applied once,
// the portal opens, and a live update comes through a stream ticket. Chromium, then Firefox
// (its names mapped by network.dns.localDomains, every third-party cookie blocked).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import * as puppeteer from 'puppeteer-core';
import { CHROME_FLAGS, findChrome, findFirefox } from '../../scripts/prereqs.mjs';
import { startSandbox } from '../../src/sandbox/index.js';
import {
  createBillingProxy,
  identifyWithCustomerToken,
  mintCustomerToken,
  toNodeHandler,
  type BillingProxy,
} from '../../src/server/index.js';
import { control } from '../server/helpers.js';
import { pageErrors, screenshot } from './helpers.js';
import { waitFor } from '../time.js';

const SECRET = 'the-site-and-the-proxy-share-this-32-byte-secret';
/** The script-tag file as built (`npm run build`; the e2e stage builds it when stale). */
const SCRIPT = fileURLToPath(new URL('../../dist/billing-elements.js', import.meta.url));

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let proxy: BillingProxy;
let browser: Browser;
let app: Server;
let site: Server;
let appOrigin = '';
let siteOrigin = '';
let tokensMinted = 0;
/** How long the site's tokens live, in seconds. */
let tokenLifetime = 600;
/** The token the site minted last. */
let lastToken = '';
/** The proxy's requests, as "METHOD path?query" with whether they carried a cookie or a token. */
const proxyRequests: { line: string; cookie: boolean; bearer: boolean; status?: number }[] = [];

async function listenOn(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return (server.address() as AddressInfo).port;
}

/** The proxy's origin: the app's subdomain. */
const billingOrigin = () => appOrigin.replace('app.test', 'billing.app.test');

/** The page the site's owner pasted the snippet into, with cookie or token identity. */
function snippetPage(identity: 'cookie' | 'token'): string {
  const configuration =
    identity === 'token'
      ? `BillingElements.configureBilling({
           endpoint: '${billingOrigin()}/billing',
           // The site's own server gives the signed-in visitor's token.
           token: async () => (await fetch('/billing-token')).text(),
         });`
      : `BillingElements.configureBilling({
           endpoint: '${billingOrigin()}/billing',
         });`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
    <script src="/billing-elements.js"></script>
    <script>${configuration}</script></head>
    <body><main>
      <usage-meter feature="projects"></usage-meter>
      <buy-feature feature="projects"></buy-feature>
      <billing-portal page="home"></billing-portal>
    </main></body></html>`;
}

/** The proxy's check of a token: no tolerance on `exp`, so that a short token expires soon. */
const identifyByToken = identifyWithCustomerToken({ secret: SECRET, clockToleranceSeconds: 0 });

/** Whether the proxy refuses `token` as expired now. */
async function expired(token: string): Promise<boolean> {
  const request = new Request('http://app.test/billing/usages', {
    headers: { authorization: `Bearer ${token}` },
  });
  return identifyByToken(request).then(
    () => false,
    (error: unknown) => (error as { code?: string }).code === 'token-expired',
  );
}

before(async () => {
  sandbox = await startSandbox();
  const served: { handle?: ReturnType<typeof toNodeHandler> } = {};
  // The app (app.test): its sign-in sets the session cookie; its proxy answers billing.app.test.
  app = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://app.test');
    if (url.pathname === '/sign-in') {
      response.writeHead(200, {
        'set-cookie': `session=${url.searchParams.get('customer')}; Path=/; Domain=app.test; HttpOnly`,
        'content-type': 'text/html',
      });
      response.end('<p>Signed in</p>');
      return;
    }
    // Only the proxy's routes (not the browser's own requests, such as /favicon.ico).
    if (!url.pathname.startsWith('/billing/')) {
      response.writeHead(404).end();
      return;
    }
    const seen: (typeof proxyRequests)[number] = {
      line: `${request.method} ${url.pathname}${url.search}`,
      cookie: request.headers.cookie !== undefined,
      bearer: request.headers.authorization !== undefined,
    };
    proxyRequests.push(seen);
    response.on('finish', () => (seen.status = response.statusCode));
    served.handle?.(request, response);
  });
  appOrigin = `http://app.test:${await listenOn(app)}`;
  // The other site (shop.site.test): the snippet's page, the script-tag file, and its server's
  // token route for its signed-in visitor (here always the healthy customer).
  site = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://shop.site.test');
    if (url.pathname === '/billing-elements.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(readFileSync(SCRIPT));
    } else if (url.pathname === '/billing-token') {
      tokensMinted += 1;
      void mintCustomerToken({
        secret: SECRET,
        reference: 'healthy',
        expiresInSeconds: tokenLifetime,
      }).then((token) => {
        lastToken = token;
        response.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
        response.end(token);
      });
    } else {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(snippetPage(url.pathname === '/token' ? 'token' : 'cookie'));
    }
  });
  siteOrigin = `http://shop.site.test:${await listenOn(site)}`;

  proxy = createBillingProxy({
    baseUrl: sandbox.apiUrl,
    agentKey: sandbox.agentKey,
    apiKey: sandbox.apiKey,
    businessId: sandbox.businessId,
    segment: sandbox.segment,
    portalScriptUrl: sandbox.portalScriptUrl,
    portalSecret: sandbox.portalSecret,
    basePath: '/billing',
    // The app's own pages use its session cookie; the other site's, a token.
    identify: async (request) => {
      const byToken = await identifyByToken(request);
      if (byToken !== null) return byToken;
      const session = /(?:^|;\s*)session=([^;]+)/.exec(request.headers.get('cookie') ?? '');
      return session?.[1] === undefined ? null : { reference: decodeURIComponent(session[1]) };
    },
    allowedOrigins: [siteOrigin],
    limits: { rateLimit: false },
    logger: () => {},
  });
  served.handle = toNodeHandler(proxy);
  browser = await chromium.launch({
    executablePath: findChrome(),
    args: [
      ...CHROME_FLAGS,
      '--host-resolver-rules=MAP *.test 127.0.0.1',
      // Safari's and Firefox's default, and Chrome's with third-party cookies blocked.
      '--test-third-party-cookie-phaseout',
    ],
  });
});

after(async () => {
  await browser?.close();
  app?.close();
  site?.close();
  await proxy?.close();
  await sandbox?.close();
});

/** A fresh browser context signed in at the app (its first-party session cookie). */
async function signedInPage(): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  pageErrors(page);
  await page.goto(`${appOrigin}/sign-in?customer=healthy`);
  // Signed in: on the app's own site, the proxy knows the customer by the cookie.
  const firstParty = await page.goto(`${billingOrigin()}/billing/usages`);
  assert.equal(firstParty?.status(), 200);
  return page;
}

/**
 * Signals a change for `healthy` until the page re-reads its usages (`billing-updated`). The
 * stream's request reaching the proxy does not mean its subscription is registered yet, so a
 * signal sent in between is not heard; a re-read is harmless, so the signal is sent again
 * after a while without one. Fails after five signals.
 */
async function notifyUntilHeard(page: {
  evaluate<T>(fn: () => T | Promise<T>): Promise<T>;
}): Promise<void> {
  await page.evaluate(() => {
    const counted = window as unknown as { billingUpdates?: number };
    counted.billingUpdates = 0;
    document.addEventListener('billing-updated', () => {
      counted.billingUpdates = (counted.billingUpdates ?? 0) + 1;
    });
  });
  const heard = () =>
    page.evaluate(
      () => ((window as unknown as { billingUpdates?: number }).billingUpdates ?? 0) > 0,
    );
  for (let signal = 1; ; signal++) {
    await proxy.notify('healthy');
    try {
      await waitFor(heard, 'the page to hear of the change', 3_000);
      return;
    } catch (error) {
      if (signal === 5) throw error;
    }
  }
}

test('with the app’s cookie only, the page on another site shows the signed-out state', async () => {
  const page = await signedInPage();
  proxyRequests.length = 0;
  await page.goto(`${siteOrigin}/cookie`);
  await page.locator('usage-meter').getByText('Sign in to see your plan').waitFor();
  assert.ok(proxyRequests.length > 0, 'the elements asked the proxy');
  assert.ok(
    proxyRequests.every((request) => !request.cookie),
    'the session cookie is a third-party one here: never sent',
  );
  await screenshot(page, 'token-identity-cookie-signed-out');
  await page.context().close();
});

test('with a token, the page on another site shows the customer, buys once, opens the portal and follows live', async () => {
  const page = await signedInPage();
  await page.context().clearCookies(); // the token alone identifies
  proxyRequests.length = 0;
  const before = await control(sandbox).stats();
  await page.goto(`${siteOrigin}/token`);
  const meter = page.locator('usage-meter');
  await meter.getByText(/4 of 10/).waitFor();
  assert.ok(
    proxyRequests.some((request) => request.line === 'GET /billing/usages' && request.bearer),
  );
  assert.ok(
    proxyRequests.every((request) => !request.cookie),
    'no cookie is sent',
  );

  // A purchase, confirmed: applied once.
  const buy = page.locator('buy-feature');
  await buy.getByRole('button', { name: /^Buy/ }).click();
  await buy.getByRole('dialog').locator('[part~="confirm"]').click();
  await buy.getByText(/Done\./).waitFor();
  await meter.getByText(/5 of 10/).waitFor();
  const afterPurchase = await control(sandbox).stats();
  assert.equal(afterPurchase.appliedUsageChanges, before.appliedUsageChanges + 1);
  assert.equal(proxyRequests.filter((request) => request.line === 'POST /billing/usage').length, 1);

  // The portal, its link asked with the token.
  await page
    .frameLocator('billing-portal iframe:visible')
    .getByRole('heading', { level: 1, name: 'Your subscription' })
    .waitFor();
  assert.ok(
    proxyRequests.some(
      (request) => request.line.startsWith('GET /billing/portal') && request.bearer,
    ),
  );

  // The live stream, opened with a stream ticket: a change made elsewhere reaches the page.
  const ticketed = () =>
    proxyRequests.filter((request) => /^GET \/billing\/events\?ticket=/.test(request.line));
  await waitFor(() => ticketed().length > 0, 'the page to open its stream with a ticket');
  assert.ok(
    proxyRequests.some(
      (request) => request.line === 'POST /billing/stream-ticket' && request.bearer,
    ),
  );
  await notifyUntilHeard(page);
  assert.deepEqual(pageErrors(page), []);
  await screenshot(page, 'token-identity-token');
  await page.context().close();
});

test('an expired token is refreshed once and the request sent again', async () => {
  tokenLifetime = 1;
  const mintedBefore = tokensMinted;
  proxyRequests.length = 0;
  const page = await signedInPage();
  await page.goto(`${siteOrigin}/token`);
  await page.locator('usage-meter').getByText(/of 10/).waitFor();
  // The one-second token must expire: wait until the proxy's own check refuses the page's
  // latest token as expired.
  await waitFor(() => expired(lastToken), 'the short token to expire', 10_000);
  tokenLifetime = 600;
  // A re-read (as after a live signal) meets the expired token, asks for a new one, succeeds.
  await notifyUntilHeard(page);
  await waitFor(
    () =>
      proxyRequests.every(
        (request) => request.status !== undefined || request.line.startsWith('GET /billing/events'),
      ),
    'every request but the open event stream to be answered',
  );
  // The whole page's life is counted: on a busy machine its first reads can outlast the first
  // token, and a request of its own (a price, a stream ticket) can meet the expiry before the
  // re-read does. Each refusal (401 token-expired) is followed by the same request answered
  // with a new token; requests refused together share one new token; nothing loops.
  const log = JSON.stringify(proxyRequests);
  const refused = proxyRequests.flatMap((request, index) =>
    request.status === 401 ? [index] : [],
  );
  assert.ok(refused.length >= 1, `the expired token was met: ${log}`);
  for (const index of refused) {
    const { line } = proxyRequests[index]!;
    assert.ok(
      proxyRequests.slice(index + 1).some((later) => later.line === line && later.status === 200),
      `${line} sent again and answered: ${log}`,
    );
  }
  const refreshes = tokensMinted - mintedBefore - 1;
  assert.ok(refreshes >= 1 && refreshes <= refused.length, `${refreshes} new tokens: ${log}`);
  const reads = proxyRequests.filter((request) => request.line === 'GET /billing/usages');
  assert.equal(reads.at(-1)?.status, 200, log);
  await page.context().close();
});

/** Text of the element at `selector` and of its shadow root, white space folded. */
function shadowText(selector: string): string {
  const element = document.querySelector(selector);
  const root = element?.shadowRoot;
  return `${root ? [...root.childNodes].map((node) => node.textContent).join(' ') : ''} ${element?.textContent ?? ''}`.replace(
    /\s+/g,
    ' ',
  );
}

test('Firefox: the same page on another site, by cookie (signed out) and by token', async () => {
  await control(sandbox).reset();
  const firefox = await puppeteer.launch({
    browser: 'firefox',
    executablePath: findFirefox(),
    headless: true,
    extraPrefsFirefox: {
      // Firefox's host mapping: these names resolve to loopback.
      'network.dns.localDomains': 'app.test,billing.app.test,shop.site.test',
      // Every third-party cookie blocked, as Safari does.
      'network.cookie.cookieBehavior': 1,
    },
  });
  try {
    const context = await firefox.createBrowserContext();
    const page = await context.newPage();
    await page.goto(`${appOrigin}/sign-in?customer=healthy`);
    const firstParty = await page.goto(`${billingOrigin()}/billing/usages`);
    assert.equal(firstParty?.status(), 200, 'signed in: the cookie works on the app’s site');

    proxyRequests.length = 0;
    await page.goto(`${siteOrigin}/cookie`);
    await page.waitForFunction(
      (read: string) =>
        new Function(`return (${read})('usage-meter')`)().includes('Sign in to see your plan'),
      { timeout: 15_000 },
      shadowText.toString(),
    );
    assert.ok(
      proxyRequests.every((request) => !request.cookie),
      'no third-party cookie sent',
    );

    const before = await control(sandbox).stats();
    await page.goto(`${siteOrigin}/token`);
    const showing = (text: string) =>
      page.waitForFunction(
        (read: string, selector: string, wanted: string) =>
          new Function(`return (${read})(${JSON.stringify(selector)})`)().includes(wanted),
        { timeout: 15_000 },
        shadowText.toString(),
        'usage-meter',
        text,
      );
    await showing('4 of 10');
    // Buy one project: Buy, then the dialog's confirm button, with the automation's clicks.
    await page.locator('buy-feature >>> [part~="buy"]').click();
    await page.locator('buy-feature >>> dialog [part~="confirm"]').click();
    await showing('5 of 10');
    assert.equal(
      (await control(sandbox).stats()).appliedUsageChanges,
      before.appliedUsageChanges + 1,
    );
    assert.ok(proxyRequests.every((request) => !request.cookie));
    // The portal's frame, its link asked with the token.
    await page.waitForFunction(
      () => {
        const portal = document.querySelector('billing-portal');
        return (
          (portal?.querySelector('iframe') ?? portal?.shadowRoot?.querySelector('iframe')) != null
        );
      },
      { timeout: 15_000 },
    );
    assert.ok(
      proxyRequests.some(
        (request) => request.line.startsWith('GET /billing/portal') && request.bearer,
      ),
    );
    // The live stream, opened with a ticket: a notification reaches the page.
    await waitFor(
      () => proxyRequests.some((request) => request.line.startsWith('GET /billing/events?ticket=')),
      'the stream to open with a ticket',
    );
    await notifyUntilHeard(page);
    await page.screenshot({ path: 'test-results/screenshots/firefox-token-identity.png' });
  } finally {
    await firefox.close();
  }
});

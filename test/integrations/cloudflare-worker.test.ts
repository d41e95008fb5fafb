// examples/cloudflare-worker: the Worker template a site with no server of its own deploys,
// installed from the packed package, type-checked, bundled as `wrangler deploy` would (its size
// printed), and run in workerd by `wrangler dev` with its Durable Objects, as configured by its
// own wrangler.jsonc and a .dev.vars file (the local form of its secrets). The packed sandbox is
// the billing service, and a loopback server publishes an identity provider's public keys
// (JWKS): each call carries a JWT signed with its private key, as the site's sign-in gives one
// to the page. Over plain HTTP, as the page's elements call it from another origin; then in
// Chromium, a page of another site with the script-tag file, the elements pointed at the Worker
// and the token given through configureBilling({ token }).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import type { RunningSandbox } from '../server/helpers.js';
import { ledgerOf, readEventBlocks, serviceCall } from '../server/helpers.js';
import {
  freePort,
  installExample,
  launchBrowser,
  proveBilling,
  watchConsole,
  startProcess,
  startSandboxOf,
  type InstalledApp,
  type RunningProcess,
  type Sandbox,
} from './harness.js';
import { waitFor } from '../time.js';

/** The no-code site's origin, which the Worker lists in ALLOWED_ORIGINS. */
const SITE = 'https://shop.nocode.example';
const ISSUER = 'https://auth.nocode.example/';
const AUDIENCE = 'billing';
const KEY_ID = 'site-key-1';
const WEBHOOK_SECRET = 'worker-template-webhook-secret';
const WEBHOOK_KEY = 'wh_worker_template';
const CUSTOMER = 'healthy';

let app: InstalledApp;
let sandbox: Sandbox;
let jwks: Server;
let jwksUrl: string;
let providerUrl: string;
let signingKey: CryptoKey;
/** Another key the provider never published: what a forger signs with. */
let otherKey: CryptoKey;
let webhookSignature: (key: string, secret: string) => Promise<string>;

/** A token as the identity provider issues it: `sub` the customer, for an hour by default. */
async function tokenFor(
  subject: string,
  { key = signingKey, audience = AUDIENCE, expiresAt = '1h' as string | number } = {},
): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: KEY_ID })
    .setSubject(subject)
    .setIssuer(ISSUER)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .sign(key);
}

/** An answer's status, headers, text and parsed body. */
async function answerOf(response: Response) {
  const text = await response.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const body: any = text === '' ? undefined : JSON.parse(text);
  return { status: response.status, headers: response.headers, text, body };
}

before(async () => {
  app = await installExample('cloudflare-worker');
  sandbox = await startSandboxOf(app);
  ({ webhookSignature } = (await import(
    join(app.dir, 'node_modules/billing-elements/dist/server/worker.js')
  )) as { webhookSignature: typeof webhookSignature });
  const pair = await generateKeyPair('ES256');
  signingKey = pair.privateKey;
  otherKey = (await generateKeyPair('ES256')).privateKey;
  const published = JSON.stringify({
    keys: [{ ...(await exportJWK(pair.publicKey)), kid: KEY_ID, alg: 'ES256', use: 'sig' }],
  });
  // The identity provider: its public keys, and (for the browser test) the token its sign-in
  // script hands the page of a signed-in visitor.
  jwks = createServer((request, response) => {
    if (request.url === '/token') {
      void tokenFor(CUSTOMER).then((token) => {
        response.writeHead(200, {
          'content-type': 'text/plain',
          'access-control-allow-origin': '*',
        });
        response.end(token);
      });
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(published);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => jwks.listen(port, '127.0.0.1', resolve));
  providerUrl = `http://127.0.0.1:${port}`;
  jwksUrl = `${providerUrl}/.well-known/jwks.json`;
});

after(async () => {
  await new Promise((resolve) => jwks?.close(resolve));
  await sandbox?.close();
  app?.remove();
});

it('type-checks src/index.ts against the packed package (`tsc --noEmit`)', async () => {
  await app.exec('node', ['node_modules/typescript/bin/tsc', '--noEmit']);
});

it('bundles for `wrangler deploy`: the classes exported, no undici, no Node module or adapter', async () => {
  const out = mkdtempSync(join(tmpdir(), 'billing-worker-bundle-'));
  try {
    await app.exec(
      'node',
      ['node_modules/wrangler/bin/wrangler.js', 'deploy', '--dry-run', '--minify', '--outdir', out],
      { WRANGLER_SEND_METRICS: 'false', CI: 'true' },
    );
    const file = join(out, 'index.js');
    const code = readFileSync(file, 'utf8');
    const size = statSync(file).size;
    console.log(
      `cloudflare-worker template bundle (wrangler deploy --dry-run --minify): ${(size / 1024).toFixed(1)} KiB, ` +
        `${(gzipSync(code, { level: 9 }).byteLength / 1024).toFixed(1)} KiB gzip`,
    );
    assert.match(code, /export\s*\{[^}]*\bBillingIdempotencyObject\b/, 'the store’s class');
    assert.match(code, /export\s*\{[^}]*\bBillingSignalsObject\b/, 'the bus’s class');
    assert.doesNotMatch(code, /undici/i, 'no undici');
    assert.doesNotMatch(code, /(?:from|import\(|require\()\s*["']node:/, 'no Node module');
    // The Node adapter reads node:http's rawHeaders; no other part of the proxy does.
    assert.doesNotMatch(code, /\brawHeaders\b|@hono\/node-server/, 'no Node adapter');
    // The proxy with zod, jose and both Durable Object classes: 250 KiB when this was written.
    assert.ok(size < 288 * 1024, `the bundle is ${size} bytes`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

describe('in workerd (`wrangler dev`)', () => {
  let worker: RunningProcess;
  let base: string;
  let targetId: string | undefined;
  /** The no-code site of the browser test: a page and the script-tag file, on its own origin. */
  let site: Server;
  let siteUrl: string;

  /** A call of the site's page: the visitor's token, and the site's origin on a POST. */
  async function page(path: string, body?: unknown, token?: string | null) {
    const headers: Record<string, string> = { accept: 'application/json' };
    const bearer = token === undefined ? await tokenFor(CUSTOMER) : token;
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers.origin = SITE;
    }
    return answerOf(
      await fetch(`${base}/billing${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers,
        body: body === undefined ? null : JSON.stringify(body),
      }),
    );
  }

  /** The sandbox's control API (the service's back office: its webhooks). */
  async function control(method: string, path: string, body?: unknown) {
    return answerOf(
      await fetch(`${sandbox.url}/_sandbox${path}`, {
        method,
        headers: {
          authorization: `Basic ${btoa(`${sandbox.agentKey}:${sandbox.apiKey}`)}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? null : JSON.stringify(body),
      }),
    );
  }

  before(async () => {
    const [port, inspectorPort, sitePort] = [await freePort(), await freePort(), await freePort()];
    base = `http://127.0.0.1:${port}`;
    siteUrl = `http://localhost:${sitePort}/`;
    site = await startSite(sitePort, base);
    // The secrets and the vars the test's services need, as a .dev.vars file beside
    // wrangler.jsonc: `wrangler dev` reads it in place of the deployed secrets.
    const vars: Record<string, string> = {
      BILLING_API_URL: sandbox.apiUrl,
      BILLING_BUSINESS_ID: String(sandbox.businessId),
      BILLING_SEGMENT: sandbox.segment,
      BILLING_PORTAL_SCRIPT_URL: sandbox.portalScriptUrl,
      BILLING_WEBHOOK_KEY: WEBHOOK_KEY,
      ALLOWED_ORIGINS: `${SITE}, ${new URL(siteUrl).origin}`,
      JWT_JWKS_URL: jwksUrl,
      JWT_ISSUER: ISSUER,
      JWT_AUDIENCE: AUDIENCE,
      JWT_CLAIM: 'sub',
      BILLING_AGENT_KEY: sandbox.agentKey,
      BILLING_API_KEY: sandbox.apiKey,
      BILLING_PORTAL_SECRET: sandbox.portalSecret,
      BILLING_WEBHOOK_SECRET: WEBHOOK_SECRET,
    };
    writeFileSync(
      join(app.dir, '.dev.vars'),
      Object.entries(vars)
        .map(([name, value]) => `${name}=${JSON.stringify(value)}\n`)
        .join(''),
    );
    const starting = Date.now();
    worker = await startProcess(
      app,
      'node',
      [
        'node_modules/wrangler/bin/wrangler.js',
        'dev',
        '--ip',
        '127.0.0.1',
        '--port',
        String(port),
        '--inspector-port',
        String(inspectorPort),
        '--show-interactive-dev-session=false',
      ],
      {
        env: { WRANGLER_SEND_METRICS: 'false', CI: 'true' },
        // The proxy's health route: 200 once the Durable Object store and the service answer.
        readyUrl: `${base}/billing/health`,
        timeoutMs: 90_000,
      },
    );
    console.log(`cloudflare-worker template: wrangler dev ready in ${Date.now() - starting} ms`);
    const target = await control('POST', '/webhooks', {
      url: `${base}/billing/webhooks`,
      secret: WEBHOOK_SECRET,
      key: WEBHOOK_KEY,
    });
    assert.equal(target.status, 201, target.text);
    targetId = String(target.body.id);
  });

  after(async () => {
    if (targetId !== undefined) await control('DELETE', `/webhooks/${targetId}`);
    await worker?.stop();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('reads the usages of the customer the token names', async () => {
    const { status, body, text } = await page('/usages');
    assert.equal(status, 200, text);
    const seats = (body.usages as { ReferenceFeature: string; ReferenceCustomer: string }[]).find(
      (usage) => usage.ReferenceFeature === 'seats',
    );
    assert.equal(seats?.ReferenceCustomer, CUSTOMER);
  });

  it('refuses a call without a token, with a forged, expired or misdirected one', async () => {
    const now = Math.floor(Date.now() / 1000);
    const refused: [string, string | null, string][] = [
      ['no token', null, 'unauthenticated'],
      ['another key', await tokenFor(CUSTOMER, { key: otherKey }), 'token-invalid'],
      ['expired an hour ago', await tokenFor(CUSTOMER, { expiresAt: now - 3600 }), 'token-expired'],
      ['another audience', await tokenFor(CUSTOMER, { audience: 'another-app' }), 'token-invalid'],
      ['not a JWT', CUSTOMER, 'token-invalid'],
    ];
    for (const [what, token, code] of refused) {
      const { status, body, text } = await page('/usages', undefined, token);
      assert.equal(status, 401, `${what}: ${text}`);
      assert.equal(body.code, code, what);
    }
  });

  it('answers the listed site with CORS, and refuses another origin', async () => {
    const preflight = await fetch(`${base}/billing/usage`, {
      method: 'OPTIONS',
      headers: {
        origin: SITE,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    await preflight.body?.cancel();
    assert.ok(preflight.status < 300, `preflight: ${preflight.status}`);
    assert.equal(preflight.headers.get('access-control-allow-origin'), SITE);
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /authorization/i);
    const listed = await page('/pricing', { feature: 'seats', increment: 1 });
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.headers.get('access-control-allow-origin'), SITE);
    const other = await answerOf(
      await fetch(`${base}/billing/pricing`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${await tokenFor(CUSTOMER)}`,
          'content-type': 'application/json',
          origin: 'https://elsewhere.example',
        },
        body: JSON.stringify({ feature: 'seats', increment: 1 }),
      }),
    );
    assert.equal(other.status, 403, other.text);
    assert.equal(other.body.code, 'forbidden-origin');
  });

  it('applies a confirmed purchase once under 20 concurrent duplicates', async () => {
    const running = sandbox as unknown as RunningSandbox;
    const quote = await page('/pricing', { feature: 'seats', increment: 3 });
    assert.equal(quote.status, 200, quote.text);
    const before = await ledgerOf(running, CUSTOMER);
    const purchase = {
      feature: 'seats',
      increment: 3,
      idempotencyKey: 'worker-template-duplicates-0001',
      confirmedAmountTotal: quote.body.AmountTotal,
    };
    const answers = await Promise.all(Array.from({ length: 20 }, () => page('/usage', purchase)));
    assert.deepEqual(
      answers.map((answer) => answer.status),
      Array.from({ length: 20 }, () => 200),
      answers.find((answer) => answer.status !== 200)?.text,
    );
    assert.ok(answers.every((answer) => answer.body.usage.QuantityCurrent === before.quantity + 3));
    const afterwards = await ledgerOf(running, CUSTOMER);
    assert.equal(afterwards.count - before.count, 1, 'one apply');
    assert.equal(afterwards.invoices - before.invoices, 1, 'one invoice');
    assert.equal(afterwards.quantity, before.quantity + 3);
  });

  it('passes a notification the service signs on to the customer’s open event stream', async () => {
    // As the page does: its token buys a stream ticket, which opens the stream once
    // (EventSource cannot send an Authorization header).
    const ticket = await page('/stream-ticket', {});
    assert.equal(ticket.status, 200, ticket.text);
    const streamUrl = `${base}/billing/events?ticket=${encodeURIComponent(ticket.body.ticket)}`;
    const controller = new AbortController();
    const response = await fetch(streamUrl, {
      headers: { accept: 'text/event-stream', origin: SITE },
      signal: controller.signal,
    });
    try {
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
      const blocks: string[] = [];
      readEventBlocks(response.body!.getReader(), (block) => void blocks.push(block));
      await until(() => blocks.some((block) => block.startsWith('retry:')), 'no opening');
      // The business's back end reports usage on the service directly: the service notifies
      // the Worker's webhook route, signed with the webhook's secret.
      const applied = await serviceCall(sandbox as unknown as RunningSandbox, 'POST', '/v1/Usage', {
        ReferenceCustomer: CUSTOMER,
        ReferenceFeature: 'seats',
        Increment: 1,
        DateStamp: new Date().toISOString(),
      });
      assert.equal(applied.status, 200);
      await until(
        () => blocks.some((block) => /^event: billing-changed$/m.test(block)),
        'no billing-changed event',
      );
      // The ticket was spent on this stream: it opens no other.
      const again = await answerOf(
        await fetch(streamUrl, { headers: { accept: 'text/event-stream', origin: SITE } }),
      );
      assert.equal(again.status, 401, again.text);
    } finally {
      controller.abort();
    }
  });

  it('refuses a forged notification', async () => {
    const response = await fetch(`${base}/billing/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-key': WEBHOOK_KEY,
        'x-service-signature': await webhookSignature(WEBHOOK_KEY, 'not-the-secret'),
      },
      body: JSON.stringify({
        Id: 'worker-template-forged-1',
        TypeTrigger: 'UsageChanged',
        Customer: { ReferenceCustomer: CUSTOMER },
      }),
    });
    assert.equal(response.status, 403);
    assert.equal(((await response.json()) as { code: string }).code, 'invalid-signature');
  });

  it('runs without a warning about the runtime', () => {
    const warnings = worker.output().match(/\[billing-proxy\] runtime-limit: .*/g) ?? [];
    assert.deepEqual(warnings, []);
  });
  it('serves a page on another site in Chromium: the snippet, the token, a purchase, live updates', async () => {
    const browser = await launchBrowser();
    try {
      // The meter's figures, a purchase confirmed and applied once, the portal, a clean console.
      await proveBilling(browser, sandbox, siteUrl, { serverOutput: () => worker.output() });
      // The service's notification, through the Worker's webhook route and the page's ticketed
      // stream, redraws the open page: no reload.
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors = watchConsole(page);
      const streamOpen = page.waitForResponse(
        (response) => response.url().startsWith(`${base}/billing/events?ticket=`) && response.ok(),
      );
      await page.goto(siteUrl);
      const value = page.locator('usage-meter[feature="seats"] [part~="value"]');
      await value.filter({ hasText: /^6$/ }).waitFor();
      await streamOpen;
      const applied = await serviceCall(sandbox as unknown as RunningSandbox, 'POST', '/v1/Usage', {
        ReferenceCustomer: CUSTOMER,
        ReferenceFeature: 'seats',
        Increment: 1,
        DateStamp: new Date().toISOString(),
      });
      assert.equal(applied.status, 200);
      await value.filter({ hasText: /^7$/ }).waitFor({ timeout: 10_000 });
      assert.deepEqual(errors, [], "errors in the page's console");
      await context.close();
    } finally {
      await browser.close();
    }
  });
});

/**
 * The no-code site: one page as a site builder publishes it, with the script-tag file and the
 * elements pointed at the Worker, and the sign-in tool's token given to them.
 */
async function startSite(port: number, worker: string): Promise<Server> {
  const script = readFileSync(
    join(app.dir, 'node_modules/billing-elements/dist/billing-elements.js'),
  );
  const page = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><link rel="icon" href="data:," /><title>Shop</title></head>
  <body>
    <script src="/billing-elements.js"></script>
    <script>
      // The visitor's JWT, as the site's sign-in tool gives it (null when signed out).
      BillingElements.configureBilling({
        token: () => fetch('${providerUrl}/token').then((response) => response.text()),
      });
    </script>
    <usage-meter feature="seats" endpoint="${worker}/billing"></usage-meter>
    <buy-feature feature="seats" label="seats" endpoint="${worker}/billing"></buy-feature>
    <billing-portal endpoint="${worker}/billing"></billing-portal>
  </body>
</html>`;
  const server = createServer((request, response) => {
    if (request.url === '/billing-elements.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(script);
    } else if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(page);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(port, 'localhost', resolve));
  return server;
}

async function until(condition: () => boolean, message: string, timeoutMs?: number) {
  await waitFor(condition, message, timeoutMs);
}

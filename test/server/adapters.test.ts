import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { serve } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { createServer as createViteServer } from 'vite';
import {
  billingProxyVitePlugin,
  createBillingProxy,
  toExpressMiddleware,
  toHonoHandler,
  toNextHandlers,
  toNodeHandler,
  type BillingProxy,
} from '../../src/server/index.js';
import {
  browserRequest,
  proxyOptions,
  startSandbox,
  type RunningSandbox,
  assertStillServes,
  listen,
  rawPricingPost,
} from './helpers.js';

/** The same checks over real HTTP for every adapter: a read, a purchase-path POST, CORS, a 404 and a 413. */
async function exercise(origin: string) {
  const cookie = 'session=healthy';
  const usages = await fetch(`${origin}/billing/usages`, { headers: { cookie } });
  assert.equal(usages.status, 200);
  assert.equal(usages.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(((await usages.json()) as { usages: unknown[] }).usages.length, 5);

  const pricing = await fetch(`${origin}/billing/pricing`, {
    method: 'POST',
    headers: { cookie, origin, 'content-type': 'application/json' },
    body: JSON.stringify({ feature: 'seats', increment: 1 }),
  });
  assert.equal(pricing.status, 200);
  assert.equal(((await pricing.json()) as { ReferenceFeature: string }).ReferenceFeature, 'seats');

  const cross = await fetch(`${origin}/billing/pricing`, {
    method: 'POST',
    headers: { cookie, origin: 'https://nocode.example', 'content-type': 'application/json' },
    body: JSON.stringify({ feature: 'seats', increment: 1 }),
  });
  assert.equal(cross.status, 200);
  assert.equal(cross.headers.get('access-control-allow-origin'), 'https://nocode.example');

  const preflight = await fetch(`${origin}/billing/usage`, {
    method: 'OPTIONS',
    headers: {
      origin: 'https://nocode.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    },
  });
  assert.equal(preflight.status, 204);

  const forbidden = await fetch(`${origin}/billing/pricing`, {
    method: 'POST',
    headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
    body: JSON.stringify({ feature: 'seats', increment: 1 }),
  });
  assert.equal(forbidden.status, 403);

  const missing = await fetch(`${origin}/billing/nope`, { headers: { cookie } });
  assert.equal(missing.status, 404);

  const big = await fetch(`${origin}/billing/pricing`, {
    method: 'POST',
    headers: { cookie, origin, 'content-type': 'application/json' },
    body: JSON.stringify({ feature: 'seats', increment: 1, pad: 'x'.repeat(40_000) }),
  });
  assert.equal(big.status, 413);

  const anonymous = await fetch(`${origin}/billing/usages`);
  assert.equal(anonymous.status, 401);
}

describe('framework adapters over real HTTP', () => {
  let sandbox: RunningSandbox;
  let proxy: BillingProxy;
  const closers: (() => Promise<unknown>)[] = [];

  before(async () => {
    sandbox = await startSandbox();
    proxy = createBillingProxy(proxyOptions(sandbox));
  });
  after(async () => {
    for (const close of closers.reverse()) await close();
    await sandbox.close();
  });

  it('node:http (toNodeHandler)', async () => {
    const server = createServer(toNodeHandler(proxy));
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    await exercise(await listen(server));
  });

  it('node:http refuses a chunked body over the cap while it streams, and keeps serving', async () => {
    const server = createServer(toNodeHandler(proxy));
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    const origin = await listen(server);
    const status = await new Promise<number>((resolve, reject) => {
      const outgoing = rawPricingPost(origin, { 'transfer-encoding': 'chunked' });
      outgoing.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      outgoing.on('error', reject);
      outgoing.write('{"feature":"seats","increment":1,"pad":"');
      let sent = 0;
      const chunk = 'x'.repeat(1024);
      // Up to 256 KiB, stopping as soon as the answer came: the server must answer before the end.
      const pump = () => {
        while (sent < 256 && outgoing.write(chunk)) sent += 1;
        if (sent < 256) outgoing.once('drain', pump);
      };
      pump();
    });
    assert.equal(status, 413);
    await assertStillServes(origin);
  });

  it('node:http behind a TLS-terminating reverse proxy (trustProxy) sees the public origin', async () => {
    const trusting = createServer(toNodeHandler(proxy, { trustProxy: true }));
    const plain = createServer(toNodeHandler(proxy));
    closers.push(() => new Promise((resolve) => trusting.close(resolve)));
    closers.push(() => new Promise((resolve) => plain.close(resolve)));
    const post = (origin: string) =>
      fetch(`${origin}/billing/pricing`, {
        method: 'POST',
        headers: {
          cookie: 'session=healthy',
          origin: 'https://shop.example',
          'content-type': 'application/json',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'shop.example',
        },
        body: JSON.stringify({ feature: 'seats', increment: 1 }),
      });
    assert.equal((await post(await listen(trusting))).status, 200);
    assert.equal(
      (await post(await listen(plain))).status,
      403,
      'forwarded headers are ignored by default',
    );
  });

  it('Express (toExpressMiddleware), passing other paths on, also after express.json()', async () => {
    const app = express();
    app.get('/health', (_request, response) => void response.send('ok'));
    app.use(toExpressMiddleware(proxy));
    const server = createServer(app);
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    const origin = await listen(server);
    await exercise(origin);
    assert.equal(await (await fetch(`${origin}/health`)).text(), 'ok');

    const parsed = express();
    parsed.use(express.json());
    parsed.use('/billing', toExpressMiddleware(proxy));
    const parsedServer = createServer(parsed);
    closers.push(() => new Promise((resolve) => parsedServer.close(resolve)));
    const parsedOrigin = await listen(parsedServer);
    const pricing = await fetch(`${parsedOrigin}/billing/pricing`, {
      method: 'POST',
      headers: {
        cookie: 'session=healthy',
        origin: parsedOrigin,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ feature: 'seats', increment: 1 }),
    });
    assert.equal(pricing.status, 200);
  });

  it('Hono (toHonoHandler) on @hono/node-server', async () => {
    const app = new Hono();
    app.all('/billing/*', toHonoHandler(proxy));
    app.get('/', (context) => context.text('home'));
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await once(server, 'listening');
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    await exercise(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });

  it('Next.js route handlers (toNextHandlers) called with Request', async () => {
    const { GET, POST, OPTIONS } = toNextHandlers(proxy);
    const usages = await GET(browserRequest('/usages'));
    assert.equal(usages.status, 200);
    const pricing = await POST(
      browserRequest('/pricing', { body: { feature: 'seats', increment: 1 } }),
    );
    assert.equal(pricing.status, 200);
    const preflight = await OPTIONS(
      new Request('http://app.test/billing/pricing', {
        method: 'OPTIONS',
        headers: { origin: 'https://nocode.example', 'access-control-request-method': 'POST' },
      }),
    );
    assert.equal(preflight.status, 204);
    // Served by a real HTTP server too, the way Next's runtime hands Requests to the handlers.
    const server = createServer(
      toNodeHandler({
        ...proxy,
        handler: (request) =>
          (request.method === 'POST' ? POST : request.method === 'OPTIONS' ? OPTIONS : GET)(
            request,
          ),
      }),
    );
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    await exercise(await listen(server));
  });

  it('Vite dev server (billingProxyVitePlugin), other requests left to Vite', async () => {
    const vite = await createViteServer({
      configFile: false,
      root: new URL('.', import.meta.url).pathname,
      logLevel: 'silent',
      appType: 'custom',
      server: { middlewareMode: true, hmr: false, ws: false },
      plugins: [billingProxyVitePlugin({ ...proxyOptions(sandbox), basePath: undefined })],
    });
    closers.push(() => vite.close());
    const server = createServer(vite.middlewares);
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    const origin = await listen(server);
    await exercise(origin);
    const module = await fetch(`${origin}/helpers.ts`);
    assert.equal(module.status, 200, 'Vite still serves the app');
    // The preflight of an allowed origin is the proxy's, not Vite's own CORS answer (which
    // comes before the plugins' middlewares and lacks Access-Control-Allow-Credentials).
    const preflight = await fetch(`${origin}/billing/pricing`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://nocode.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-credentials'), 'true');
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://nocode.example');
  });

  it('Vite plugin: checks its options when the server starts, not when the config loads', async () => {
    const plugin = billingProxyVitePlugin(() => ({
      ...proxyOptions(sandbox),
      identify: undefined as never,
    }));
    await assert.rejects(
      createViteServer({
        configFile: false,
        root: new URL('.', import.meta.url).pathname,
        logLevel: 'silent',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false, watch: null },
        plugins: [plugin],
      }),
      /identify is required/,
    );
  });

  it('refuses invalid options at creation with clear messages', () => {
    assert.throws(
      () =>
        createBillingProxy({
          ...proxyOptions(sandbox),
          apiKey: '',
          baseUrl: 'ftp://x',
          allowedOrigins: ['https://ok.example/'],
        }),
      (error: Error) =>
        /apiKey must not be empty/.test(error.message) &&
        /baseUrl must be an absolute http\(s\) URL/.test(error.message) &&
        /allowedOrigins\.0/.test(error.message),
    );
  });
});

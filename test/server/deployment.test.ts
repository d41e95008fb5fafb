// How the proxy behaves where apps really run: behind a development proxy or a reverse proxy
// that rewrites Host (Vite's server.proxy, next start, nginx), and built without its secrets
// (next build, a container image) but started with them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBillingProxy, type BillingProxyOptions } from '../../src/server/index.js';
import { call, proxyOptions, useSandbox } from './helpers.js';

/** The page's origin; the proxy itself sees http://app.test (a rewritten Host). */
const PAGE = 'http://localhost:5173';
const quote = { feature: 'seats', increment: 1 };

describe('the origin check behind a proxy that rewrites Host', () => {
  const sandbox = useSandbox();

  it("takes the browser's Sec-Fetch-Site: same-origin over the Host it sees", async () => {
    const proxy = createBillingProxy(proxyOptions(sandbox));
    const sameOrigin = await call(proxy, '/pricing', {
      body: quote,
      origin: PAGE,
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    assert.equal(sameOrigin.status, 200, sameOrigin.text);
    // Answered as same-origin: no CORS headers for that origin.
    assert.equal(sameOrigin.headers.get('access-control-allow-origin'), null);

    for (const site of ['cross-site', 'same-site', null]) {
      const refused = await call(proxy, '/pricing', {
        body: quote,
        origin: PAGE,
        headers: site === null ? {} : { 'sec-fetch-site': site },
      });
      assert.equal(refused.status, 403, `Sec-Fetch-Site ${site}`);
      assert.equal(refused.body.code, 'forbidden-origin');
    }
  });

  it('with trustProxy, takes the public origin from X-Forwarded-Host and -Proto', async () => {
    const forwarded = {
      'x-forwarded-host': 'shop.example:8443',
      'x-forwarded-proto': 'https',
    };
    const origin = 'https://shop.example:8443';
    const trusting = createBillingProxy(proxyOptions(sandbox, { trustProxy: true }));
    const allowed = await call(trusting, '/pricing', { body: quote, origin, headers: forwarded });
    assert.equal(allowed.status, 200, allowed.text);
    // Another page's origin is still refused, and without trustProxy the headers mean nothing.
    const other = await call(trusting, '/pricing', {
      body: quote,
      origin: 'https://evil.example',
      headers: forwarded,
    });
    assert.equal(other.status, 403);
    const plain = createBillingProxy(proxyOptions(sandbox));
    const ignored = await call(plain, '/pricing', { body: quote, origin, headers: forwarded });
    assert.equal(ignored.status, 403);
    assert.equal(ignored.body.code, 'forbidden-origin');
  });
});

describe('options given as a function', () => {
  const sandbox = useSandbox();

  it('are not read when the proxy is made, so a build runs without secrets', () => {
    let reads = 0;
    const proxy = createBillingProxy(() => {
      reads += 1;
      return { basePath: '/billing' } as unknown as BillingProxyOptions;
    });
    assert.equal(reads, 0);
    assert.equal(proxy.basePath, '/billing', 'adapters can still route');
  });

  it('fail loudly at check() and on every request while a secret is missing', async () => {
    const env: Record<string, string | undefined> = {};
    const proxy = createBillingProxy(() => ({
      ...proxyOptions(sandbox),
      apiKey: env.BILLING_API_KEY as string,
    }));
    assert.throws(() => proxy.check(), /Invalid billing proxy options:\n - apiKey is required/);
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: string) => errors.push(line);
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const answer = await call(proxy, '/usages');
        assert.equal(answer.status, 500);
        assert.equal(answer.body.code, 'internal');
        assert.doesNotMatch(answer.text, /apiKey/, 'the browser is not told the configuration');
      }
      await assert.rejects(proxy.isEntitled('healthy', 'seats'), /apiKey is required/);
    } finally {
      console.error = original;
    }
    assert.equal(errors.length, 2);
    assert.match(errors[0]!, /\[billing-proxy\] misconfiguration: .*apiKey is required/s);

    // Once the secret is there (the next start), the same code serves.
    env.BILLING_API_KEY = sandbox.apiKey;
    proxy.check();
    const usages = await call(proxy, '/usages');
    assert.equal(usages.status, 200, usages.text);
    assert.equal(await proxy.isEntitled('healthy', 'seats'), true);
    await proxy.close();
  });
});

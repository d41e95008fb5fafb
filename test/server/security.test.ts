import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBillingProxy, type BillingProxy } from '../../src/server/index.js';
import type { countingFetch } from './helpers.js';
import {
  APP_ORIGIN,
  call,
  collectingLogger,
  control,
  proxyOptions,
  type RunningSandbox,
  useProxy,
} from './helpers.js';

describe('proxy security boundary', () => {
  let sandbox: RunningSandbox;
  let proxy: BillingProxy;
  let counter: ReturnType<typeof countingFetch>;

  useProxy((made) => ({ sandbox, proxy, counter } = made));

  describe('identity', () => {
    it('answers 401 when identify returns null, without calling the service', async () => {
      for (const [path, body] of [
        ['/usages', undefined],
        ['/pricing', { feature: 'seats', increment: 1 }],
        ['/portal?page=home', undefined],
        ['/subscription', undefined],
      ] as const) {
        const { status, body: answer } = await call(proxy, path, { customer: null, body });
        assert.equal(status, 401, path);
        assert.equal(answer.code, 'unauthenticated');
      }
      assert.equal(counter.total, 0);
    });

    it('refuses a customer reference in the body', async () => {
      const { status, body } = await call(proxy, '/pricing', {
        body: { feature: 'seats', increment: 1, customer: 'suspended' },
      });
      assert.equal(status, 400);
      assert.equal(body.field, 'customer');
      const purchase = await call(proxy, '/usage', {
        body: {
          feature: 'seats',
          increment: 1,
          idempotencyKey: 'security-key-00001',
          confirmedAmountTotal: 0,
          ReferenceCustomer: 'x',
        },
      });
      assert.equal(purchase.status, 400);
      assert.equal(counter.total, 0);
    });

    it("cannot reach another customer's invoice or subscription", async () => {
      const carl = await control(sandbox).customer('capping-reached');
      const invoiceId = carl.invoices[0].id ?? carl.invoices[0].Id;
      const invoice = await call(proxy, `/portal?page=pay-invoice&invoice=${invoiceId}`);
      assert.equal(invoice.status, 404);
      assert.equal(invoice.body.code, 'not-found');
      assert.doesNotMatch(invoice.text, /capping|Carl|4900/i);
      const subscriptionId = carl.subscriptions[0].id ?? carl.subscriptions[0].Id;
      const subscription = await call(
        proxy,
        `/portal?page=change-plan&subscription=${subscriptionId}`,
      );
      assert.equal(subscription.status, 404);
      assert.equal(subscription.body.code, 'not-found');
      // The owner reaches the same invoice.
      const own = await call(proxy, `/portal?page=pay-invoice&invoice=${invoiceId}`, {
        customer: 'capping-reached',
      });
      assert.equal(own.status, 200, own.text);
    });

    it('names the customer in each answer, and refuses a change sent for another one', async () => {
      // A page's answers name its customer; the page sends that name back with its changes.
      const usages = await call(proxy, '/usages', { customer: 'capping-reached' });
      assert.equal(usages.status, 200);
      assert.equal(usages.headers.get('billing-customer'), 'capping-reached');
      const odd = await call(proxy, '/usages', { customer: 'ann & co/é' });
      assert.equal(odd.headers.get('billing-customer'), encodeURIComponent('ann & co/é'));
      // Another customer signed in since (in another tab of the same site): refused, unapplied.
      const before = await control(sandbox).stats();
      const purchase = await call(proxy, '/usage', {
        customer: 'healthy',
        headers: { 'billing-customer': 'capping-reached' },
        body: {
          feature: 'seats',
          increment: 1,
          idempotencyKey: 'session-changed-key-0001',
          confirmedAmountTotal: 0,
        },
      });
      assert.equal(purchase.status, 409, purchase.text);
      assert.equal(purchase.body.code, 'session-changed');
      assert.equal(purchase.headers.get('billing-customer'), 'healthy');
      const pricing = await call(proxy, '/pricing', {
        customer: 'healthy',
        headers: { 'billing-customer': 'capping-reached' },
        body: { feature: 'seats', increment: 1 },
      });
      assert.equal(pricing.status, 409);
      assert.equal(pricing.body.code, 'session-changed');
      const after = await control(sandbox).stats();
      assert.deepEqual(after.appliedUsageChangesByCustomer, before.appliedUsageChangesByCustomer);
      // The same customer's change goes through.
      const same = await call(proxy, '/pricing', {
        customer: 'healthy',
        headers: { 'billing-customer': 'healthy' },
        body: { feature: 'seats', increment: 1 },
      });
      assert.equal(same.status, 200, same.text);
    });

    it('lets another allowed origin read and send the customer header', async () => {
      const cross = await call(proxy, '/usages', { origin: 'https://nocode.example' });
      const exposed = cross.headers.get('access-control-expose-headers') ?? '';
      assert.match(exposed, /(^|, )billing-customer(,|$)/i);
      const preflight = await call(proxy, '/usage', {
        method: 'OPTIONS',
        origin: 'https://nocode.example',
        headers: {
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, billing-customer',
        },
      });
      assert.equal(preflight.status, 204);
    });

    it('answers a broken identify with 500 internal and logs it', async () => {
      const { logger, entries } = collectingLogger();
      const broken = createBillingProxy(
        proxyOptions(sandbox, {
          logger,
          identify: () => {
            throw new Error('session store down: secret-detail');
          },
        }),
      );
      const { status, body, text } = await call(broken, '/usages');
      assert.equal(status, 500);
      assert.equal(body.code, 'internal');
      assert.doesNotMatch(text, /secret-detail|stack|at /);
      assert.ok(
        entries.some(
          (entry) =>
            entry.event === 'internal-error' && String(entry.message).includes('secret-detail'),
        ),
      );
    });
  });

  describe('CSRF and CORS', () => {
    it('refuses a cross-origin POST from an origin not allowed, before anything else', async () => {
      const { status, body, headers } = await call(proxy, '/pricing', {
        origin: 'https://evil.example',
        body: { feature: 'seats', increment: 1 },
      });
      assert.equal(status, 403);
      assert.equal(body.code, 'forbidden-origin');
      // The page may read why (not "billing could not be reached"), never with
      // credentials: the refusal carries nothing of any customer.
      assert.equal(headers.get('access-control-allow-origin'), 'https://evil.example');
      assert.equal(headers.get('access-control-allow-credentials'), null);
      assert.match(body.message, /https:\/\/evil\.example is not in the allowedOrigins/);
      assert.equal(counter.total, 0);
    });

    /** A price asked from `origin` (null: no Origin header), with more request headers. */
    const priceFrom = (origin: string | null, headers: Record<string, string> = {}) =>
      call(proxy, '/pricing', { origin, headers, body: { feature: 'seats', increment: 1 } });

    it('refuses a POST with neither Origin nor Sec-Fetch-Site: same-origin', async () => {
      const refused: [string, string | null, Record<string, string>?][] = [
        ['no Origin', null],
        ['Origin: null', 'null'],
        ['no Origin, cross-site', null, { 'sec-fetch-site': 'cross-site' }],
      ];
      for (const [what, origin, headers] of refused)
        assert.equal((await priceFrom(origin, headers)).status, 403, what);
      assert.equal(counter.total, 0);
    });

    it('accepts same-origin requests: same Origin, or no Origin with Sec-Fetch-Site: same-origin', async () => {
      const sameOrigin = await priceFrom(APP_ORIGIN);
      assert.equal(sameOrigin.status, 200);
      assert.equal(sameOrigin.headers.get('access-control-allow-origin'), null);
      const fetchMetadata = await priceFrom(null, { 'sec-fetch-site': 'same-origin' });
      assert.equal(fetchMetadata.status, 200);
    });

    it('refuses cross-site reads too (no customer creation from another site)', async () => {
      const read = await call(proxy, '/usages', { origin: 'https://evil.example' });
      assert.equal(read.status, 403);
      const image = await call(proxy, '/usages', {
        customer: 'someone-new',
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      assert.equal(image.status, 403);
      assert.equal(counter.total, 0);
    });

    it('serves an allowed origin with credentials, on successes and refusals', async () => {
      const ok = await call(proxy, '/pricing', {
        origin: 'https://nocode.example',
        body: { feature: 'seats', increment: 1 },
      });
      assert.equal(ok.status, 200);
      assert.equal(ok.headers.get('access-control-allow-origin'), 'https://nocode.example');
      assert.equal(ok.headers.get('access-control-allow-credentials'), 'true');
      assert.match(ok.headers.get('vary') ?? '', /Origin/);
      const refused = await call(proxy, '/pricing', {
        origin: 'https://nocode.example',
        body: { feature: 'nope!', increment: 1 },
      });
      assert.equal(refused.status, 400);
      assert.equal(refused.headers.get('access-control-allow-origin'), 'https://nocode.example');
    });

    it('answers preflights for allowed origins only', async () => {
      const preflight = (origin: string, method = 'POST', headers = 'content-type') =>
        proxy.handler(
          new Request(`${APP_ORIGIN}/billing/usage`, {
            method: 'OPTIONS',
            headers: {
              origin,
              'access-control-request-method': method,
              'access-control-request-headers': headers,
            },
          }),
        );
      const allowed = await preflight('https://nocode.example');
      assert.equal(allowed.status, 204);
      assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://nocode.example');
      assert.equal(allowed.headers.get('access-control-allow-credentials'), 'true');
      assert.match(allowed.headers.get('access-control-allow-methods') ?? '', /POST/);
      assert.match(allowed.headers.get('access-control-allow-headers') ?? '', /content-type/);
      assert.equal((await preflight('https://evil.example')).status, 403);
      assert.equal((await preflight('https://nocode.example', 'DELETE')).status, 405);
      assert.equal(
        (await preflight('https://nocode.example', 'POST', 'content-type, x-customer')).status,
        403,
      );
    });
  });

  describe('request checks', () => {
    it('answers 404 for unknown routes and paths outside the base path', async () => {
      for (const path of ['/nope', '/usages/extra', '/']) {
        const { status, body } = await call(proxy, path);
        assert.equal(status, 404, path);
        assert.equal(body.code, 'not-found');
      }
      const outside = await proxy.handler(new Request(`${APP_ORIGIN}/other/usages`));
      assert.equal(outside.status, 404);
      const listed = await call(proxy, '/nope', { origin: 'https://nocode.example' });
      assert.equal(listed.status, 404);
      assert.equal(listed.headers.get('access-control-allow-origin'), 'https://nocode.example');
    });

    it('answers 405 with Allow for a wrong method', async () => {
      const get = await call(proxy, '/pricing', { method: 'GET' });
      assert.equal(get.status, 405);
      assert.equal(get.body.code, 'method-not-allowed');
      assert.equal(get.headers.get('allow'), 'POST, OPTIONS');
      const del = await call(proxy, '/usages', { method: 'DELETE' });
      assert.equal(del.status, 405);
      assert.equal(del.headers.get('allow'), 'GET, OPTIONS');
    });

    it('refuses a body that is not application/json with 415', async () => {
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json; charset=latin1',
      ]) {
        const { status, body } = await call(proxy, '/pricing', {
          rawBody: '{"feature":"seats","increment":1}',
          headers: { 'content-type': type },
        });
        assert.equal(status, 415, type);
        assert.equal(body.code, 'unsupported-media-type');
      }
      const ok = await call(proxy, '/pricing', {
        rawBody: '{"feature":"seats","increment":1}',
        headers: { 'content-type': 'Application/JSON; charset=UTF-8' },
      });
      assert.equal(ok.status, 200);
    });

    it('refuses a body over 16 KiB with 413, declared or streamed, without reading it all', async () => {
      const big = JSON.stringify({ feature: 'seats', increment: 1, padding: 'x'.repeat(20_000) });
      const declared = await call(proxy, '/pricing', { rawBody: big });
      assert.equal(declared.status, 413);
      assert.equal(declared.body.code, 'payload-too-large');

      let pulled = 0;
      const chunk = new TextEncoder().encode('x'.repeat(1024));
      const endless = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 1;
          controller.enqueue(chunk);
        },
      });
      const streamed = await proxy.handler(
        new Request(`${APP_ORIGIN}/billing/pricing`, {
          method: 'POST',
          headers: {
            origin: APP_ORIGIN,
            cookie: 'session=healthy',
            'content-type': 'application/json',
          },
          body: endless,
          duplex: 'half',
        } as RequestInit),
      );
      assert.equal(streamed.status, 413);
      assert.ok(pulled < 40, `read ${pulled} KiB of an endless body`);
      assert.equal(counter.total, 0);
    });

    it('refuses malformed JSON and bad values with 400 and the field', async () => {
      const cases: [string, string | undefined][] = [
        ['{', undefined],
        ['[]', undefined],
        ['null', undefined],
        ['{"feature":"seats"}', 'increment'],
        ['{"feature":"seats","increment":1.5}', 'increment'],
        ['{"feature":"seats","increment":0}', 'increment'],
        ['{"feature":"seats","increment":-1}', 'increment'],
        ['{"feature":"seats","increment":10001}', 'increment'],
        ['{"feature":"../admin","increment":1}', 'feature'],
        ['{"feature":"","increment":1}', 'feature'],
      ];
      for (const [raw, field] of cases) {
        const { status, body } = await call(proxy, '/pricing', { rawBody: raw });
        assert.equal(status, 400, raw);
        assert.equal(body.code, 'validation', raw);
        if (field !== undefined) assert.equal(body.field, field, raw);
      }
      const badKey = await call(proxy, '/usage', {
        body: { feature: 'seats', increment: 1, idempotencyKey: 'short', confirmedAmountTotal: 0 },
      });
      assert.equal(badKey.body.field, 'idempotencyKey');
      const negative = await call(proxy, '/usage', {
        body: {
          feature: 'seats',
          increment: 1,
          idempotencyKey: 'security-key-00002',
          confirmedAmountTotal: -5,
        },
      });
      assert.equal(negative.body.field, 'confirmedAmountTotal');
      assert.equal(counter.total, 0);
    });

    it('rate-limits pricing and purchases per customer with 429 and Retry-After', async () => {
      const limited = createBillingProxy(
        proxyOptions(sandbox, { limits: { rateLimit: { capacity: 3, refillPerSecond: 0.1 } } }),
      );
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 5; i++) {
        const answer = await call(limited, '/pricing', {
          body: { feature: 'seats', increment: 1 },
        });
        statuses.push(answer.status);
        if (answer.status === 429) {
          retryAfter = answer.headers.get('retry-after');
          assert.equal(answer.body.code, 'rate-limited');
        }
      }
      assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
      assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 10, `Retry-After ${retryAfter}`);
      const purchase = await call(limited, '/usage', {
        body: {
          feature: 'projects',
          increment: 1,
          idempotencyKey: 'security-key-00003',
          confirmedAmountTotal: 0,
        },
      });
      assert.equal(purchase.status, 429);
      // Another customer has a bucket of their own; reads are not limited.
      assert.equal(
        (
          await call(limited, '/pricing', {
            customer: 'discounted',
            body: { feature: 'seats', increment: 1 },
          })
        ).status,
        200,
      );
      assert.equal((await call(limited, '/usages')).status, 200);
    });
  });

  describe('errors of the billing service', () => {
    const cases = [
      ['starter-plan', 'seats', 1, 404, 'Error.Api.Usage.NoneMatching'],
      ['no-payment-method', 'seats', 1, 403, 'Error.Customer.PaymentSettings.Missing'],
      ['capping-reached', 'seats', 1, 403, 'Error.Customer.Billing.CappingReached'],
      ['suspended', 'seats', 1, 403, 'subscription-suspended'],
      ['no-subscription', 'seats', 1, 404, 'no-subscription'],
    ] as const;
    // A preview names a suspension's cause where the service's refusal of a confirmed change
    // does not: the fixtures' suspended customer's payment method no longer works.
    const previewCodes: Record<string, string> = { suspended: 'payment-method-invalid' };
    for (const [customer, feature, increment, status, code] of cases) {
      it(`maps ${code} (${customer}): a refusal state on pricing, an error on purchase`, async () => {
        // A preview changes nothing: the customer's state comes as a 200 with its refusal.
        const pricing = await call(proxy, '/pricing', { customer, body: { feature, increment } });
        assert.equal(pricing.status, 200, pricing.text);
        assert.deepEqual(Object.keys(pricing.body), ['refusal']);
        const refusal = pricing.body.refusal as { code: string; message: string };
        assert.equal(refusal.code, previewCodes[customer] ?? code);
        assert.equal(Object.keys(refusal).sort().join(), 'code,message');
        const purchase = await call(proxy, '/usage', {
          customer,
          body: {
            feature,
            increment,
            idempotencyKey: `errors-${customer}-key`,
            confirmedAmountTotal: 0,
          },
        });
        assert.equal(purchase.status, status);
        assert.equal(purchase.body.code, code);
      });
    }

    it('never passes the service message, body or credentials to the browser', async () => {
      const { logger, entries } = collectingLogger();
      const wrongKey = createBillingProxy(
        proxyOptions(sandbox, { apiKey: 'wrong-api-key-value', logger }),
      );
      const { status, body, text } = await call(wrongKey, '/usages');
      assert.equal(status, 502);
      assert.equal(body.code, 'upstream-error');
      assert.doesNotMatch(text, /wrong-api-key-value|sandbox-agent|Authentication|Basic/);
      assert.ok(
        entries.some((entry) => entry.event === 'upstream-refused' && entry.status === 401),
      );
      const seed = await call(proxy, '/pricing', {
        customer: 'starter-plan',
        body: { feature: 'seats', increment: 1 },
      });
      assert.doesNotMatch(seed.text, /Stella|starter-plan|subscription \d/i);
    });

    it('retries reads on 5xx with backoff and then answers 503 upstream-unavailable', async () => {
      await control(sandbox).fault({ route: 'GET /v1/Usages', mode: 'status-500', times: 10 });
      const { status, body } = await call(proxy, '/usages');
      assert.equal(status, 503);
      assert.equal(body.code, 'upstream-unavailable');
      assert.equal(counter.calls['GET /v1/Usages'], 3, 'one call and two retries');
      await control(sandbox).clearFaults();
    });

    it('recovers from one 5xx on a read by retrying', async () => {
      await control(sandbox).fault({ route: 'GET /v1/Usages', mode: 'status-500', times: 1 });
      const { status } = await call(proxy, '/usages');
      assert.equal(status, 200);
      assert.equal(counter.calls['GET /v1/Usages'], 2);
    });

    it('answers 504 upstream-timeout when the service is too slow', async () => {
      const slow = createBillingProxy(
        proxyOptions(sandbox, {
          timeouts: { upstreamMs: 100 },
          limits: { rateLimit: false, upstreamRetries: 0 },
        }),
      );
      await control(sandbox).fault({ route: 'GET /v1/Usages', mode: 'delay', delayMs: 400 });
      const { status, body } = await call(slow, '/usages');
      assert.equal(status, 504);
      assert.equal(body.code, 'upstream-timeout');
    });

    it('answers 502 upstream-error, never a crash, when an answer does not match the contract', async () => {
      // Real sandbox answers of another shape: the base URL is bent so that "/v1/Usages" lands
      // in the query string of another real endpoint (a control-API JSON document, a script).
      for (const [baseUrl, event] of [
        [`${sandbox.url}/_sandbox/customers/healthy?bent=`, 'upstream-invalid-response'],
        [`${sandbox.url}/portal.js?bent=`, 'upstream-invalid-json'],
      ] as const) {
        const { logger, entries } = collectingLogger();
        const bent = createBillingProxy(proxyOptions(sandbox, { baseUrl, logger }));
        const { status, body, text } = await call(bent, '/usages');
        assert.equal(status, 502, text);
        assert.equal(body.code, 'upstream-error');
        assert.doesNotMatch(text, /Hannah|ServicePortal|Items/);
        assert.ok(
          entries.some((entry) => entry.event === event),
          event,
        );
      }
    });

    it('answers 503 when the service cannot be reached', async () => {
      const unreachable = createBillingProxy(
        proxyOptions(sandbox, {
          baseUrl: 'http://127.0.0.1:9',
          limits: { rateLimit: false, upstreamRetries: 1 },
        }),
      );
      const { status, body } = await call(unreachable, '/usages');
      assert.equal(status, 503);
      assert.equal(body.code, 'upstream-unavailable');
    });
  });
});

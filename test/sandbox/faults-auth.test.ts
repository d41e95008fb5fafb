import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, it } from 'node:test';
import { assertRefused, basicAuth, useTestSandbox, quantityOf } from './helpers.js';
import { waitFor } from '../time.js';

describe('authentication and routing', () => {
  const t = useTestSandbox();

  it('requires HTTP Basic agent key : API key on the API and the control API', async () => {
    for (const path of ['/v1/Usages?ReferenceCustomer=healthy', '/_sandbox/stats']) {
      for (const authorization of [
        undefined,
        basicAuth('sandbox-agent', 'wrong'),
        basicAuth('wrong', 'sandbox-api-key'),
        'Bearer sandbox-api-key',
        'Basic !!!',
      ]) {
        const res = await fetch(`${t.sandbox.url}${path}`, {
          headers: authorization ? { authorization } : {},
        });
        assert.equal(res.status, 401, `${path} ${authorization}`);
        assert.match(res.headers.get('www-authenticate') ?? '', /^Basic /);
        const body = await res.json();
        assert.equal(body.Code, 'Error.Api.Authentication.Failed');
        assert.equal(typeof body.Message, 'string');
      }
    }
  });

  it('answers unknown routes with 404 and wrong methods with 405, in the error shape', async () => {
    const unknown = await t.api('GET', '/v1/Nothing');
    assertRefused(unknown, 404, 'Error.Api.NotFound');
    const method = await t.api('DELETE', '/v1/Usages');
    assertRefused(method, 405, 'Error.Api.MethodNotAllowed');
    assert.equal(method.headers.get('allow'), 'GET');
  });

  it('matches paths case-insensitively, as the seed writes both /v1/customer and /v1/Customer', async () => {
    const res = await t.api('GET', '/v1/usages?ReferenceCustomer=healthy');
    assert.equal(res.status, 200);
  });

  it('never answers 500 to hostile input', async () => {
    const bodies = [
      'null',
      '"text"',
      '42',
      '{"ReferenceCustomer":{"$ne":1}}',
      '{"Country":{"$ne":1}}',
      '{"__proto__":{"x":1}}',
      '\u0000',
      '[[[[[]]]]]',
    ];
    const paths = [
      '/v1/Usage',
      '/v1/Pricing/Usage',
      '/v1/Customer',
      '/v1/Subscription',
      '/v1/CustomerBillingAddress?ReferenceCustomer=healthy',
    ];
    for (const path of paths) {
      for (const body of bodies) {
        // Every field of an address is optional and unknown ones are ignored: an object of
        // unknown fields is an empty address there, and only a wrong known field is refused.
        const onlyUnknownFields =
          body.startsWith('{"ReferenceCustomer"') || body.startsWith('{"__proto__"');
        if (path.includes('Address') && onlyUnknownFields) continue;
        const res = await t.api('POST', path, body);
        assert.ok(res.status >= 400 && res.status < 500, `${path} ${body}: ${res.status}`);
        assert.ok(res.body.Code ?? res.body[0]?.Code, `${path} ${body}: error body`);
      }
    }
    for (const path of [
      '/v1/Subscription/%E0%A4%A',
      '/v1/Invoice/-1',
      '/v1/Invoice/1e9',
      '/v1/Subscription/1001/Upgrade?ReferenceOffer=',
      '/v1/Usages?ReferenceCustomer=%00',
    ]) {
      const res = await t.api('GET', path);
      assert.ok(res.status >= 400 && res.status < 500, `${path}: ${res.status}`);
    }
  });
});

/** A raw request that reports whether the server answered or dropped the connection. */
function rawPost(
  url: string,
  body: unknown,
  authorization: string,
): Promise<{ status: number } | { dropped: true }> {
  return new Promise((resolve) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { authorization, 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      },
    );
    req.on('error', () => resolve({ dropped: true }));
    req.end(JSON.stringify(body));
  });
}

describe('faults and stats', () => {
  const t = useTestSandbox();
  const auth = () => basicAuth(t.sandbox.agentKey, t.sandbox.apiKey);

  const purchase = { ReferenceCustomer: 'healthy', ReferenceFeature: 'seats', Increment: 1 };
  const seats = () => quantityOf(t, 'healthy', 'seats');
  const applied = async () => (await t.control('GET', '/stats')).body.appliedUsageChanges;
  /** Arms the fault `mode` on POST /v1/Usage, then sends the purchase over a raw socket. */
  const purchaseWithFault = async (mode: string) => {
    await t.control('POST', '/faults', { route: 'POST /v1/Usage', mode });
    return rawPost(`${t.sandbox.url}/v1/Usage`, purchase, auth());
  };

  it('validates faults and lists the routes it knows', async () => {
    const bad = await t.control('POST', '/faults', { route: 'POST /v1/Nothing', mode: 'delay' });
    assert.equal(bad.status, 422);
    assert.match(bad.body[0].Message, /POST \/v1\/Usage/);
    const mode = await t.control('POST', '/faults', { route: 'POST /v1/Usage', mode: 'explode' });
    assert.equal(mode.status, 422);
    const ok = await t.control('POST', '/faults', {
      route: 'post /v1/usage',
      mode: 'delay',
      delayMs: 5,
      times: 2,
    });
    assert.equal(ok.status, 201);
    assert.deepEqual(ok.body.faults, [
      { route: 'POST /v1/Usage', mode: 'delay', delayMs: 5, remaining: 2 },
    ]);
    assert.deepEqual((await t.control('DELETE', '/faults')).body.faults, []);
  });

  it('drop-before-apply: no answer, nothing applied', async () => {
    assert.deepEqual(await purchaseWithFault('drop-before-apply'), { dropped: true });
    assert.equal(await seats(), 3);
    assert.equal(await applied(), 0);
  });

  it('drop-after-apply: no answer, but the change is applied and counted once', async () => {
    assert.deepEqual(await purchaseWithFault('drop-after-apply'), { dropped: true });
    assert.equal(await seats(), 4);
    assert.equal(await applied(), 1);
    // times defaults to 1: the next request is answered.
    assert.deepEqual(await rawPost(`${t.sandbox.url}/v1/Usage`, purchase, auth()), { status: 200 });
    assert.equal(await applied(), 2);
  });

  it('delay-after-apply: the change is visible before the answer arrives', async () => {
    await t.control('POST', '/faults', {
      route: 'POST /v1/Usage',
      mode: 'delay-after-apply',
      delayMs: 400,
    });
    const started = Date.now();
    let answered = false;
    const pending = t.api('POST', '/v1/Usage', purchase).finally(() => (answered = true));
    await waitFor(async () => (await seats()) === 4, 'the change to be applied');
    assert.equal(answered, false, 'applied while the answer is still delayed');
    assert.equal(await applied(), 1);
    const res = await pending;
    assert.equal(res.status, 200);
    assert.ok(Date.now() - started >= 390, 'answered after the delay');
  });

  it('delay: waits before applying, and applies even when the client gave up', async () => {
    await t.control('POST', '/faults', { route: 'POST /v1/Usage', mode: 'delay', delayMs: 300 });
    const controller = new AbortController();
    const pending = fetch(`${t.sandbox.url}/v1/Usage`, {
      method: 'POST',
      headers: { authorization: auth(), 'content-type': 'application/json' },
      body: JSON.stringify(purchase),
      signal: controller.signal,
    }).catch(() => 'aborted');
    // The purchase has arrived and waits out its delay.
    await waitFor(
      async () => (await t.control('GET', '/stats')).body.requests['POST /v1/Usage'] > 0,
      'the purchase to arrive',
    );
    assert.equal(await seats(), 3, 'not applied yet');
    controller.abort();
    assert.equal(await pending, 'aborted');
    await waitFor(async () => (await seats()) === 4, 'the late apply to land');
    assert.equal(await seats(), 4, 'the late apply landed');
  });

  it('status-500: answers 500 without applying, `times` times', async () => {
    await t.control('POST', '/faults', { route: 'POST /v1/Usage', mode: 'status-500', times: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await t.api('POST', '/v1/Usage', purchase);
      assertRefused(res, 500, 'Error.Api.Internal');
    }
    assert.equal(await seats(), 3);
    assert.equal((await t.api('POST', '/v1/Usage', purchase)).status, 200);
    const stats = (await t.control('GET', '/stats')).body;
    assert.equal(stats.faultsTriggered, 2);
    assert.equal(stats.requests['POST /v1/Usage'], 3);
  });

  it('html-after-apply: applies, counts, then answers its status with an HTML page', async () => {
    await t.control('POST', '/faults', { route: 'POST /v1/Usage', mode: 'html-after-apply' });
    const res = await t.api('POST', '/v1/Usage', purchase);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(res.text, /^<!doctype html>/);
    assert.equal(res.body, undefined, 'no JSON to read');
    assert.equal(await seats(), 4);
    assert.equal(await applied(), 1);
    // A refusal keeps its status under the page: the fault hides the body, not the outcome.
    await t.control('POST', '/faults', { route: 'POST /v1/Usage', mode: 'html-after-apply' });
    const refused = await t.api('POST', '/v1/Usage', { ...purchase, Increment: -10 });
    assert.equal(refused.status, 422);
    assert.match(refused.text, /Bad gateway/);
    assert.equal(await seats(), 4);
    assert.equal((await t.control('GET', '/stats')).body.faultsTriggered, 2);
  });

  it('empty-after-apply: applies, counts, then answers its status with an empty body', async () => {
    await t.control('POST', '/faults', {
      route: 'POST /v1/Usage',
      mode: 'empty-after-apply',
      times: 2,
    });
    for (const expected of [4, 5]) {
      const res = await t.api('POST', '/v1/Usage', purchase);
      assert.equal(res.status, 200);
      assert.equal(res.text, '');
      assert.equal(res.headers.get('content-length'), '0');
      assert.equal(await seats(), expected);
    }
    assert.equal(await applied(), 2);
    // times ran out: the next answer has its JSON again.
    const normal = await t.api('POST', '/v1/Usage', purchase);
    assert.equal(normal.body.QuantityCurrent, 6);
  });

  it('faults touch only their route', async () => {
    await t.control('POST', '/faults', { route: 'POST /v1/Pricing/Usage', mode: 'status-500' });
    assert.equal((await t.api('POST', '/v1/Usage', purchase)).status, 200);
    assert.equal((await t.api('POST', '/v1/Pricing/Usage', purchase)).status, 500);
    assert.equal((await t.api('POST', '/v1/Pricing/Usage', purchase)).status, 200);
  });

  it('counts requests per route and clears the counters', async () => {
    await t.api('GET', '/v1/Usages?ReferenceCustomer=healthy');
    await t.api('GET', '/v1/Usages?ReferenceCustomer=healthy');
    await t.api('GET', '/v1/Subscription/1001');
    await t.api('POST', '/v1/Pricing/Usage', purchase);
    const stats = (await t.control('GET', '/stats')).body;
    assert.deepEqual(stats.requests, {
      'GET /v1/Usages': 2,
      'GET /v1/Subscription/{id}': 1,
      'POST /v1/Pricing/Usage': 1,
    });
    assert.equal(stats.appliedUsageChanges, 0);
    const cleared = (await t.control('DELETE', '/stats')).body;
    assert.deepEqual(cleared.requests, {});
  });
});

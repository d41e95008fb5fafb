// A proxy set up wrong tells its operator what to fix, once per cause, in the log; the page gets
// a refusal it can read (not "billing could not be reached").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBillingProxy } from '../../src/server/index.js';
import { call, collectingLogger, proxyOptions, useSandbox } from './helpers.js';

describe('proxy misconfiguration', () => {
  const sandbox = useSandbox();

  it('logs an origin missing from allowedOrigins once, and lets the page read the refusal', async () => {
    const { logger, entries } = collectingLogger();
    const proxy = createBillingProxy(proxyOptions(sandbox, { logger }));
    for (let attempt = 0; attempt < 3; attempt++) {
      const { status, body, headers } = await call(proxy, '/usages', {
        origin: 'https://shop.example',
      });
      assert.equal(status, 403);
      assert.equal(body.code, 'forbidden-origin');
      assert.equal(headers.get('access-control-allow-origin'), 'https://shop.example');
    }
    const warnings = entries.filter((entry) => entry.event === 'misconfiguration');
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]?.level, 'warn');
    assert.match(
      String(warnings[0]?.message),
      /https:\/\/shop\.example: it is not in allowedOrigins of the proxy at \/billing/,
    );
  });

  it('says when baseUrl ends in /v1', async () => {
    const { logger, entries } = collectingLogger();
    const proxy = createBillingProxy(
      proxyOptions(sandbox, { baseUrl: `${sandbox.apiUrl}/v1`, logger }),
    );
    const { status, body } = await call(proxy, '/usages');
    assert.equal(status, 502);
    assert.equal(body.code, 'upstream-error');
    const refused = entries.find((entry) => entry.event === 'upstream-refused');
    assert.equal(refused?.level, 'error');
    assert.match(String(refused?.message), /ends in \/v1.*remove \/v1 from baseUrl/);
  });

  it('says when the service refuses the credentials', async () => {
    const { logger, entries } = collectingLogger();
    const proxy = createBillingProxy(proxyOptions(sandbox, { apiKey: 'not-the-key', logger }));
    const { status } = await call(proxy, '/usages');
    assert.equal(status, 502);
    const refused = entries.find((entry) => entry.event === 'upstream-refused');
    assert.equal(refused?.level, 'error');
    assert.match(String(refused?.message), /check agentKey and apiKey/);
  });
});

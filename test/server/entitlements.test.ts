// The server-side entitlement check, against the real sandbox: the client's rule on the same
// usages, a short cache per customer, cleared by the proxy's own signals.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBillingProxy } from '../../src/server/index.js';
import { call, countingFetch, proxyOptions, useSandbox, type RunningSandbox } from './helpers.js';

describe('proxy.isEntitled', () => {
  let sandbox: RunningSandbox;
  useSandbox((started) => (sandbox = started));

  it('answers from the usages: on/off, quantities, a minimum, unknown features and customers', async () => {
    const proxy = createBillingProxy(proxyOptions(sandbox));
    assert.equal(await proxy.isEntitled('healthy', 'sso'), true);
    assert.equal(await proxy.isEntitled('starter-plan', 'sso'), false);
    // healthy: 3 of 5 seats used.
    assert.equal(await proxy.isEntitled('healthy', 'seats', 2), true);
    assert.equal(await proxy.isEntitled('healthy', 'seats', 3), false);
    assert.equal(await proxy.isEntitled('unlimited', 'seats', 1000), true);
    assert.equal(await proxy.isEntitled('healthy', 'no-such-feature'), false);
    assert.equal(await proxy.isEntitled('no-subscription', 'sso'), false);
    assert.equal(await proxy.isEntitled('nobody-knows-this-customer', 'sso'), false);
    await proxy.close();
  });

  it('entitles a suspended subscription to nothing, as the usages the proxy serves say', async () => {
    const proxy = createBillingProxy(proxyOptions(sandbox));
    // Both run Pro, which includes single sign-on and 5 seats; only healthy runs.
    assert.equal(await proxy.isEntitled('healthy', 'sso'), true);
    for (const customer of ['suspended', 'capping-reached']) {
      assert.equal(await proxy.isEntitled(customer, 'sso'), false, customer);
      assert.equal(await proxy.isEntitled(customer, 'projects'), false, customer);
    }
    const suspended = await call(proxy, '/usages', { customer: 'suspended' });
    assert.equal(suspended.status, 200);
    assert.ok(suspended.body.usages.length > 0, 'the usages stay readable');
    assert.deepEqual(suspended.body.suspended, {
      paymentCappingReached: false,
      reason: 'payment-method-invalid',
    });
    const capped = await call(proxy, '/usages', { customer: 'capping-reached' });
    assert.deepEqual(capped.body.suspended, { paymentCappingReached: true, reason: 'payment-due' });
    const running = await call(proxy, '/usages', { customer: 'healthy' });
    assert.equal(running.body.suspended, undefined);
    await proxy.close();
  });

  it('reads a running subscription once for many usages reads, a suspended one every time', async () => {
    const counter = countingFetch();
    const proxy = createBillingProxy(proxyOptions(sandbox, { fetch: counter.fetch }));
    const subscriptionReads = () =>
      Object.entries(counter.calls)
        .filter(([route]) => route.startsWith('GET /v1/Subscription'))
        .reduce((sum, [, count]) => sum + count, 0);
    for (let read = 0; read < 3; read++) {
      const answer = await call(proxy, '/usages', { customer: 'healthy' });
      assert.equal(answer.body.suspended, undefined);
    }
    assert.equal(counter.calls['GET /v1/Usages'], 3);
    assert.equal(subscriptionReads(), 1, 'a running subscription is remembered');
    // A signal for the customer (a notification of the service: suspended, restarted...)
    // forgets it at once.
    await proxy.notify('healthy');
    await call(proxy, '/usages', { customer: 'healthy' });
    assert.equal(subscriptionReads(), 2);
    // A suspended subscription is read again each time, so a restart shows at the next read.
    for (let read = 0; read < 2; read++) {
      const answer = await call(proxy, '/usages', { customer: 'suspended' });
      assert.deepEqual(answer.body.suspended, {
        paymentCappingReached: false,
        reason: 'payment-method-invalid',
      });
    }
    assert.equal(subscriptionReads(), 4);
    await proxy.close();
  });

  it('refuses bad input with a clear error', async () => {
    const proxy = createBillingProxy(proxyOptions(sandbox));
    await assert.rejects(proxy.isEntitled('', 'sso'), /customer must be a non-empty/);
    await assert.rejects(
      proxy.isEntitled('healthy', 'sso feature'),
      /feature must be a feature reference/,
    );
    await assert.rejects(
      proxy.isEntitled('healthy', 'seats', 0),
      /quantity must be a whole number/,
    );
    await proxy.close();
  });

  it('reads the usages once for many checks, and again after a signal for the customer', async () => {
    const counter = countingFetch();
    const proxy = createBillingProxy(proxyOptions(sandbox, { fetch: counter.fetch }));
    const reads = () => counter.calls['GET /v1/Usages'] ?? 0;
    await Promise.all([
      proxy.isEntitled('starter-plan', 'sso'),
      proxy.isEntitled('starter-plan', 'projects'),
    ]);
    assert.equal(await proxy.isEntitled('starter-plan', 'sso'), false);
    assert.equal(reads(), 1);
    // The customer moves to Pro through the proxy: its own signal clears the cache.
    const quote = await call(proxy, '/plan/quote', {
      customer: 'starter-plan',
      body: { offer: 'pro' },
    });
    const changed = await call(proxy, '/plan', {
      customer: 'starter-plan',
      body: {
        offer: 'pro',
        idempotencyKey: 'entitlement-change-0001',
        confirmedAmountTotal: quote.body.AmountTotalDue,
        confirmedNextTermAmountTotal: quote.body.NextTerm.AmountTotal,
      },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(await proxy.isEntitled('starter-plan', 'sso'), true);
    assert.equal(reads(), 2);
    // Another customer's signal leaves this one's cache alone.
    await proxy.notify('healthy');
    await proxy.isEntitled('starter-plan', 'sso');
    assert.equal(reads(), 2);
    await proxy.close();
  });
});

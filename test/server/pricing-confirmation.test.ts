// POST /pricing says whether a price needs the user's confirmation: a change that costs nothing
// now but raises the recurring price (the end of a billing period) still does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type BillingProxy } from '../../src/server/index.js';
import type { countingFetch } from './helpers.js';
import { call, control, type RunningSandbox, useProxy } from './helpers.js';

describe('POST /pricing confirmationRequired', () => {
  let sandbox: RunningSandbox;
  let proxy: BillingProxy;
  let upstream: ReturnType<typeof countingFetch>;

  useProxy((made) => ({ sandbox, proxy, counter: upstream } = made));

  /** Moves the sandbox clock to `ms` before the end of the customer's billing period. */
  async function toPeriodEnd(customer: string, ms: number) {
    const state = await control(sandbox).customer(customer);
    const end = Date.parse(state.subscriptions[0].DatePeriodEnd);
    await control(sandbox).setClock(new Date(end - ms).toISOString());
  }

  /** The answer to pricing `increment` seats for `customer` 30 seconds before its period ends. */
  async function priceAtPeriodEnd(customer: string, increment: number) {
    await toPeriodEnd(customer, 30_000);
    return call(proxy, '/pricing', { customer, body: { feature: 'seats', increment } });
  }

  it('requires it for a billable price, with one upstream call', async () => {
    const { status, body } = await call(proxy, '/pricing', {
      body: { feature: 'seats', increment: 3 },
    });
    assert.equal(status, 200);
    assert.ok(body.AmountTotal > 0);
    assert.equal(body.confirmationRequired, true);
    assert.deepEqual(upstream.calls, { 'POST /v1/Pricing/Usage': 1 });
  });

  it('requires it at the end of the period: nothing to pay now, a higher next term', async () => {
    await toPeriodEnd('healthy', 30_000);
    // 3 of 5 seats, +3: one seat past the included five, prorated over the last 30 seconds.
    const { status, body } = await call(proxy, '/pricing', {
      body: { feature: 'seats', increment: 3 },
    });
    assert.equal(status, 200);
    assert.equal(body.AmountTotal, 0);
    const subscription = (await control(sandbox).customer('healthy')).subscriptions[0];
    assert.ok(
      body.NextTerm.AmountTotal > subscription.AmountRecurrenceDiscounted,
      `next term ${body.NextTerm.AmountTotal} > now ${subscription.AmountRecurrenceDiscounted}`,
    );
    assert.equal(body.confirmationRequired, true);
    assert.equal(upstream.calls['GET /v1/Subscription'], 1);
  });

  it('requires it for a discounted subscription whose next term rises', async () => {
    const { body } = await priceAtPeriodEnd('discounted', 3);
    assert.equal(body.AmountTotal, 0);
    assert.equal(body.confirmationRequired, true);
  });

  it('does not require it when the change is free overall: within the included quantity', async () => {
    const { body } = await call(proxy, '/pricing', { body: { feature: 'seats', increment: 1 } });
    assert.equal(body.AmountTotal, 0);
    assert.equal(body.confirmationRequired, false);
  });

  it('does not require it for an unlimited customer', async () => {
    const { body } = await priceAtPeriodEnd('unlimited', 10);
    assert.equal(body.AmountTotal, 0);
    assert.equal(body.confirmationRequired, false);
  });

  it('requires it when the current recurring price cannot be read', async () => {
    await control(sandbox).fault({ route: 'GET /v1/Subscription', mode: 'status-500', times: 10 });
    const { status, body } = await call(proxy, '/pricing', {
      body: { feature: 'seats', increment: 1 },
    });
    assert.equal(status, 200);
    assert.equal(body.AmountTotal, 0);
    assert.equal(body.confirmationRequired, true);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertRefused, startTestSandbox, useTestSandbox, usageBody } from './helpers.js';

// Management rules and the test clock. Default business: payment term 14 days, capping at 2
// overdue unpaid invoices. The clock starts frozen at 2026-11-16 00:00 UTC.

describe('clock, periods and management rules', () => {
  const t = useTestSandbox();

  const state = (customer: string) => t.customer(customer);
  const sub = async (customer: string) =>
    (await t.api('GET', `/v1/Subscription?ReferenceCustomer=${customer}`)).body;
  const usage = async (customer: string, feature: string) =>
    (await t.api('GET', `/v1/Usages?ReferenceCustomer=${customer}&ReferenceFeature=${feature}`))
      .body.Items[0];

  it('reads, sets and advances the clock, only forward', async () => {
    assert.deepEqual((await t.control('GET', '/clock')).body, {
      now: '2026-11-16T00:00:00.000Z',
      frozen: true,
    });
    const advanced = await t.control('POST', '/clock', { advance: { days: 1, hours: 2 } });
    assert.equal(advanced.body.now, '2026-11-17T02:00:00.000Z');
    const set = await t.control('POST', '/clock', { set: '2026-11-20T00:00:00Z' });
    assert.equal(set.body.now, '2026-11-20T00:00:00.000Z');
    const back = await t.control('POST', '/clock', { set: '2026-11-01T00:00:00Z' });
    assert.equal(back.status, 422);
    for (const bad of [
      {},
      { advance: { days: -1 } },
      { advance: { weeks: 1 } },
      { set: 'tomorrow' },
    ]) {
      assert.equal((await t.control('POST', '/clock', bad)).status, 422, JSON.stringify(bad));
    }
  });

  it('renews the period: new dates, Consumption reset, the recurring price invoiced', async () => {
    await t.api('POST', '/v1/Usage', usageBody('discounted', 'seats', { Increment: 4 }));
    await t.control('POST', '/clock', { set: '2026-12-01T00:00:00Z' });
    const calls = await usage('healthy', 'api-calls');
    assert.equal(calls.QuantityCurrent, 0, 'Consumption resets at the period end');
    assert.equal(calls.DatePeriodStart, '2026-12-01T00:00:00.000Z');
    assert.equal(calls.DatePeriodEnd, '2027-01-01T00:00:00.000Z');
    assert.equal(calls.DateResetConsumption, '2027-01-01T00:00:00.000Z');
    assert.equal(
      (await usage('healthy', 'seats')).QuantityCurrent,
      3,
      'Limitation quantities stay',
    );
    const healthy = await state('healthy');
    const renewal = healthy.invoices.at(-1);
    assert.equal(renewal.AmountTotal, 4900);
    assert.equal(renewal.DateIssue, '2026-12-01T00:00:00.000Z');
    assert.equal(renewal.DatePaymentLimit, '2026-12-15T00:00:00.000Z');
    // The card on file pays the renewal as it is billed.
    assert.equal(renewal.StateInvoice, 'Paid');
    assert.equal(renewal.DatePaid, '2026-12-01T00:00:00.000Z');
    // No card: due until its payment limit.
    assert.equal((await state('no-payment-method')).invoices.at(-1).StateInvoice, 'PaymentDue');
    // discounted with 7 seats: (4900 + 2 x 1000) x 80 % = 5520.
    assert.equal((await state('discounted')).invoices.at(-1).AmountTotal, 5520);
    // Suspended subscriptions are not billed for a period they cannot use.
    assert.equal((await state('suspended')).invoices.length, 0);
  });

  it('collects due invoices from a valid payment method; others become overdue and reach the capping', async () => {
    // Two renewals (Dec 1 and Jan 1) and their payment limits (Dec 15, Jan 15).
    await t.control('POST', '/clock', { set: '2026-12-16T00:00:00Z' });
    assert.equal((await state('healthy')).invoices.at(-1).StateInvoice, 'Paid');
    let npm = await state('no-payment-method');
    assert.equal(npm.invoices.length, 1);
    assert.equal(
      npm.isPaymentCappingReached,
      false,
      'one overdue invoice is under the threshold of 2',
    );
    assert.equal((await sub('no-payment-method')).StateSubscription, 'Running');

    await t.control('POST', '/clock', { set: '2027-01-15T00:00:00Z' });
    npm = await state('no-payment-method');
    assert.equal(
      npm.invoices.filter((i: { StateInvoice: string }) => i.StateInvoice === 'PaymentDue').length,
      2,
    );
    assert.equal(npm.isPaymentCappingReached, true);
    const suspended = await sub('no-payment-method');
    assert.equal(suspended.StateSubscription, 'SuspendedPaymentDue');
    assert.equal(suspended.IsPaymentCappingReached, true);
    assert.ok(suspended.Links.some((l: { rel: string }) => l.rel === 'hosted-restart'));
    const priced = await t.api(
      'POST',
      '/v1/Pricing/Usage',
      usageBody('no-payment-method', 'projects', { Increment: 1 }),
    );
    assert.equal(priced.body.Code, 'Error.Customer.Billing.CappingReached');
  });

  it('suspends when the payment method is no longer valid; restart needs a valid one', async () => {
    const invalid = await t.control('POST', '/customers/healthy/payment-method', {
      state: 'invalid',
    });
    assert.equal(invalid.status, 200);
    const suspended = await sub('healthy');
    assert.equal(suspended.StateSubscription, 'SuspendedPaymentMethodInvalid');
    assert.ok(suspended.Links.some((l: { rel: string }) => l.rel === 'hosted-restart'));
    const priced = await t.api(
      'POST',
      '/v1/Pricing/Usage',
      usageBody('healthy', 'seats', { Increment: 1 }),
    );
    assertRefused(priced, 403, 'Error.Subscription.NotActive');

    const refused = await t.control('POST', `/subscriptions/${suspended.Id}/restart`);
    assertRefused(refused, 403, 'Error.Customer.PaymentSettings.Missing');
    assert.equal((await sub('healthy')).StateSubscription, 'SuspendedPaymentMethodInvalid');

    await t.control('POST', '/customers/healthy/payment-method', { state: 'valid' });
    assert.equal(
      (await sub('healthy')).StateSubscription,
      'SuspendedPaymentMethodInvalid',
      'no automatic restart',
    );
    const restarted = await t.control('POST', `/subscriptions/${suspended.Id}/restart`);
    assert.equal(restarted.status, 200);
    assert.equal(restarted.body.StateSubscription, 'Running');
  });

  it('capping: paying the overdue invoices lifts it, then a restart brings the subscription back', async () => {
    const capped = await state('capping-reached');
    assert.equal(capped.isPaymentCappingReached, true);
    const id = capped.subscriptions[0].Id;
    const blocked = await t.control('POST', `/subscriptions/${id}/restart`);
    assertRefused(blocked, 403, 'Error.Customer.Billing.CappingReached');
    const [first, second] = capped.invoices;
    const paid = await t.control('POST', `/invoices/${first.Id}/pay`);
    assert.equal(paid.body.StateInvoice, 'Paid');
    assert.equal(paid.body.alreadyPaid, false);
    assert.equal((await t.control('POST', `/invoices/${first.Id}/pay`)).body.alreadyPaid, true);
    assert.equal(
      (await state('capping-reached')).isPaymentCappingReached,
      false,
      'one overdue left, under 2',
    );
    await t.control('POST', `/invoices/${second.Id}/pay`);
    assert.equal(
      (await sub('capping-reached')).StateSubscription,
      'SuspendedPaymentDue',
      'still suspended',
    );
    const restarted = await t.control('POST', `/subscriptions/${id}/restart`);
    assert.equal(restarted.body.StateSubscription, 'Running');
    const priced = await t.api(
      'POST',
      '/v1/Pricing/Usage',
      usageBody('capping-reached', 'seats', { Increment: 1 }),
    );
    assert.equal(priced.status, 200);
  });

  it('suspends by the business and completes a pending subscription', async () => {
    const suspended = await t.control('POST', '/subscriptions/1001/suspend');
    assert.equal(suspended.body.StateSubscription, 'SuspendedByBusiness');
    assert.equal(
      (await t.control('POST', '/subscriptions/1001/restart')).body.StateSubscription,
      'Running',
    );
    const pending = await sub('pending');
    const completed = await t.control('POST', `/subscriptions/${pending.Id}/complete`);
    assert.equal(completed.status, 200);
    assert.equal(completed.body.StateSubscription, 'Running');
    assert.equal(completed.body.DatePeriodStart, '2026-11-16T00:00:00.000Z');
    assert.equal(completed.body.DatePeriodEnd, '2026-12-16T00:00:00.000Z');
    // The first period is invoiced at once.
    assert.equal((await state('pending')).invoices[0].AmountTotal, 4900);
    assert.equal(
      (await t.control('POST', `/subscriptions/${pending.Id}/suspend`)).body.StateSubscription,
      'SuspendedByBusiness',
    );
    const noSuchSub = await t.control('POST', '/subscriptions/999999/complete');
    assert.equal(noSuchSub.status, 404);
    const notPending = await t.control('POST', '/subscriptions/1001/complete');
    assert.equal(notPending.status, 200, 'completing a running subscription is a no-op');
  });

  it('resets to the fixtures: state, clock, faults and stats', async () => {
    await t.api('POST', '/v1/Usage', usageBody('healthy', 'seats', { Increment: 1 }));
    await t.control('POST', '/clock', { advance: { months: 2 } });
    await t.control('POST', '/faults', { route: 'GET /v1/Usages', mode: 'status-500', times: 5 });
    const reset = await t.control('POST', '/reset');
    assert.equal(reset.body.now, '2026-11-16T00:00:00.000Z');
    assert.equal((await usage('healthy', 'seats')).QuantityCurrent, 3);
    assert.deepEqual((await t.control('GET', '/faults')).body.faults, []);
    const stats = (await t.control('GET', '/stats')).body;
    assert.equal(stats.appliedUsageChanges, 0);
    assert.deepEqual(stats.requests, { 'GET /v1/Usages': 1 });
  });

  it('answers the control view of a customer, and 404 for an unknown one', async () => {
    const view = await state('capping-reached');
    assert.equal(view.customer.ReferenceCustomer, 'capping-reached');
    assert.equal(view.paymentMethod, 'valid');
    assert.equal(view.subscriptions.length, 1);
    assert.equal(view.invoices.length, 2);
    assert.deepEqual(view.usageLog, []);
    assert.equal((await t.control('GET', '/customers/ghost')).status, 404);
    const bad = await t.control('POST', '/customers/healthy/payment-method', { state: 'expired' });
    assert.equal(bad.status, 422);
  });
});

describe('fixtures are settled by the rules at start', () => {
  it('suspends a Running subscription whose customer is over the threshold', async () => {
    const { defaultFixtures } = await import('../../src/sandbox/index.js');
    const fixtures = defaultFixtures();
    const capped = fixtures.customers?.find((c) => c.reference === 'capping-reached');
    const sub = capped?.subscriptions?.[0];
    if (!sub) throw new Error('fixture changed');
    sub.state = 'Running';
    const t = await startTestSandbox({ fixtures });
    try {
      const res = await t.api('GET', '/v1/Subscription?ReferenceCustomer=capping-reached');
      assert.equal(res.body.StateSubscription, 'SuspendedPaymentDue');
    } finally {
      await t.close();
    }
  });
});

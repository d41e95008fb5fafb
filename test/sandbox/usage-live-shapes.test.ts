import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  PricingUsageResultSchema,
  UsageSchema,
  UsagesPageSchema,
} from '../../src/contract/index.js';
import { assertRefused, useTestSandbox, usageBody } from './helpers.js';

// The live service's request and answer shapes on usages and prices: timestamps in every ISO
// 8601 form, NextTerm and EnsureBillable in the query, /v1/Quoting/Usage, the current
// reference's price fields, the apply's answer without amounts, usages by feature.

const SEATS = { ReferenceCustomer: 'healthy', ReferenceFeature: 'seats', Increment: 4 };

describe('timestamps, pricing flags and the second pricing path', () => {
  const t = useTestSandbox();

  it('reads DateStamp in every ISO 8601 form clients write, and records it as sent', async () => {
    for (const stamp of [
      '2026-11-16T08:00:00Z',
      '2026-11-16T08:00:00.123Z',
      '2026-11-16T08:00:00+00:00',
      '2026-11-16T08:00:00+0000',
      '2026-11-16T10:00:00+02:00',
      '2026-11-16T10:00:00.1234567+0200',
      '2026-11-16T03:00:00-05',
      '2026-11-16 08:00:00Z',
      '2026-11-16T08:00Z',
    ]) {
      const res = await t.api('POST', '/v1/Pricing/Usage', { ...SEATS, DateStamp: stamp });
      assert.equal(res.status, 200, `${stamp}: ${res.text}`);
    }
    await t.api('POST', '/v1/Usage', { ...SEATS, DateStamp: '2026-11-16T10:00:00+0200' });
    assert.equal((await t.customer('healthy')).usageLog[0].dateStamp, '2026-11-16T10:00:00+0200');
  });

  it('refuses a DateStamp that is not a timestamp with a zone, or lies in the future', async () => {
    const future = new Date(Date.now() + 24 * 3_600_000).toISOString();
    for (const stamp of [
      'yesterday',
      '2026-11-16',
      '2026-11-16T08:00:00',
      '2026-02-30T08:00:00Z',
      '2026-11-16T24:00:00Z',
      '2026-11-16T08:00:00+25:00',
      future,
    ]) {
      const res = await t.api('POST', '/v1/Usage', { ...SEATS, DateStamp: stamp });
      assert.equal(res.status, 422, `${stamp}: ${res.text}`);
      assert.equal(res.body[0].Target, 'DateStamp', stamp);
    }
    assert.equal((await t.customer('healthy')).usageLog.length, 0);
    // Ahead of the sandbox's (frozen, earlier) clock but not of real time: a client dating by
    // its own clock is not refused for that.
    const realNow = await t.api('POST', '/v1/Usage', {
      ...SEATS,
      DateStamp: new Date().toISOString(),
    });
    assert.equal(realNow.status, 200, realNow.text);
  });

  it('moves the control clock with any ISO 8601 form', async () => {
    const plus = await t.control('POST', '/clock', { set: '2026-11-17T02:00:00+0200' });
    assert.equal(plus.status, 200, plus.text);
    assert.equal(plus.body.now, '2026-11-17T00:00:00.000Z');
    const zulu = await t.control('POST', '/clock', { set: '2026-11-18T00:00:00.000000Z' });
    assert.equal(zulu.body.now, '2026-11-18T00:00:00.000Z');
    const bad = await t.control('POST', '/clock', { set: '2026-11-19' });
    assert.equal(bad.status, 422);
  });

  it('reads NextTerm and EnsureBillable from the query (and NextTerm from the body)', async () => {
    const byQuery = await t.api('POST', '/v1/Pricing/Usage?NextTerm=true', SEATS);
    const byBody = await t.api('POST', '/v1/Pricing/Usage', { ...SEATS, NextTerm: true });
    assert.equal(byQuery.body.NextTerm.AmountTotal, 6900);
    assert.deepEqual(byQuery.body, byBody.body);
    const off = await t.api('POST', '/v1/Pricing/Usage?NextTerm=False', SEATS);
    assert.equal(off.body.NextTerm, undefined);
    for (const [query, body] of [
      ['?NextTerm=yes', SEATS],
      ['?NextTerm=false', { ...SEATS, NextTerm: true }],
      ['?EnsureBillable=1', SEATS],
    ] as const) {
      const res = await t.api('POST', `/v1/Pricing/Usage${query}`, body);
      assert.equal(res.status, 422, query);
      assert.match(res.body[0].Target, /NextTerm|EnsureBillable/);
    }
  });

  it('EnsureBillable=true checks the payment method even for a free change; false skips it', async () => {
    // no-payment-method: 2 of 10 projects, +1 is free; 5 of 5 seats, +1 costs 500.
    const free = {
      ReferenceCustomer: 'no-payment-method',
      ReferenceFeature: 'projects',
      Increment: 1,
    };
    const billable = {
      ReferenceCustomer: 'no-payment-method',
      ReferenceFeature: 'seats',
      Increment: 1,
    };
    assert.equal((await t.api('POST', '/v1/Pricing/Usage', free)).status, 200);
    const ensured = await t.api('POST', '/v1/Pricing/Usage?EnsureBillable=true', free);
    assertRefused(ensured, 403, 'Error.Customer.PaymentSettings.Missing');
    assert.equal(
      (await t.api('POST', '/v1/Pricing/Usage', { ...free, EnsureBillable: true })).status,
      403,
    );
    assert.equal((await t.api('POST', '/v1/Pricing/Usage', billable)).status, 403);
    const skipped = await t.api('POST', '/v1/Pricing/Usage?EnsureBillable=false', billable);
    assert.equal(skipped.status, 200, skipped.text);
    assert.equal(skipped.body.AmountTotal, 500);
    // A valid payment method passes the forced check; capping still refuses (it suspends).
    assert.equal((await t.api('POST', '/v1/Pricing/Usage?EnsureBillable=true', SEATS)).status, 200);
    const capped = await t.api(
      'POST',
      '/v1/Pricing/Usage?EnsureBillable=false',
      usageBody('capping-reached', 'seats', { Increment: 1 }),
    );
    assert.equal(capped.body.Code, 'Error.Customer.Billing.CappingReached');
    // The apply does not read EnsureBillable: a billable change always needs the method.
    assert.equal((await t.api('POST', '/v1/Usage?EnsureBillable=false', billable)).status, 403);
  });

  it('answers POST /v1/Quoting/Usage exactly as POST /v1/Pricing/Usage', async () => {
    const bodies = [
      { ...SEATS, NextTerm: true },
      { ReferenceCustomer: 'discounted', ReferenceFeature: 'api-calls', Increment: 9500 },
      { ReferenceCustomer: 'starter-plan', ReferenceFeature: 'seats', Increment: 1 },
      { ReferenceCustomer: 'healthy', ReferenceFeature: 'seats' },
    ];
    for (const body of bodies) {
      const seed = await t.api('POST', '/v1/Pricing/Usage?Language=fr', body);
      const live = await t.api('POST', '/v1/Quoting/Usage?Language=fr', body);
      assert.equal(live.status, seed.status);
      assert.deepEqual(live.body, seed.body);
    }
    const stats = await t.control('GET', '/stats');
    assert.equal(stats.body.requests['POST /v1/Quoting/Usage'], 4);
  });
});

describe('the shapes of prices and usages', () => {
  const t = useTestSandbox();

  it('a price carries the seed fields and the current reference fields', async () => {
    const res = await t.api('POST', '/v1/Quoting/Usage?NextTerm=true', SEATS);
    const p = PricingUsageResultSchema.parse(res.body);
    assert.equal(p.AmountTotal, 1000);
    assert.equal(p.AmountTotalDue, 1000);
    assert.equal(p.DatePeriodTerm, '2026-12-01T00:00:00.000Z');
    assert.equal(p.DatePeriodEnd, '2026-12-01T00:00:00.000Z');
    assert.deepEqual(res.body.Details, [
      {
        Type: 'Prorated',
        LabelLocalized: 'Seats: 2 extra, today to December 1, 2026',
        PricingLocalized: '$10.00',
        Quantity: 2,
        AmountSubtotal: 1000,
        AmountTotal: 1000,
        AmountTotalDue: 1000,
        QuantityReported: 7,
        QuantityBilled: 2,
        DatePeriodStart: '2026-11-16T00:00:00.000Z',
        DatePeriodEnd: '2026-12-01T00:00:00.000Z',
      },
    ]);
    assert.equal(p.NextTerm?.AmountTotalDue, 6900);
    // A Consumption charge is a one-off move, dated, not a period.
    const calls = await t.api(
      'POST',
      '/v1/Quoting/Usage',
      usageBody('healthy', 'api-calls', { Increment: 9000 }),
    );
    const [overage] = calls.body.Details;
    assert.deepEqual(
      [overage.QuantityReported, overage.QuantityBilled, overage.DateMove, overage.DatePeriodStart],
      [9000, 200, '2026-11-16T00:00:00.000Z', undefined],
    );
  });

  it('the apply answers the updated usage with ids and references, and no amount', async () => {
    const res = await t.api('POST', '/v1/Usage', SEATS);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      IdSegment: 1,
      IdFeature: 11,
      IdCustomer: 501,
      IdSubscription: 1001,
      IdOffer: 102,
      ReferenceSegment: 'main',
      ReferenceFeature: 'seats',
      ReferenceCustomer: 'healthy',
      ReferenceOffer: 'pro',
      TypeFeature: 'Limitation',
      TitleLocalized: 'Seats',
      DatePeriodStart: '2026-11-01T00:00:00.000Z',
      DatePeriodEnd: '2026-12-01T00:00:00.000Z',
      QuantityIncluded: 5,
      QuantityCurrent: 7,
    });
    const onOff = await t.api(
      'POST',
      '/v1/Usage',
      usageBody('healthy', 'priority-support', { IsEnabled: true }),
    );
    UsageSchema.parse(onOff.body);
    assert.deepEqual(
      [
        onOff.body.TypeFeature,
        onOff.body.IsIncluded,
        onOff.body.IsEnabled,
        onOff.body.QuantityCurrent,
      ],
      ['OnOff', true, true, undefined],
    );
  });

  it('GET /v1/Usages?ReferenceFeature= without a customer lists every customer, paged', async () => {
    const all = await t.api('GET', '/v1/Usages?ReferenceFeature=seats&SizePage=100');
    UsagesPageSchema.parse(all.body);
    // Every live (running or suspended) subscription whose plan has seats.
    assert.deepEqual(
      all.body.Items.map((u: { ReferenceCustomer: string }) => u.ReferenceCustomer),
      [
        'healthy',
        'no-payment-method',
        'capping-reached',
        'suspended',
        'unlimited',
        'discounted',
        'two-subscriptions',
      ],
    );
    assert.ok(
      all.body.Items.every((u: { ReferenceFeature: string }) => u.ReferenceFeature === 'seats'),
    );
    const page = await t.api('GET', '/v1/Usages?ReferenceFeature=seats&SizePage=3&Page=3');
    assert.deepEqual(
      [page.body.Count, page.body.TotalItems, page.body.Items[0].ReferenceCustomer],
      [1, 7, 'two-subscriptions'],
    );
    const neither = await t.api('GET', '/v1/Usages');
    assert.equal(neither.status, 422);
    assert.equal(neither.body[0].Target, 'ReferenceCustomer');
  });

  it('GET /v1/Usage returns one usage, or 404 Error.Api.Usage.NoneMatching', async () => {
    const one = await t.api('GET', '/v1/Usage?ReferenceCustomer=healthy&ReferenceFeature=seats');
    assert.equal(one.status, 200, one.text);
    UsageSchema.parse(one.body);
    assert.deepEqual(
      [one.body.QuantityCurrent, one.body.QuantityIncluded, one.body.IdSubscription],
      [3, 5, 1001],
    );
    const list = await t.api('GET', '/v1/Usages?ReferenceCustomer=healthy&ReferenceFeature=seats');
    assert.deepEqual(one.body, list.body.Items[0]);
    const subs = (await t.customer('two-subscriptions')).subscriptions;
    const starter = subs.find((s: { ReferenceOffer: string }) => s.ReferenceOffer === 'starter').Id;
    const main = await t.api(
      'GET',
      '/v1/Usage?ReferenceCustomer=two-subscriptions&ReferenceFeature=projects',
    );
    assert.equal(main.body.ReferenceOffer, 'pro');
    const side = await t.api(
      'GET',
      `/v1/Usage?ReferenceCustomer=two-subscriptions&ReferenceFeature=projects&IdSubscription=${starter}`,
    );
    assert.deepEqual([side.body.ReferenceOffer, side.body.QuantityCurrent], ['starter', 1]);
    // Seats only exist on the Pro subscription: found there without IdSubscription.
    const seats = await t.api(
      'GET',
      `/v1/Usage?ReferenceCustomer=two-subscriptions&ReferenceFeature=seats`,
    );
    assert.equal(seats.body.ReferenceOffer, 'pro');
    for (const query of [
      'ReferenceCustomer=starter-plan&ReferenceFeature=seats',
      'ReferenceCustomer=no-subscription&ReferenceFeature=seats',
      'ReferenceCustomer=pending&ReferenceFeature=seats',
      `ReferenceCustomer=two-subscriptions&ReferenceFeature=seats&IdSubscription=${starter}`,
    ]) {
      const res = await t.api('GET', `/v1/Usage?${query}`);
      assertRefused(res, 404, 'Error.Api.Usage.NoneMatching', query);
    }
    assert.equal(
      (await t.api('GET', '/v1/Usage?ReferenceCustomer=ghost&ReferenceFeature=seats')).body.Code,
      'Error.Customer.NotFound',
    );
    assert.equal((await t.api('GET', '/v1/Usage?ReferenceCustomer=healthy')).status, 422);
  });
});

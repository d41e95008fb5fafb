import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PricingUsageResultSchema, UsageSchema } from '../../src/contract/index.js';
import { assertRefused, useTestSandbox, usageBody } from './helpers.js';

// The three kinds of usage change the live service reads (exactly one of Increment,
// QuantityCurrent, IsEnabled), IdSubscription, nulls and unknown fields. The clock is frozen at
// 2026-11-16 00:00 UTC: 15 of the 30 days of the November period remain (share 1/2).

describe('usage changes: Increment, QuantityCurrent or IsEnabled', () => {
  const t = useTestSandbox();

  const price = (body: Record<string, unknown>, query = '') =>
    t.api('POST', `/v1/Pricing/Usage${query}`, body);
  const apply = (body: Record<string, unknown>) => t.api('POST', '/v1/Usage', body);

  it('refuses two changes at once, or none, with a 422 array naming the fields, changing nothing', async () => {
    const before = await t.customer('healthy');
    const two = {
      ReferenceCustomer: 'healthy',
      ReferenceFeature: 'seats',
      Increment: 1,
      QuantityCurrent: 4,
    };
    const three = { ...two, IsEnabled: true };
    const none = { ReferenceCustomer: 'healthy', ReferenceFeature: 'seats' };
    for (const [body, targets] of [
      [two, ['Increment', 'QuantityCurrent']],
      [three, ['Increment', 'IsEnabled', 'QuantityCurrent']],
      [none, ['Increment', 'IsEnabled', 'QuantityCurrent']],
    ] as const) {
      for (const res of [await price(body), await apply(body)]) {
        assert.equal(res.status, 422, res.text);
        assert.ok(Array.isArray(res.body));
        assert.deepEqual(res.body.map((e: { Target: string }) => e.Target).sort(), targets);
        for (const error of res.body) {
          assert.equal(error.Code, 'Error.Api.Validation');
          assert.match(error.Message, /exactly one of Increment, QuantityCurrent or IsEnabled/);
        }
      }
    }
    assert.deepEqual(await t.customer('healthy'), before);
  });

  it('QuantityCurrent sets a Limitation to an absolute value, priced as the same Increment', async () => {
    // healthy has 3 seats: QuantityCurrent 7 is Increment 4, 1000 due now.
    const byIncrement = await price(usageBody('healthy', 'seats', { Increment: 4 }));
    const byQuantity = await price(usageBody('healthy', 'seats', { QuantityCurrent: 7 }));
    assert.equal(byQuantity.status, 200, byQuantity.text);
    assert.equal(byQuantity.body.AmountTotal, 1000);
    assert.deepEqual(byQuantity.body, byIncrement.body);
    const applied = await apply(usageBody('healthy', 'seats', { QuantityCurrent: 7 }));
    assert.equal(applied.status, 200, applied.text);
    assert.equal(applied.body.QuantityCurrent, 7);
    // The same value again changes nothing and costs nothing.
    const same = await apply(usageBody('healthy', 'seats', { QuantityCurrent: 7 }));
    assert.equal(same.status, 200);
    const state = await t.customer('healthy');
    assert.equal(state.invoices.length, 1);
    assert.deepEqual(
      state.usageLog.map((e: { increment: number; quantityAfter: number }) => [
        e.increment,
        e.quantityAfter,
      ]),
      [
        [4, 7],
        [0, 7],
      ],
    );
    // Down to 2: free now, lowers nothing below the plan's 4900.
    const down = await price(
      { ReferenceCustomer: 'healthy', ReferenceFeature: 'seats', QuantityCurrent: 2 },
      '?NextTerm=true',
    );
    assert.equal(down.body.AmountTotal, 0);
    assert.equal(down.body.NextTerm.AmountTotal, 4900);
  });

  it('refuses a change that does not fit the feature type, naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ReferenceFeature: 'api-calls', QuantityCurrent: 5 }, 'QuantityCurrent'],
      [{ ReferenceFeature: 'seats', IsEnabled: true }, 'IsEnabled'],
      [{ ReferenceFeature: 'sso', Increment: 1 }, 'Increment'],
      [{ ReferenceFeature: 'sso', QuantityCurrent: 1 }, 'QuantityCurrent'],
      // sso is part of Pro and not switchable by the customer.
      [{ ReferenceFeature: 'sso', IsEnabled: false }, 'IsEnabled'],
      [{ ReferenceFeature: 'seats', QuantityCurrent: -1 }, 'QuantityCurrent'],
      [{ ReferenceFeature: 'seats', QuantityCurrent: 501 }, 'QuantityCurrent'],
      [{ ReferenceFeature: 'seats', IsEnabled: 'yes' }, 'IsEnabled'],
    ];
    for (const [change, target] of cases) {
      const res = await price({ ReferenceCustomer: 'healthy', ...change });
      assert.equal(res.status, 422, `${JSON.stringify(change)}: ${res.text}`);
      assert.equal(res.body[0].Target, target, JSON.stringify(change));
    }
  });

  it('switching on an add-on is priced prorated, invoiced, and raises the next term', async () => {
    // priority-support: 9.00/month on Pro. 900 x 15/30 = 450 now; next term 4900 + 900.
    const quote = await price(
      { ReferenceCustomer: 'healthy', ReferenceFeature: 'priority-support', IsEnabled: true },
      '?NextTerm=true',
    );
    assert.equal(quote.status, 200, quote.text);
    PricingUsageResultSchema.parse(quote.body);
    assert.equal(quote.body.AmountTotal, 450);
    assert.equal(quote.body.AmountTotalDue, 450);
    assert.equal(quote.body.TypeFeature, 'OnOff');
    assert.deepEqual([quote.body.IsEnabledCurrent, quote.body.IsEnabledAfter], [false, true]);
    assert.equal(quote.body.NextTerm.AmountTotal, 5800);
    assert.deepEqual(
      quote.body.Details.map((d: Record<string, unknown>) => [
        d.Type,
        d.QuantityBilled,
        d.AmountTotal,
        d.LabelLocalized,
      ]),
      [['AddOn', 1, 450, 'Priority support, today to December 1, 2026']],
    );
    const applied = await apply(usageBody('healthy', 'priority-support', { IsEnabled: true }));
    assert.equal(applied.status, 200, applied.text);
    UsageSchema.parse(applied.body);
    assert.deepEqual([applied.body.IsIncluded, applied.body.IsEnabled], [true, true]);
    const state = await t.customer('healthy');
    assert.equal(state.invoices.at(-1).AmountTotal, 450);
    assert.equal(state.subscriptions[0].AmountRecurrence, 5800);
    const feature = state.subscriptions[0].Features.find(
      (f: { ReferenceFeature: string }) => f.ReferenceFeature === 'priority-support',
    );
    assert.deepEqual(
      [feature.IsIncluded, feature.IsEnabled, feature.PricingLocalized],
      [true, true, '$9.00\u00a0/\u00a0month'],
    );
    assert.equal(state.usageLog.at(-1).isEnabled, true);
    // At renewal, the add-on is part of the recurring price.
    await t.control('POST', '/clock', { set: '2026-12-01T00:00:00+0000' });
    const renewed = await t.customer('healthy');
    assert.equal(renewed.invoices.at(-1).AmountTotal, 5800);
  });

  it('switching an add-on off is free, lowers the next term, and is not refunded', async () => {
    await apply(usageBody('healthy', 'priority-support', { IsEnabled: true }));
    const quote = await price(
      usageBody('healthy', 'priority-support', { IsEnabled: false, NextTerm: true }),
    );
    assert.equal(quote.body.AmountTotal, 0);
    assert.equal(quote.body.LabelLocalized, 'No extra charge');
    assert.equal(quote.body.NextTerm.AmountTotal, 4900);
    const off = await apply(usageBody('healthy', 'priority-support', { IsEnabled: false }));
    assert.deepEqual([off.body.IsIncluded, off.body.IsEnabled], [false, false]);
    assert.equal((await t.customer('healthy')).invoices.length, 1, 'only the switch-on invoice');
  });

  it('an add-on follows the discounts, needs a payment method, and is free where the plan includes it', async () => {
    // discounted: 20 % off All. 3920 -> 4640: (4640 - 3920) x 1/2 = 360; subtotal 450.
    const discounted = await price(
      usageBody('discounted', 'priority-support', { IsEnabled: true }),
    );
    assert.deepEqual([discounted.body.AmountSubtotal, discounted.body.AmountTotal], [450, 360]);
    assert.deepEqual(
      discounted.body.Details.map((d: { Type: string; AmountTotal: number }) => [
        d.Type,
        d.AmountTotal,
      ]),
      [
        ['AddOn', 450],
        ['Discount', -90],
      ],
    );
    const noCard = await price(
      usageBody('no-payment-method', 'priority-support', { IsEnabled: true }),
    );
    assertRefused(noCard, 403, 'Error.Customer.PaymentSettings.Missing');
    // Business includes it: switching it (already on) costs nothing.
    const included = await price(usageBody('unlimited', 'priority-support', { IsEnabled: true }));
    assert.equal(included.status, 200, included.text);
    assert.equal(included.body.AmountTotal, 0);
    // Starter sells it as an add-on; it lacks sso altogether.
    const starter = await price(usageBody('starter-plan', 'priority-support', { IsEnabled: true }));
    assert.equal(starter.body.AmountTotal, 450);
    const sso = await price(usageBody('starter-plan', 'sso', { IsEnabled: true }));
    assertRefused(sso, 404, 'Error.Api.Usage.NoneMatching');
  });

  it('IdSubscription picks the subscription of a customer who has several', async () => {
    const subs = (await t.customer('two-subscriptions')).subscriptions;
    const starter = subs.find((s: { ReferenceOffer: string }) => s.ReferenceOffer === 'starter').Id;
    const pro = subs.find((s: { ReferenceOffer: string }) => s.ReferenceOffer === 'pro').Id;
    // Without it, the most recent running subscription: Pro, 3 of 10 projects, +3 is free.
    const main = await price(usageBody('two-subscriptions', 'projects', { Increment: 3 }));
    assert.deepEqual([main.body.IdSubscription, main.body.AmountTotal], [pro, 0]);
    // Starter: 1 of 3 projects, +3 -> 4: one over at 5.00 a month, half a period left = 250.
    const side = await price(
      usageBody('two-subscriptions', 'projects', { Increment: 3, IdSubscription: starter }),
    );
    assert.deepEqual([side.body.IdSubscription, side.body.AmountTotal], [starter, 250]);
    const applied = await apply(
      usageBody('two-subscriptions', 'projects', { Increment: 3, IdSubscription: starter }),
    );
    assert.equal(applied.body.IdSubscription, starter);
    assert.equal(applied.body.QuantityCurrent, 4);
    const usages = await t.api(
      'GET',
      `/v1/Usages?ReferenceCustomer=two-subscriptions&ReferenceFeature=projects`,
    );
    assert.deepEqual(
      usages.body.Items.map((u: { IdSubscription: number; QuantityCurrent: number }) => [
        u.IdSubscription,
        u.QuantityCurrent,
      ]),
      [
        [starter, 4],
        [pro, 3],
      ],
    );
    // Another customer's subscription, or a custom offer prepared for this one, is not theirs.
    const healthyCustom = (await t.customer('healthy')).subscriptions.find(
      (s: { custom: boolean }) => s.custom,
    ).Id;
    for (const [customer, id] of [
      ['two-subscriptions', 1001],
      ['healthy', healthyCustom],
      ['healthy', 999_999],
    ] as const) {
      const res = await price(usageBody(customer, 'seats', { Increment: 1, IdSubscription: id }));
      assertRefused(res, 404, 'Error.Subscription.NotFound', `${customer} ${id}`);
      assert.equal(res.body.Target, 'IdSubscription');
    }
  });

  it('reads null as "not given" in usage bodies', async () => {
    const res = await apply(
      usageBody('healthy', 'seats', {
        Increment: 1,
        QuantityCurrent: null,
        IsEnabled: null,
        IdSubscription: null,
        DateStamp: null,
        Language: null,
      }),
    );
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.QuantityCurrent, 4);
    assert.equal((await t.customer('healthy')).usageLog[0].dateStamp, null);
  });

  it('ignores unknown fields of usage bodies and logs them', async () => {
    const body = {
      ReferenceCustomer: 'healthy',
      ReferenceFeature: 'seats',
      Increment: 1,
      Source: 'cli',
      NextTerm: true,
    };
    assert.equal((await apply(body)).status, 200);
    assert.equal((await price({ ...body, Comment: 'x' })).status, 200);
    // NextTerm is a pricing field: on the apply it is unknown.
    assert.deepEqual(t.logs, [
      '[sandbox] POST /v1/Usage: ignored unknown field(s) Source, NextTerm',
      '[sandbox] POST /v1/Pricing/Usage: ignored unknown field(s) Source, Comment',
    ]);
  });
});

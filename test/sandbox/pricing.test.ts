import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PricingUsageResultSchema } from '../../src/contract/index.js';
import { defaultFixtures, type SandboxFixtures } from '../../src/sandbox/index.js';
import { assertRefused, useTestSandbox, usageBody } from './helpers.js';

// Every figure below is worked out by hand. The sandbox clock is frozen at 2026-11-16 00:00 UTC;
// the current period runs 2026-11-01 -> 2026-12-01 (30 days), so 15/30 = 1/2 of it remains.
// Pro plan: 4900/month, 5 seats included then 1000 per seat per month, 10 000 API calls
// included then 1 per call.

describe('POST /v1/Pricing/Usage', () => {
  const t = useTestSandbox();

  const price = (body: Record<string, unknown>, headers?: Record<string, string>) =>
    t.api('POST', '/v1/Pricing/Usage', { DateStamp: '2026-11-16T00:00:00Z', ...body }, headers);

  it('prorates extra seats over the rest of the period', async () => {
    // healthy has 3 of 5 seats. +4 -> 7: 2 seats above the included 5.
    // Recurring price 4900 -> 4900 + 2 x 1000 = 6900; difference 2000 x 15/30 = 1000.
    const res = await price(usageBody('healthy', 'seats', { Increment: 4, NextTerm: true }));
    assert.equal(res.status, 200, res.text);
    PricingUsageResultSchema.parse(res.body);
    assert.equal(res.body.AmountSubtotal, 1000);
    assert.equal(res.body.AmountTotal, 1000);
    assert.equal(res.body.PricingLocalized, '$10.00');
    assert.equal(res.body.LabelLocalized, 'Due now');
    assert.equal(res.body.Currency, 'USD');
    assert.equal(res.body.IdBusiness, 4242);
    assert.equal(res.body.ReferenceFeature, 'seats');
    assert.equal(res.body.DatePeriodStart, '2026-11-01T00:00:00.000Z');
    assert.equal(res.body.DatePeriodTerm, '2026-12-01T00:00:00.000Z');
    assert.deepEqual(res.body.NextTerm, {
      LabelLocalized: 'New recurring price',
      PricingLocalized: '$69.00\u00a0/\u00a0month',
      AmountSubtotal: 6900,
      AmountTotal: 6900,
      AmountTotalDue: 6900,
      DatePeriodStart: '2026-12-01T00:00:00.000Z',
      DatePeriodEnd: '2027-01-01T00:00:00.000Z',
    });
    assert.equal(res.body.Details.length, 1);
    assert.equal(res.body.Details[0].Quantity, 2);
    assert.equal(res.body.Details[0].AmountTotal, 1000);
    assert.match(res.body.Details[0].LabelLocalized, /^Seats: 2 extra, today to December 1, 2026$/);
  });

  it('omits NextTerm unless asked', async () => {
    const res = await price(usageBody('healthy', 'seats', { Increment: 4 }));
    assert.equal(res.body.NextTerm, undefined);
  });

  it('prorates with the share of the period that remains at the sandbox clock', async () => {
    // Move to 2026-11-22 00:00: 9 of 30 days remain. 2000 x 9/30 = 600.
    await t.control('POST', '/clock', { advance: { days: 6 } });
    const res = await price(usageBody('healthy', 'seats', { Increment: 4 }));
    assert.equal(res.body.AmountTotal, 600);
    assert.match(res.body.Details[0].LabelLocalized, /, today to December 1, 2026$/);
  });

  it('says the dates a prorated line covers, in each language, not a share of days', async () => {
    // Move to 2026-11-22 12:00: the line covers the rest of the period, to December 1.
    await t.control('POST', '/clock', { advance: { days: 6, hours: 12 } });
    const body = usageBody('healthy', 'seats', { Increment: 4 });
    const en = await price(body);
    assert.equal(en.body.Details[0].LabelLocalized, 'Seats: 2 extra, today to December 1, 2026');
    const fr = await price({ ...body, Language: 'fr' });
    assert.equal(
      fr.body.Details[0].LabelLocalized,
      'Sièges\u00a0: 2 en supplément, d’aujourd’hui au 1er décembre 2026',
    );
  });

  it('costs nothing within the included quantity', async () => {
    // 3 + 2 = 5 seats: still within the 5 included.
    const res = await price(usageBody('healthy', 'seats', { Increment: 2, NextTerm: true }));
    assert.equal(res.body.AmountTotal, 0);
    assert.equal(res.body.AmountSubtotal, 0);
    assert.equal(res.body.LabelLocalized, 'No extra charge');
    assert.equal(res.body.NextTerm.AmountTotal, 4900);
    assert.deepEqual(res.body.Details, []);
  });

  it('refunds nothing for a decrease, and lowers the next term', async () => {
    // healthy goes 3 -> 1 seats: within the included 5 either way, next term stays 4900.
    const res = await price(usageBody('healthy', 'seats', { Increment: -2, NextTerm: true }));
    assert.equal(res.body.AmountTotal, 0);
    assert.equal(res.body.NextTerm.AmountTotal, 4900);
    // Apply +4 (7 seats, next term 6900), then price -2 (5 seats): next term back to 4900, no refund.
    await t.api('POST', '/v1/Usage', usageBody('healthy', 'seats', { Increment: 4 }));
    const down = await price(usageBody('healthy', 'seats', { Increment: -2, NextTerm: true }));
    assert.equal(down.body.AmountTotal, 0);
    assert.equal(down.body.NextTerm.AmountTotal, 4900);
  });

  it('applies a PerTenThousand discount on All to the prorated charge and the next term', async () => {
    // discounted: Pro with 2000/10000 = 20 % off All, 3 of 5 seats. +4 -> 7.
    // Before discount: 4900 -> 6900, 2000 x 1/2 = 1000 (subtotal).
    // After discount: 4900 - 980 = 3920 -> 6900 - 1380 = 5520; (5520 - 3920) x 1/2 = 800.
    const res = await price(usageBody('discounted', 'seats', { Increment: 4, NextTerm: true }));
    assert.equal(res.body.AmountSubtotal, 1000);
    assert.equal(res.body.AmountTotal, 800);
    assert.equal(res.body.PricingLocalized, '$8.00');
    assert.deepEqual(
      res.body.Details.map((d: { Type: string; AmountTotal: number }) => [d.Type, d.AmountTotal]),
      [
        ['Prorated', 1000],
        ['Discount', -200],
      ],
    );
    assert.equal(res.body.NextTerm.AmountSubtotal, 6900);
    assert.equal(res.body.NextTerm.AmountTotal, 5520);
    assert.equal(res.body.NextTerm.PricingLocalized, '$55.20\u00a0/\u00a0month');
  });

  it('charges Consumption above the included quantity per unit, not prorated', async () => {
    // healthy: 1 200 of 10 000 API calls. +9 000 -> 10 200: 200 calls over x 1 = 200.
    const res = await price(usageBody('healthy', 'api-calls', { Increment: 9000, NextTerm: true }));
    assert.equal(res.body.AmountTotal, 200);
    assert.equal(res.body.Details[0].Type, 'Overage');
    assert.equal(res.body.Details[0].Quantity, 200);
    // Consumption does not change the recurring price.
    assert.equal(res.body.NextTerm.AmountTotal, 4900);
    // discounted: 800 + 9 500 = 10 300: 300 over = 300, minus 20 % (60) = 240.
    const disc = await price(usageBody('discounted', 'api-calls', { Increment: 9500 }));
    assert.equal(disc.body.AmountSubtotal, 300);
    assert.equal(disc.body.AmountTotal, 240);
  });

  it('answers 0 with unlimited access', async () => {
    const res = await price(usageBody('unlimited', 'seats', { Increment: 500, NextTerm: true }));
    assert.equal(res.status, 200);
    assert.equal(res.body.AmountTotal, 0);
    assert.equal(res.body.NextTerm.AmountTotal, 19900);
  });

  it('localizes labels and prices in French (Accept-Language or Language)', async () => {
    const body = {
      ReferenceCustomer: 'discounted',
      ReferenceFeature: 'seats',
      Increment: 4,
      NextTerm: true,
    };
    const byHeader = await price(body, { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' });
    const byParam = await t.api('POST', '/v1/Pricing/Usage?Language=fr', body);
    const byBody = await price({ ...body, Language: 'fr' });
    for (const res of [byHeader, byParam, byBody]) {
      assert.equal(res.body.LabelLocalized, 'À payer maintenant');
      // Intl fr-FR: "8,00 $US" with a narrow no-break space.
      assert.equal(
        res.body.PricingLocalized,
        new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'USD' }).format(8),
      );
      assert.match(res.body.PricingLocalized, /^8,00\s\$US$/u);
      assert.equal(res.body.NextTerm.LabelLocalized, 'Nouveau prix récurrent');
      assert.match(res.body.NextTerm.PricingLocalized, /^55,20\s\$US\u00a0\/\u00a0mois$/u);
      assert.match(
        res.body.Details[0].LabelLocalized,
        /^Sièges\u00a0: 2 en supplément, d’aujourd’hui au 1er décembre 2026$/,
      );
    }
    // An explicit Language wins over the header; an unknown one is refused.
    const en = await t.api('POST', '/v1/Pricing/Usage?Language=en', body, {
      'accept-language': 'fr',
    });
    assert.equal(en.body.LabelLocalized, 'Due now');
    const bad = await t.api('POST', '/v1/Pricing/Usage?Language=de', body);
    assert.equal(bad.status, 422);
    assert.equal(bad.body[0].Target, 'Language');
  });

  it('never changes state', async () => {
    const before = await t.customer('healthy');
    for (let i = 0; i < 3; i++) {
      await price({ ReferenceCustomer: 'healthy', ReferenceFeature: 'seats', Increment: 4 });
    }
    assert.deepEqual(await t.customer('healthy'), before);
  });

  describe('refusals of the seed', () => {
    it('404 Error.Api.Usage.NoneMatching when the plan lacks the feature', async () => {
      // Starter sells priority-support as an add-on: that one is part of it (add-on tests).
      for (const feature of ['seats', 'sso', 'no-such-feature']) {
        const res = await price(usageBody('starter-plan', feature, { Increment: 1 }));
        assertRefused(res, 404, 'Error.Api.Usage.NoneMatching', feature);
        assert.equal(res.body.Target, 'ReferenceFeature');
      }
    });

    it('403 Error.Customer.PaymentSettings.Missing only when the change is billable', async () => {
      const billable = await price(usageBody('no-payment-method', 'seats', { Increment: 1 }));
      assertRefused(billable, 403, 'Error.Customer.PaymentSettings.Missing');
      // 2 of 10 projects: +1 is free, so no payment method is needed.
      const free = await price(usageBody('no-payment-method', 'projects', { Increment: 1 }));
      assert.equal(free.status, 200);
      assert.equal(free.body.AmountTotal, 0);
    });

    it('403 Error.Customer.Billing.CappingReached, even for a free change', async () => {
      for (const increment of [1, 100]) {
        const res = await price(usageBody('capping-reached', 'seats', { Increment: increment }));
        assertRefused(res, 403, 'Error.Customer.Billing.CappingReached');
      }
    });

    it('403 Error.Subscription.NotActive for a suspended or pending subscription', async () => {
      for (const customer of ['suspended', 'pending']) {
        const res = await price(usageBody(customer, 'seats', { Increment: 1 }));
        assertRefused(res, 403, 'Error.Subscription.NotActive', customer);
      }
    });

    it('404 Error.Subscription.NotFound without subscription, 404 Error.Customer.NotFound for an unknown customer', async () => {
      const none = await price(usageBody('no-subscription', 'seats', { Increment: 1 }));
      assertRefused(none, 404, 'Error.Subscription.NotFound');
      const unknown = await price(usageBody('nobody', 'seats', { Increment: 1 }));
      assertRefused(unknown, 404, 'Error.Customer.NotFound');
      assert.equal(unknown.body.Target, 'ReferenceCustomer');
    });
  });
});

describe('Flat discounts', () => {
  // A fixture with Flat discounts: 500 off the recurring price each period, and 150 off each
  // usage (Consumption) charge.
  const fixtures = defaultFixtures() as SandboxFixtures & {
    discounts: NonNullable<SandboxFixtures['discounts']>;
  };
  fixtures.discounts.push({
    reference: 'usage-credit',
    name: 'USAGE150',
    title: '1.50 off each usage charge',
    targetFee: 'Usage',
    typeOff: 'Flat',
    valueOff: 150,
  });
  fixtures.customers = [
    {
      reference: 'flat',
      name: 'Flo Flat',
      email: 'flo@example.com',
      subscriptions: [
        {
          offer: 'pro',
          discounts: ['five-dollars-off', 'usage-credit'],
          quantities: { seats: 3, 'api-calls': 1200 },
        },
      ],
    },
  ];
  const t = useTestSandbox({ fixtures });
  /** The price of a change (`fields`) of the flat customer's `feature`. */
  const flatPrice = (feature: string, fields: Record<string, unknown>) =>
    t.api('POST', '/v1/Pricing/Usage', usageBody('flat', feature, fields));

  it('subtracts a Flat Recurring discount once per period, not from the prorated difference', async () => {
    // Recurring: 4900 - 500 = 4400 now; with 7 seats 6900 - 500 = 6400.
    // Prorated: subtotal (6900 - 4900) x 1/2 = 1000; total (6400 - 4400) x 1/2 = 1000.
    const res = await flatPrice('seats', { Increment: 4, NextTerm: true });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.AmountTotal, 1000);
    assert.equal(res.body.NextTerm.AmountSubtotal, 6900);
    assert.equal(res.body.NextTerm.AmountTotal, 6400);
    const sub = await t.api('GET', '/v1/Subscription?ReferenceCustomer=flat');
    assert.equal(sub.body.AmountRecurrence, 4900);
    assert.equal(sub.body.AmountRecurrenceDiscounted, 4400);
    assert.deepEqual(
      sub.body.Discounts.map((d: { TypeOff: string; TargetFee: string; ValueOff: number }) => [
        d.TypeOff,
        d.TargetFee,
        d.ValueOff,
      ]),
      [
        ['Flat', 'Recurring', 500],
        ['Flat', 'Usage', 150],
      ],
    );
  });

  it('subtracts a Flat Usage discount from each Consumption charge, never below 0', async () => {
    // 1 200 + 9 000 = 10 200: 200 over x 1 = 200; minus 150 = 50.
    const res = await flatPrice('api-calls', { Increment: 9000 });
    assert.equal(res.body.AmountSubtotal, 200);
    assert.equal(res.body.AmountTotal, 50);
    // 1 200 + 8 900 = 10 100: 100 over = 100; minus 150 -> 0 (not -50).
    const small = await flatPrice('api-calls', { Increment: 8900 });
    assert.equal(small.body.AmountSubtotal, 100);
    assert.equal(small.body.AmountTotal, 0);
  });
});

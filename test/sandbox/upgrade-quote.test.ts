import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UpgradeQuoteSchema } from '../../src/contract/index.js';
import { link, type TestSandbox, usageBody, useTestSandbox } from './helpers.js';
import { forms, openPage, submit } from './hosted-pages.js';

// The quote of an offer change (POST /v1/Quoting/Subscription/{id}/Upgrade) and the changes it
// prices (endpoint 9, the hosted upgrade table). The clock is frozen at 2026-11-16 00:00 UTC:
// half of the November period remains. healthy is on Pro (4900) with 3 seats and 4 projects;
// its subscription is 1001.

const quote = (t: TestSandbox, id: number, query: string) =>
  t.api('POST', `/v1/Quoting/Subscription/${id}/Upgrade?${query}`);
const change = (t: TestSandbox, id: number, query: string) =>
  t.api('POST', `/v1/Subscription/${id}/Upgrade?${query}`);

async function subscriptionOf(t: TestSandbox, customer: string) {
  return (await t.api('GET', `/v1/Subscription?ReferenceCustomer=${customer}`)).body;
}

describe('POST /v1/Quoting/Subscription/{id}/Upgrade', () => {
  const t = useTestSandbox();

  it('prices an upgrade now and its new recurring price, changing nothing', async () => {
    const before = await t.customer('healthy');
    const res = await quote(t, 1001, 'ReferenceOffer=business');
    assert.equal(res.status, 200, res.text);
    const q = UpgradeQuoteSchema.parse(res.body);
    // (19900 - 4900) x 1/2 = 7500 due now.
    assert.deepEqual(
      {
        ReferenceOfferCurrent: q.ReferenceOfferCurrent,
        ReferenceOffer: q.ReferenceOffer,
        TypeChange: q.TypeChange,
        IsImmediate: q.IsImmediate,
        BillNow: q.BillNow,
        DateEffective: q.DateEffective,
        LabelLocalized: q.LabelLocalized,
        PricingLocalized: q.PricingLocalized,
        AmountSubtotal: q.AmountSubtotal,
        AmountTotal: q.AmountTotal,
        AmountTotalDue: q.AmountTotalDue,
        DatePeriodEnd: q.DatePeriodEnd,
      },
      {
        ReferenceOfferCurrent: 'pro',
        ReferenceOffer: 'business',
        TypeChange: 'Upgrade',
        IsImmediate: true,
        BillNow: true,
        DateEffective: '2026-11-16T00:00:00.000Z',
        LabelLocalized: 'Due now',
        PricingLocalized: '$75.00',
        AmountSubtotal: 7500,
        AmountTotal: 7500,
        AmountTotalDue: 7500,
        DatePeriodEnd: '2026-12-01T00:00:00.000Z',
      },
    );
    // Both sides of the switch, adding up to the amount: Business for the rest of the period,
    // less the unused half of Pro (a single net line "Business, 15 of 30 days $75.00" hid it).
    assert.deepEqual(res.body.Details, [
      {
        Type: 'Upgrade',
        LabelLocalized: 'Business, today to December 1, 2026',
        PricingLocalized: '$99.50',
        Quantity: 1,
        AmountSubtotal: 9950,
        AmountTotal: 9950,
        AmountTotalDue: 9950,
        QuantityReported: 1,
        QuantityBilled: 1,
        DatePeriodStart: '2026-11-16T00:00:00.000Z',
        DatePeriodEnd: '2026-12-01T00:00:00.000Z',
      },
      {
        Type: 'Credit',
        LabelLocalized: 'Credit for unused Pro, today to December 1, 2026',
        PricingLocalized: '-$24.50',
        Quantity: 1,
        AmountSubtotal: -2450,
        AmountTotal: -2450,
        AmountTotalDue: -2450,
        QuantityBilled: 1,
        DatePeriodStart: '2026-11-16T00:00:00.000Z',
        DatePeriodEnd: '2026-12-01T00:00:00.000Z',
      },
    ]);
    assert.deepEqual(res.body.NextTerm, {
      LabelLocalized: 'New recurring price',
      PricingLocalized: '$199.00\u00a0/\u00a0month',
      AmountSubtotal: 19900,
      AmountTotal: 19900,
      AmountTotalDue: 19900,
      DatePeriodStart: '2026-12-01T00:00:00.000Z',
      DatePeriodEnd: '2027-01-01T00:00:00.000Z',
    });
    assert.deepEqual(await t.customer('healthy'), before);
    const french = await quote(t, 1001, 'ReferenceOffer=business&Language=fr');
    assert.equal(french.body.LabelLocalized, 'À payer maintenant');
    assert.match(french.body.NextTerm.PricingLocalized, /^199,00\s\$US\u00a0\/\u00a0mois$/u);
  });

  it('quotes exactly what endpoint 9 then invoices, whoever and whenever', async () => {
    const cases: [string, string, { days?: number }][] = [
      ['healthy', 'business', {}],
      ['discounted', 'business', {}],
      ['starter-plan', 'pro', {}],
      ['starter-plan', 'business', { days: 6 }],
      ['healthy', 'business', { days: 11 }],
    ];
    for (const [customer, offer, advance] of cases) {
      await t.control('POST', '/reset');
      if (advance.days) await t.control('POST', '/clock', { advance });
      const sub = await subscriptionOf(t, customer);
      const priced = await quote(t, sub.Id, `ReferenceOffer=${offer}`);
      assert.equal(priced.status, 200, priced.text);
      const done = await change(t, sub.Id, `ReferenceOffer=${offer}`);
      assert.equal(done.status, 200, done.text);
      const label = `${customer} -> ${offer} after ${advance.days ?? 0} days`;
      assert.equal(done.body.AmountChargedNow, priced.body.AmountTotalDue, label);
      assert.ok(priced.body.AmountTotalDue > 0, label);
      // The lines say where the amount comes from, to the cent: the new offer, the credit for
      // the current one's unused part, any discount.
      const lines = priced.body.Details as { Type: string; AmountTotal: number }[];
      const sum = lines.reduce((total, line) => total + line.AmountTotal, 0);
      assert.equal(sum, priced.body.AmountTotal, `${label}: the lines add up`);
      assert.ok(
        lines.some((line) => line.Type === 'Credit' && line.AmountTotal < 0),
        `${label}: a credit line`,
      );
      const invoice = await t.api('GET', `/v1/Invoice/${done.body.IdInvoice}`);
      assert.equal(invoice.body.AmountTotal, priced.body.AmountTotalDue, label);
      assert.equal(done.body.AmountRecurrenceDiscounted, priced.body.NextTerm.AmountTotal, label);
    }
  });

  it('carries a bought add-on to the new offer when it sells it, and prices it so', async () => {
    await t.api('POST', '/v1/Usage', usageBody('healthy', 'priority-support', { IsEnabled: true }));
    // Pro 4900 + add-on 900 = 5800. Business includes it: 19900; (19900 - 5800) x 1/2 = 7050.
    const business = await quote(t, 1001, 'ReferenceOffer=business');
    assert.deepEqual(
      [business.body.AmountTotalDue, business.body.NextTerm.AmountTotal],
      [7050, 19900],
    );
    // Starter sells it too: 1900 + 900 + 1 project over 3 (500) = 3300, a downgrade.
    const starter = await quote(t, 1001, 'ReferenceOffer=starter');
    assert.deepEqual(
      [starter.body.TypeChange, starter.body.NextTerm.AmountTotal],
      ['Downgrade', 3300],
    );
  });

  it('takes a downgrade at the end of the period: nothing due, the date, the lower price', async () => {
    // Starter with healthy's 4 projects: 1900 + 1 x 500 = 2400 from December 1.
    const q = await quote(t, 1001, 'ReferenceOffer=starter');
    assert.deepEqual(
      [q.body.TypeChange, q.body.IsImmediate, q.body.DateEffective, q.body.AmountTotalDue],
      ['Downgrade', false, '2026-12-01T00:00:00.000Z', 0],
    );
    assert.equal(q.body.LabelLocalized, 'Changes at the end of the current period');
    assert.deepEqual(q.body.Details, []);
    assert.equal(q.body.NextTerm.AmountTotal, 2400);
    const done = await change(t, 1001, 'ReferenceOffer=starter');
    assert.deepEqual(
      [
        done.body.ReferenceOffer,
        done.body.ReferenceOfferAfterTerm,
        done.body.DateOfferChange,
        done.body.DateEffective,
        done.body.AmountChargedNow,
        done.body.IdInvoice,
      ],
      ['pro', 'starter', '2026-12-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z', 0, null],
    );
    // Seats stay usable until then.
    const seats = await t.api('GET', '/v1/Usage?ReferenceCustomer=healthy&ReferenceFeature=seats');
    assert.equal(seats.status, 200);
    await t.control('POST', '/clock', { set: '2026-12-01T00:00:00Z' });
    const after = await subscriptionOf(t, 'healthy');
    assert.deepEqual([after.ReferenceOffer, after.ReferenceOfferAfterTerm], ['starter', undefined]);
    const state = await t.customer('healthy');
    assert.equal(state.invoices.at(-1).AmountTotal, q.body.NextTerm.AmountTotal);
    const gone = await t.api('GET', '/v1/Usage?ReferenceCustomer=healthy&ReferenceFeature=seats');
    assert.equal(gone.body.Code, 'Error.Api.Usage.NoneMatching');
  });

  it('Immediate=true downgrades now without refund; Immediate=false waits for an upgrade too', async () => {
    const now = await quote(t, 1001, 'ReferenceOffer=starter&Immediate=true');
    assert.deepEqual([now.body.IsImmediate, now.body.AmountTotalDue], [true, 0]);
    const done = await change(t, 1001, 'ReferenceOffer=starter&Immediate=true');
    assert.deepEqual([done.body.ReferenceOffer, done.body.AmountChargedNow], ['starter', 0]);
    await t.control('POST', '/reset');
    const later = await quote(t, 1001, 'ReferenceOffer=business&Immediate=false');
    assert.deepEqual(
      [
        later.body.TypeChange,
        later.body.IsImmediate,
        later.body.AmountTotalDue,
        later.body.DateEffective,
      ],
      ['Upgrade', false, 0, '2026-12-01T00:00:00.000Z'],
    );
    await change(t, 1001, 'ReferenceOffer=business&Immediate=false');
    assert.equal((await subscriptionOf(t, 'healthy')).ReferenceOffer, 'pro');
    await t.control('POST', '/clock', { advance: { months: 1 } });
    assert.equal((await subscriptionOf(t, 'healthy')).ReferenceOffer, 'business');
    assert.equal((await t.customer('healthy')).invoices.at(-1).AmountTotal, 19900);
  });

  it('BillNow=false adds the prorated amount to the next renewal invoice instead', async () => {
    const q = await quote(t, 1001, 'ReferenceOffer=business&BillNow=false');
    assert.deepEqual(
      [q.body.AmountTotal, q.body.AmountTotalDue, q.body.BillNow, q.body.LabelLocalized],
      [7500, 0, false, 'Added to the next invoice'],
    );
    const done = await change(t, 1001, 'ReferenceOffer=business&BillNow=false');
    assert.deepEqual([done.body.ReferenceOffer, done.body.AmountChargedNow], ['business', 0]);
    assert.equal((await t.customer('healthy')).invoices.length, 0);
    await t.control('POST', '/clock', { set: '2026-12-01T00:00:00Z' });
    const [renewal] = (await t.customer('healthy')).invoices;
    assert.equal(renewal.AmountTotal, 19900 + 7500);
  });

  it('choosing the current offer is "None": nothing due, the current price; endpoint 9 cancels a scheduled change', async () => {
    const same = await quote(t, 1001, 'ReferenceOffer=pro');
    assert.deepEqual(
      [same.body.TypeChange, same.body.AmountTotalDue, same.body.NextTerm.AmountTotal],
      ['None', 0, 4900],
    );
    await change(t, 1001, 'ReferenceOffer=starter');
    const cancelled = await change(t, 1001, 'ReferenceOffer=pro');
    assert.equal(cancelled.body.ReferenceOfferAfterTerm, undefined);
    await t.control('POST', '/clock', { set: '2026-12-01T00:00:00Z' });
    assert.equal((await subscriptionOf(t, 'healthy')).ReferenceOffer, 'pro');
  });

  it('refuses what the service refuses, with a clear code, changing nothing', async () => {
    const ids: Record<string, number> = {};
    for (const c of ['suspended', 'pending', 'capping-reached', 'no-payment-method'])
      ids[c] = (await subscriptionOf(t, c)).Id;
    const custom = (await t.customer('healthy')).subscriptions.find(
      (s: { custom: boolean }) => s.custom,
    ).Id;
    const cases: [number, string, number, string][] = [
      [1001, 'ReferenceOffer=gold', 404, 'Error.Offer.NotFound'],
      [1001, 'ReferenceOffer=enterprise', 403, 'Error.Offer.OnRequest'],
      [ids.suspended ?? 0, 'ReferenceOffer=business', 403, 'Error.Subscription.NotActive'],
      [ids.pending ?? 0, 'ReferenceOffer=business', 403, 'Error.Subscription.NotActive'],
      [
        ids['capping-reached'] ?? 0,
        'ReferenceOffer=business',
        403,
        'Error.Customer.Billing.CappingReached',
      ],
      [
        ids['no-payment-method'] ?? 0,
        'ReferenceOffer=business',
        403,
        'Error.Customer.PaymentSettings.Missing',
      ],
      [custom, 'ReferenceOffer=business', 409, 'Error.Subscription.NotActive'],
      [999_999, 'ReferenceOffer=business', 404, 'Error.Subscription.NotFound'],
      [1001, '', 422, 'Error.Api.Validation'],
      [1001, 'ReferenceOffer=business&Immediate=soon', 422, 'Error.Api.Validation'],
    ];
    const customers = ['healthy', 'suspended', 'pending', 'capping-reached', 'no-payment-method'];
    const before = await Promise.all(customers.map((c) => t.customer(c)));
    for (const [id, query, status, code] of cases) {
      const q = await quote(t, id, query);
      assert.equal(q.status, status, `quote ${id} ${query}: ${q.text}`);
      const errors = Array.isArray(q.body) ? q.body : [q.body];
      assert.equal(errors[0].Code, code, `quote ${id} ${query}`);
    }
    // The instant change refuses the same way (endpoint 9).
    const onRequest = await change(t, 1001, 'ReferenceOffer=enterprise');
    assert.deepEqual([onRequest.status, onRequest.body.Code], [403, 'Error.Offer.OnRequest']);
    const subscribe = await t.api('POST', '/v1/Subscription', {
      ReferenceCustomer: 'no-subscription',
      ReferenceOffer: 'enterprise',
    });
    assert.deepEqual([subscribe.status, subscribe.body.Code], [403, 'Error.Offer.OnRequest']);
    assert.deepEqual(await Promise.all(customers.map((c) => t.customer(c))), before);
  });

  it('a free change needs no payment method; EnsureBillable=false quotes a billable one anyway', async () => {
    const id = (await subscriptionOf(t, 'no-payment-method')).Id;
    const down = await quote(t, id, 'ReferenceOffer=starter');
    assert.equal(down.status, 200, down.text);
    const forced = await quote(t, id, 'ReferenceOffer=starter&EnsureBillable=true');
    assert.equal(forced.body.Code, 'Error.Customer.PaymentSettings.Missing');
    const priced = await quote(t, id, 'ReferenceOffer=business&EnsureBillable=false');
    assert.equal(priced.status, 200, priced.text);
    assert.equal(priced.body.AmountTotalDue, 7500);
    // Applying still needs the payment method.
    const refused = await change(t, id, 'ReferenceOffer=business');
    assert.equal(refused.body.Code, 'Error.Customer.PaymentSettings.Missing');
  });
});

describe('the hosted upgrade table shows what the quote says', () => {
  const t = useTestSandbox();

  it('amounts due now, the date of a downgrade, and an on-request offer without a button', async () => {
    const sub = await subscriptionOf(t, 'healthy');
    const table = await openPage(link(sub, 'hosted-upgrade').href ?? '');
    const business = await quote(t, 1001, 'ReferenceOffer=business');
    assert.match(
      table.html,
      new RegExp(`<th scope="row">Business[\\s\\S]*?\\${business.body.PricingLocalized}`),
    );
    assert.match(table.html, /<th scope="row">Starter[\s\S]*?changes on December 1, 2026/);
    assert.match(
      table.html,
      /<th scope="row">Enterprise <span class="badge">On request<\/span>[\s\S]*?Ask us/,
    );
    assert.ok(!forms(table).some((f) => f.html.includes('offer:enterprise')));
    const forged = await submit(table, { choice: 'offer:enterprise' });
    assert.equal(forged.status, 422);
    const scheduled = await submit(table, {}, 'value="offer:starter"');
    assert.equal(scheduled.status, 200, scheduled.html);
    assert.match(
      scheduled.html,
      /Your plan will change at the end of the current period, on December 1, 2026\./,
    );
    const after = await subscriptionOf(t, 'healthy');
    assert.equal(after.ReferenceOfferAfterTerm, 'starter');
    const portal = await openPage(link(after, 'hosted-related-subscription').href ?? '');
    assert.match(portal.html, /Next plan: Starter, December 1, 2026/);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvoiceSchema, UsagesPageSchema } from '../../src/contract/index.js';
import { defaultFixtures } from '../../src/sandbox/index.js';
import {
  assertRefused,
  link,
  startTestSandbox,
  useTestSandbox,
  usageBody,
  quantityOf,
} from './helpers.js';

describe('GET /v1/Usages', () => {
  const t = useTestSandbox();

  it('lists one Usage per feature of the plan', async () => {
    const res = await t.api('GET', '/v1/Usages?ReferenceCustomer=healthy');
    assert.equal(res.status, 200);
    const page = UsagesPageSchema.parse(res.body);
    assert.deepEqual(
      { Page: page.Page, SizePage: page.SizePage, Count: page.Count, TotalItems: page.TotalItems },
      { Page: 1, SizePage: 10, Count: 5, TotalItems: 5 },
    );
    const byRef = Object.fromEntries(page.Items.map((u) => [u.ReferenceFeature, u]));
    assert.deepEqual(Object.keys(byRef), [
      'seats',
      'projects',
      'api-calls',
      'sso',
      'priority-support',
    ]);
    assert.equal(byRef.seats?.TypeFeature, 'Limitation');
    assert.equal(byRef.seats?.QuantityIncluded, 5);
    assert.equal(byRef.seats?.QuantityCurrent, 3);
    assert.equal(byRef.seats?.IdSubscription, 1001);
    assert.equal(byRef.seats?.ReferenceCustomer, 'healthy');
    assert.equal(byRef.seats?.ReferenceSegment, 'main');
    assert.equal(byRef.seats?.DatePeriodStart, '2026-11-01T00:00:00.000Z');
    assert.equal(byRef.seats?.DatePeriodEnd, '2026-12-01T00:00:00.000Z');
    assert.equal(byRef['api-calls']?.TypeFeature, 'Consumption');
    assert.equal(byRef['api-calls']?.DateResetConsumption, '2026-12-01T00:00:00.000Z');
    assert.equal(byRef.sso?.TypeFeature, 'OnOff');
    assert.equal(byRef.sso?.IsIncluded, true);
    assert.equal(byRef.sso?.IsEnabled, true);
    assert.equal(byRef['priority-support']?.IsIncluded, false);
  });

  it('shows unlimited access as QuantityIncluded -1, and a plan without a feature has no item for it', async () => {
    const unlimited = await t.api('GET', '/v1/Usages?ReferenceCustomer=unlimited');
    const seats = unlimited.body.Items.find(
      (u: { ReferenceFeature: string }) => u.ReferenceFeature === 'seats',
    );
    assert.equal(seats.QuantityIncluded, -1);
    assert.equal(seats.QuantityCurrent, 42);
    const starter = await t.api('GET', '/v1/Usages?ReferenceCustomer=starter-plan');
    const refs = starter.body.Items.map((u: { ReferenceFeature: string }) => u.ReferenceFeature);
    assert.deepEqual(refs, ['projects', 'api-calls', 'priority-support']);
  });

  it('answers an empty page without a live subscription', async () => {
    for (const customer of ['no-subscription', 'pending']) {
      const res = await t.api('GET', `/v1/Usages?ReferenceCustomer=${customer}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { Page: 1, SizePage: 10, Count: 0, TotalItems: 0, Items: [] });
    }
  });

  it('pages with Page (1-based) and SizePage (1 to 1000)', async () => {
    const first = await t.api('GET', '/v1/Usages?ReferenceCustomer=healthy&SizePage=2');
    assert.equal(first.body.Count, 2);
    assert.equal(first.body.TotalItems, 5);
    const third = await t.api('GET', '/v1/Usages?ReferenceCustomer=healthy&SizePage=2&Page=3');
    assert.equal(third.body.Count, 1);
    assert.equal(third.body.Items[0].ReferenceFeature, 'priority-support');
    const beyond = await t.api('GET', '/v1/Usages?ReferenceCustomer=healthy&SizePage=2&Page=9');
    assert.equal(beyond.body.Count, 0);
    const max = await t.api('GET', '/v1/Usages?ReferenceCustomer=healthy&SizePage=1000');
    assert.equal(max.status, 200);
    for (const bad of [
      'SizePage=0',
      'SizePage=1001',
      'Page=0',
      'Page=-1',
      'Page=1.5',
      'SizePage=ten',
    ]) {
      const res = await t.api('GET', `/v1/Usages?ReferenceCustomer=healthy&${bad}`);
      assert.equal(res.status, 422, bad);
      assert.equal(res.body[0].Code, 'Error.Api.Validation');
      assert.equal(res.body[0].Target, bad.split('=')[0]);
    }
  });

  it('filters by ReferenceFeature', async () => {
    const res = await t.api('GET', '/v1/Usages?ReferenceCustomer=healthy&ReferenceFeature=sso');
    assert.equal(res.body.TotalItems, 1);
    assert.equal(res.body.Items[0].ReferenceFeature, 'sso');
  });

  it('refuses a missing or unknown customer', async () => {
    const missing = await t.api('GET', '/v1/Usages');
    assert.equal(missing.status, 422);
    assert.equal(missing.body[0].Target, 'ReferenceCustomer');
    const unknown = await t.api('GET', '/v1/Usages?ReferenceCustomer=ghost');
    assertRefused(unknown, 404, 'Error.Customer.NotFound');
  });
});

describe('POST /v1/Usage', () => {
  const t = useTestSandbox();

  const apply = (body: Record<string, unknown>) =>
    t.api('POST', '/v1/Usage', { DateStamp: '2026-11-16T08:00:00Z', ...body });

  it('applies a billable change and invoices it, paid at once by the card on file', async () => {
    // Same figures as the pricing test: +4 seats at mid-period = 1000.
    const res = await apply(usageBody('healthy', 'seats', { Increment: 4 }));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.ReferenceFeature, 'seats');
    assert.equal(res.body.QuantityCurrent, 7);
    assert.equal(res.body.QuantityIncluded, 5);
    // No amount in the answer (the live service sends none): the invoice says what was charged.
    for (const field of ['Increment', 'AmountSubtotal', 'AmountTotal', 'Currency', 'IdInvoice'])
      assert.equal(res.body[field], undefined, field);

    const issued = (await t.customer('healthy')).invoices.at(-1);
    const invoice = await t.api('GET', `/v1/Invoice/${issued.Id}`);
    assert.equal(invoice.status, 200);
    InvoiceSchema.parse(invoice.body);
    assert.equal(invoice.body.StateInvoice, 'Paid');
    assert.equal(invoice.body.DatePaid, '2026-11-16T00:00:00.000Z');
    assert.equal(invoice.body.TypePayment, 'Card');
    assert.equal(invoice.body.AmountTotal, 1000);
    assert.equal(invoice.body.Currency, 'USD');
    assert.equal(invoice.body.DateIssue, '2026-11-16T00:00:00.000Z');
    // Payment term of the default business: 14 days.
    assert.equal(invoice.body.DatePaymentLimit, '2026-11-30T00:00:00.000Z');
    assert.match(invoice.body.FullNumber, /^INV-2026-\d{6}$/);

    const state = await t.customer('healthy');
    assert.equal(state.usageLog.length, 1);
    assert.deepEqual(
      { ...state.usageLog[0], at: undefined },
      {
        at: undefined,
        dateStamp: '2026-11-16T08:00:00Z',
        subscriptionId: 1001,
        feature: 'seats',
        increment: 4,
        quantityBefore: 3,
        quantityAfter: 7,
        amountSubtotal: 1000,
        amountTotal: 1000,
        invoiceId: issued.Id,
      },
    );
    assert.equal(await quantityOf(t, 'healthy', 'seats'), 7);
    const stats = await t.control('GET', '/stats');
    assert.equal(stats.body.appliedUsageChanges, 1);
    assert.equal(stats.body.appliedUsageChangesByCustomer.healthy, 1);
  });

  it('applies a free change without an invoice, and without a payment method', async () => {
    const res = await apply(usageBody('no-payment-method', 'projects', { Increment: 3 }));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.QuantityCurrent, 5);
    assert.equal((await t.customer('no-payment-method')).invoices.length, 0);
  });

  it('counts Consumption and charges the use above the plan', async () => {
    const res = await apply(usageBody('healthy', 'api-calls', { Increment: 9000 }));
    assert.equal(res.body.QuantityCurrent, 10200);
    const invoice = (await t.customer('healthy')).invoices.at(-1);
    assert.equal(invoice.AmountTotal, 200);
  });

  it('refuses with the seed errors and changes nothing', async () => {
    const cases: [string, string, number, number, string][] = [
      ['starter-plan', 'seats', 1, 404, 'Error.Api.Usage.NoneMatching'],
      ['no-payment-method', 'seats', 1, 403, 'Error.Customer.PaymentSettings.Missing'],
      ['capping-reached', 'seats', 1, 403, 'Error.Customer.Billing.CappingReached'],
      ['suspended', 'seats', 1, 403, 'Error.Subscription.NotActive'],
      ['no-subscription', 'seats', 1, 404, 'Error.Subscription.NotFound'],
    ];
    for (const [customer, feature, increment, status, code] of cases) {
      const before = await t.customer(customer);
      const res = await apply(usageBody(customer, feature, { Increment: increment }));
      assert.equal(res.status, status, `${customer}: ${res.text}`);
      assert.equal(res.body.Code, code);
      assert.deepEqual(await t.customer(customer), before, `${customer} unchanged`);
    }
    assert.equal((await t.control('GET', '/stats')).body.appliedUsageChanges, 0);
  });

  it('never lets a quantity fall below 0 or above its maximum', async () => {
    const below = await apply(usageBody('healthy', 'seats', { Increment: -4 }));
    assert.equal(below.status, 422);
    assert.equal(below.body[0].Code, 'Error.Api.Usage.QuantityOutOfRange');
    assert.equal(below.body[0].Target, 'Increment');
    // Pro allows 500 seats at most.
    const above = await apply(usageBody('healthy', 'seats', { Increment: 498 }));
    assert.equal(above.status, 422);
    assert.equal(above.body[0].Code, 'Error.Api.Usage.QuantityOutOfRange');
    const exact = await apply(usageBody('healthy', 'seats', { Increment: -3 }));
    assert.equal(exact.status, 200);
    assert.equal(exact.body.QuantityCurrent, 0);
  });

  it('refuses increments on an OnOff feature', async () => {
    const res = await apply(usageBody('healthy', 'sso', { Increment: 1 }));
    assert.equal(res.status, 422);
    assert.equal(res.body[0].Code, 'Error.Api.Validation');
    assert.equal(res.body[0].Target, 'Increment');
  });

  it('validates Increment: an integer, not 0, |Increment| <= 1,000,000', async () => {
    for (const increment of [
      0,
      1.5,
      // A numeric string is read as its number (numeric-strings.test.ts): "1.5" is not an integer.
      '1.5',
      'three',
      null,
      true,
      1_000_001,
      -1_000_001,
      1e300,
      [1],
      { n: 1 },
    ]) {
      const res = await apply(usageBody('healthy', 'api-calls', { Increment: increment }));
      assert.equal(res.status, 422, `${JSON.stringify(increment)}: ${res.text}`);
      assert.ok(Array.isArray(res.body));
      assert.equal(res.body[0].Code, 'Error.Api.Validation');
      assert.equal(res.body[0].Target, 'Increment');
    }
    const max = await apply(usageBody('unlimited', 'seats', { Increment: 1_000_000 }));
    assert.equal(max.status, 200, max.text);
  });

  it('lists every invalid field of a body at once', async () => {
    const res = await t.api('POST', '/v1/Usage', { ReferenceCustomer: 7, DateStamp: 'yesterday' });
    assert.equal(res.status, 422);
    const targets = res.body.map((e: { Target: string }) => e.Target).sort();
    assert.deepEqual(targets, [
      'DateStamp',
      'Increment',
      'IsEnabled',
      'QuantityCurrent',
      'ReferenceCustomer',
      'ReferenceFeature',
    ]);
    const missing = res.body.find((e: { Target: string }) => e.Target === 'Increment');
    assert.match(
      missing.Message,
      /required: give exactly one of Increment, QuantityCurrent or IsEnabled/,
    );
  });

  it('refuses malformed JSON and non-JSON bodies with 400', async () => {
    for (const [body, type] of [
      ['{"ReferenceCustomer": "healthy",', 'application/json'],
      ['', 'application/json'],
      ['ReferenceCustomer=healthy', 'application/x-www-form-urlencoded'],
    ] as const) {
      const res = await t.api('POST', '/v1/Usage', body, { 'content-type': type });
      assertRefused(res, 400, 'Error.Api.Request.Malformed', body);
    }
    const array = await t.api('POST', '/v1/Usage', []);
    assert.equal(array.status, 422);
  });

  it('refuses a body over 1 MB with 413', async () => {
    const res = await t.api('POST', '/v1/Usage', JSON.stringify({ pad: 'x'.repeat(1_100_000) }));
    assert.equal(res.status, 413);
  });
});

describe('Limitation features that cannot be bought', () => {
  it('refuses going above the included quantity of a non-updatable feature', async () => {
    const fixtures = defaultFixtures();
    const pro = fixtures.offers.find((o) => o.reference === 'pro');
    const seats = pro?.features.find((f) => f.reference === 'seats');
    if (!seats) throw new Error('fixture changed');
    seats.updatable = false;
    const t = await startTestSandbox({ fixtures });
    try {
      const within = await t.api(
        'POST',
        '/v1/Usage',
        usageBody('healthy', 'seats', { Increment: 2 }),
      );
      assert.equal(within.status, 200);
      const above = await t.api(
        'POST',
        '/v1/Usage',
        usageBody('healthy', 'seats', { Increment: 1 }),
      );
      assert.equal(above.status, 422);
      assert.equal(above.body[0].Code, 'Error.Api.Usage.QuantityOutOfRange');
      const sub = await t.api('GET', '/v1/Subscription?ReferenceCustomer=healthy');
      const feature = sub.body.Features.find(
        (f: { ReferenceFeature: string }) => f.ReferenceFeature === 'seats',
      );
      assert.equal(feature.Properties, 'None');
      assert.ok(link(sub.body, 'self').href);
    } finally {
      await t.close();
    }
  });
});

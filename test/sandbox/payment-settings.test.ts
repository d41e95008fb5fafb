// GET and POST /v1/CustomerSettingsPayment: how a customer pays, the grey list, the invoice note
// and the next billing date, and what the payment type changes in billing (charged as issued by
// card, or left due for a customer paying by transfer).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  assertRefused,
  basicAuth,
  link,
  quantityOf,
  usageBody,
  useTestSandbox,
} from './helpers.js';
import { findLink, GOOD_CARD, openPage, submit } from './hosted-pages.js';
import { startReceiver, type Receiver } from './webhook-helpers.js';

const path = (customer: string) =>
  `/v1/CustomerSettingsPayment?ReferenceCustomer=${encodeURIComponent(customer)}`;

describe('GET /v1/CustomerSettingsPayment', () => {
  const t = useTestSandbox();

  it('answers the settings of a customer paying by card', async () => {
    const res = await t.api('GET', path('healthy'));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      ReferenceCustomer: 'healthy',
      TypePayment: 'Card',
      IsGreyListed: false,
      NoteInvoice: null,
      DateNextBilling: '2026-12-01T00:00:00.000Z',
      IsPaymentMethodValid: true,
      IsCustomerBillable: true,
      IsPaymentAutomatic: true,
    });
  });

  it('tells a customer without a card, or without a subscription, apart', async () => {
    const noCard = (await t.api('GET', path('no-payment-method'))).body;
    assert.equal(noCard.TypePayment, 'Card');
    assert.equal(noCard.IsPaymentMethodValid, false);
    assert.equal(noCard.IsCustomerBillable, false);
    assert.equal(noCard.IsPaymentAutomatic, false);
    assert.equal((await t.api('GET', path('no-subscription'))).body.DateNextBilling, null);
    // A pending subscription is not billed yet.
    assert.equal((await t.api('GET', path('pending'))).body.DateNextBilling, null);
  });

  it('refuses an unknown or missing customer', async () => {
    assertRefused(await t.api('GET', path('ghost')), 404, 'Error.Customer.NotFound');
    const missing = await t.api('GET', '/v1/CustomerSettingsPayment');
    assert.equal(missing.status, 422);
    assert.equal(missing.body[0].Target, 'ReferenceCustomer');
  });
});

describe('POST /v1/CustomerSettingsPayment', () => {
  const t = useTestSandbox();
  const post = (customer: string, body: unknown) => t.api('POST', path(customer), body);
  const settings = async (customer: string) => (await t.api('GET', path(customer))).body;

  it('is a partial update: the fields given change, the others stay', async () => {
    const note = await post('healthy', { NoteInvoice: 'PO 4471' });
    assert.equal(note.status, 200, note.text);
    assert.equal(note.body.NoteInvoice, 'PO 4471');
    assert.equal(note.body.TypePayment, 'Card');
    const grey = await post('healthy', { IsGreyListed: true, NoteInvoice: null });
    assert.equal(grey.status, 200, grey.text);
    // null is "not given": the note stays.
    assert.deepEqual([grey.body.IsGreyListed, grey.body.NoteInvoice], [true, 'PO 4471']);
    const bank = await post('healthy', { TypePayment: 'ExternalBank' });
    assert.deepEqual(
      [bank.body.TypePayment, bank.body.IsGreyListed, bank.body.NoteInvoice],
      ['ExternalBank', true, 'PO 4471'],
    );
    assert.deepEqual(await settings('healthy'), bank.body);
    // '' clears the note; an empty object changes nothing.
    assert.equal((await post('healthy', { NoteInvoice: '' })).body.NoteInvoice, null);
    const same = await post('healthy', {});
    assert.equal(same.status, 200);
    assert.deepEqual(same.body, await settings('healthy'));
  });

  it('writing back what was read changes nothing, Card included', async () => {
    const card = await settings('healthy');
    const written = await post('healthy', {
      TypePayment: card.TypePayment,
      DateNextBilling: card.DateNextBilling,
    });
    assert.equal(written.status, 200, written.text);
    assert.deepEqual(written.body, card);
    await post('no-payment-method', { TypePayment: 'ExternalCheck', NoteInvoice: 'Cheque' });
    const read = await settings('no-payment-method');
    const { TypePayment, IsGreyListed, NoteInvoice, DateNextBilling } = read;
    const again = await post('no-payment-method', {
      TypePayment,
      IsGreyListed,
      NoteInvoice,
      DateNextBilling,
    });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body, read);
    // The same instant written another way is the same date.
    const offset = await post('no-payment-method', {
      DateNextBilling: '2026-12-01T01:00:00+01:00',
    });
    assert.equal(offset.status, 200, offset.text);
    assert.equal(offset.body.DateNextBilling, '2026-12-01T00:00:00.000Z');
  });

  it('refuses a bad field with a 422 naming it, and changes nothing', async () => {
    await post('healthy', { NoteInvoice: 'kept', TypePayment: 'ExternalBank' });
    const before = await settings('healthy');
    const subscriptionBefore = (await t.api('GET', '/v1/Subscription?ReferenceCustomer=healthy'))
      .body;
    const cases: [unknown, string, RegExp?][] = [
      [{ TypePayment: 'Card' }, 'TypePayment', /payment gateway/],
      [{ TypePayment: 'DirectDebit' }, 'TypePayment', /payment gateway/],
      [{ TypePayment: 'Bitcoin' }, 'TypePayment', /must be one of ExternalBank/],
      [{ TypePayment: 3 }, 'TypePayment'],
      [{ IsGreyListed: 'yes' }, 'IsGreyListed', /true or false/],
      [{ NoteInvoice: 'x'.repeat(1001) }, 'NoteInvoice', /at most 1000/],
      [{ NoteInvoice: 12 }, 'NoteInvoice'],
      [{ DateNextBilling: 'next month' }, 'DateNextBilling', /ISO 8601/],
      [{ DateNextBilling: '2026-12-15' }, 'DateNextBilling', /ISO 8601/],
      // The clock is at 2026-11-16.
      [{ DateNextBilling: '2026-11-10T00:00:00Z' }, 'DateNextBilling', /later than/],
      [{ DateNextBilling: '2026-11-16T00:00:00Z' }, 'DateNextBilling', /later than/],
      [{ DateNextBilling: '2027-11-17T00:00:00Z' }, 'DateNextBilling', /within a year/],
      [{ ModeBilling: 'Manual' }, 'ModeBilling', /one billing mode/],
      // A valid field beside a bad one is not applied either.
      [{ NoteInvoice: 'changed', TypePayment: 'Card' }, 'TypePayment'],
      [{ IsGreyListed: true, DateNextBilling: '2020-01-01T00:00:00Z' }, 'DateNextBilling'],
    ];
    for (const [body, target, message] of cases) {
      const res = await post('healthy', body);
      const label = JSON.stringify(body).slice(0, 60);
      assert.equal(res.status, 422, `${label}: ${res.text}`);
      assert.ok(Array.isArray(res.body), label);
      assert.equal(res.body[0].Code, 'Error.Api.Validation', label);
      assert.equal(res.body[0].Target, target, label);
      if (message) assert.match(res.body[0].Message, message, label);
    }
    // Several bad fields: one error each.
    const several = await post('healthy', { TypePayment: 'Cash', IsGreyListed: 1 });
    assert.deepEqual(several.body.map((e: { Target: string }) => e.Target).sort(), [
      'IsGreyListed',
      'TypePayment',
    ]);
    assert.equal((await post('healthy', 'not json')).status, 400);
    assert.equal((await post('healthy', [])).status, 422);
    assertRefused(
      await post('ghost', { TypePayment: 'ExternalBank' }),
      404,
      'Error.Customer.NotFound',
    );
    assert.deepEqual(await settings('healthy'), before);
    assert.deepEqual(
      (await t.api('GET', '/v1/Subscription?ReferenceCustomer=healthy')).body,
      subscriptionBefore,
    );
  });

  it('needs the credentials, and changes nothing without them', async () => {
    for (const authorization of [undefined, basicAuth('sandbox-agent', 'wrong')]) {
      const res = await fetch(`${t.sandbox.url}${path('healthy')}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify({ TypePayment: 'ExternalBank' }),
      });
      assert.equal(res.status, 401);
      assert.equal(
        ((await res.json()) as { Code: string }).Code,
        'Error.Api.Authentication.Failed',
      );
    }
    assert.equal((await settings('healthy')).TypePayment, 'Card');
  });

  it('logs and ignores an unknown field', async () => {
    const res = await post('healthy', { NoteInvoice: 'ok', Colour: 'blue' });
    assert.equal(res.status, 200);
    assert.ok(
      t.logs.some((line) =>
        /CustomerSettingsPayment: ignored unknown field\(s\) Colour/.test(line),
      ),
    );
  });
});

describe('what the payment type changes in billing', () => {
  const t = useTestSandbox();
  const post = (customer: string, body: unknown) => t.api('POST', path(customer), body);
  const lastInvoice = async (customer: string) => (await t.customer(customer)).invoices.at(-1);

  it('a customer paying by transfer may make a billable change without a card: the invoice waits to be paid', async () => {
    const refused = await t.api(
      'POST',
      '/v1/Pricing/Usage',
      usageBody('no-payment-method', 'seats', { Increment: 2 }),
    );
    assertRefused(refused, 403, 'Error.Customer.PaymentSettings.Missing');
    const bank = await post('no-payment-method', {
      TypePayment: 'ExternalBank',
      NoteInvoice: 'PO 12',
    });
    assert.deepEqual([bank.body.IsCustomerBillable, bank.body.IsPaymentAutomatic], [true, false]);
    const priced = await t.api(
      'POST',
      '/v1/Pricing/Usage',
      usageBody('no-payment-method', 'seats', { Increment: 2 }),
    );
    assert.equal(priced.status, 200, priced.text);
    // Seats 5 of 5 included, +2 at 10.00 for half the period.
    assert.equal(priced.body.AmountTotal, 1000);
    const applied = await t.api(
      'POST',
      '/v1/Usage',
      usageBody('no-payment-method', 'seats', { Increment: 2 }),
    );
    assert.equal(applied.status, 200, applied.text);
    assert.equal(await quantityOf(t, 'no-payment-method', 'seats'), 7);
    const invoice = await lastInvoice('no-payment-method');
    assert.equal(invoice.AmountTotal, 1000);
    assert.equal(invoice.StateInvoice, 'PaymentDue');
    assert.equal(invoice.TypePayment, 'ExternalBank');
    assert.equal(invoice.NoteLocalized, 'PO 12');
    const subscription = (
      await t.api('GET', '/v1/Subscription?ReferenceCustomer=no-payment-method')
    ).body;
    assert.equal(subscription.IsCustomerBillable, true);
  });

  it('the card on file is not charged for a customer paying by transfer, even at the payment limit', async () => {
    await post('healthy', { TypePayment: 'ExternalBank' });
    const applied = await t.api(
      'POST',
      '/v1/Usage',
      usageBody('healthy', 'seats', { Increment: 4 }),
    );
    assert.equal(applied.status, 200, applied.text);
    const invoice = await lastInvoice('healthy');
    assert.equal(invoice.StateInvoice, 'PaymentDue');
    assert.equal(invoice.TypePayment, 'ExternalBank');
    assert.equal(invoice.NoteLocalized, undefined);
    // Its payment limit passes: no collection from the card; it is overdue.
    await t.control('POST', '/clock', { advance: { days: 15 } });
    const after = await t.api('GET', `/v1/Invoice/${invoice.Id}`);
    assert.equal(after.body.StateInvoice, 'PaymentDue');
    // The business records the transfer.
    const paid = await t.control('POST', `/invoices/${invoice.Id}/pay`);
    assert.equal(paid.body.StateInvoice, 'Paid');
  });

  it('a card customer is charged as the invoice is issued, with TypePayment Card', async () => {
    await t.api('POST', '/v1/Usage', usageBody('discounted', 'seats', { Increment: 4 }));
    const invoice = await lastInvoice('discounted');
    assert.equal(invoice.StateInvoice, 'Paid');
    assert.equal(invoice.TypePayment, 'Card');
  });

  it('an invalid card suspends a card customer, not one paying by transfer', async () => {
    await post('healthy', { TypePayment: 'ExternalCash' });
    for (const customer of ['healthy', 'discounted']) {
      const res = await t.control('POST', `/customers/${customer}/payment-method`, {
        state: 'invalid',
      });
      assert.equal(res.status, 200, res.text);
    }
    const state = async (customer: string) =>
      (await t.api('GET', `/v1/Subscription?ReferenceCustomer=${customer}`)).body.StateSubscription;
    assert.equal(await state('healthy'), 'Running');
    assert.equal(await state('discounted'), 'SuspendedPaymentMethodInvalid');
  });

  it('a suspended customer who moves to transfers can be restarted without a card', async () => {
    const sub = (await t.api('GET', '/v1/Subscription?ReferenceCustomer=suspended')).body;
    assertRefused(
      await t.control('POST', `/subscriptions/${sub.Id}/restart`),
      403,
      'Error.Customer.PaymentSettings.Missing',
    );
    await post('suspended', { TypePayment: 'ExternalOther' });
    // Nothing restarts by itself.
    const still = (await t.api('GET', `/v1/Subscription/${sub.Id}`)).body;
    assert.equal(still.StateSubscription, 'SuspendedPaymentMethodInvalid');
    const restarted = await t.control('POST', `/subscriptions/${sub.Id}/restart`);
    assert.equal(restarted.status, 200, restarted.text);
    assert.equal(restarted.body.StateSubscription, 'Running');
  });

  it('a card saved on a hosted page makes the card the way the customer pays again', async () => {
    await post('no-payment-method', { TypePayment: 'ExternalBank' });
    const sub = (await t.api('GET', '/v1/Subscription?ReferenceCustomer=no-payment-method')).body;
    const portal = await openPage(link(sub, 'hosted-related-subscription').href ?? '');
    const register = await openPage(findLink(portal, 'Payment method'));
    assert.equal((await submit(register, GOOD_CARD)).status, 200);
    const after = (await t.api('GET', path('no-payment-method'))).body;
    assert.deepEqual(
      [after.TypePayment, after.IsPaymentMethodValid, after.IsPaymentAutomatic],
      ['Card', true, true],
    );
  });
});

describe('DateNextBilling', () => {
  const t = useTestSandbox();
  const post = (customer: string, body: unknown) => t.api('POST', path(customer), body);

  it('moves the end of the current period: the renewal and its invoice come then', async () => {
    const moved = await post('healthy', { DateNextBilling: '2026-12-15T00:00:00Z' });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.DateNextBilling, '2026-12-15T00:00:00.000Z');
    const sub = (await t.api('GET', '/v1/Subscription?ReferenceCustomer=healthy')).body;
    assert.equal(sub.DatePeriodEnd, '2026-12-15T00:00:00.000Z');
    assert.equal(sub.DateNextBilling, '2026-12-15T00:00:00.000Z');
    const invoicesBefore = (await t.customer('healthy')).invoices.length;
    // December 1 passes without a renewal.
    await t.control('POST', '/clock', { set: '2026-12-02T00:00:00Z' });
    assert.equal((await t.customer('healthy')).invoices.length, invoicesBefore);
    // Another customer renews as before.
    assert.equal(
      (await t.api('GET', '/v1/Subscription?ReferenceCustomer=discounted')).body.DatePeriodStart,
      '2026-12-01T00:00:00.000Z',
    );
    await t.control('POST', '/clock', { set: '2026-12-15T00:00:00Z' });
    const renewed = (await t.customer('healthy')).invoices.at(-1);
    assert.equal((await t.customer('healthy')).invoices.length, invoicesBefore + 1);
    assert.equal(renewed.DateIssue, '2026-12-15T00:00:00.000Z');
    assert.equal(renewed.AmountTotal, 4900);
    const next = (await t.api('GET', '/v1/Subscription?ReferenceCustomer=healthy')).body;
    assert.equal(next.DatePeriodStart, '2026-12-15T00:00:00.000Z');
    assert.equal(next.DatePeriodEnd, '2027-01-15T00:00:00.000Z');
  });

  it('moves every started subscription of the customer, not a custom one', async () => {
    await post('two-subscriptions', { DateNextBilling: '2026-11-20T00:00:00Z' });
    const subs = (await t.api('GET', '/v1/Subscriptions?ReferenceCustomer=two-subscriptions')).body
      .Items;
    assert.deepEqual(
      subs.map((s: { DatePeriodEnd: string }) => s.DatePeriodEnd),
      ['2026-11-20T00:00:00.000Z', '2026-11-20T00:00:00.000Z'],
    );
    await post('healthy', { DateNextBilling: '2026-11-20T00:00:00Z' });
    const healthy = (await t.api('GET', '/v1/Subscriptions?ReferenceCustomer=healthy')).body.Items;
    assert.deepEqual(
      healthy.map((s: { ReferenceOffer: string; DatePeriodEnd: string }) => [
        s.ReferenceOffer,
        s.DatePeriodEnd,
      ]),
      [
        ['pro', '2026-11-20T00:00:00.000Z'],
        ['enterprise', '2026-12-01T00:00:00.000Z'],
      ],
    );
  });

  it('refuses a customer with nothing to bill (404), and changes nothing else then', async () => {
    for (const customer of ['no-subscription', 'pending']) {
      const res = await post(customer, {
        DateNextBilling: '2026-12-15T00:00:00Z',
        NoteInvoice: 'not applied',
      });
      assertRefused(res, 404, 'Error.Subscription.NotFound', customer);
      assert.equal(res.body.Target, 'DateNextBilling');
      assert.equal((await t.api('GET', path(customer))).body.NoteInvoice, null);
    }
  });
});

describe('notifications of the payment settings', () => {
  let hook: Receiver;
  before(async () => {
    hook = await startReceiver();
  });
  const t = useTestSandbox(() => ({ webhooks: [{ url: hook.url, secret: 'settings-secret' }] }));
  after(() => hook.close());
  beforeEach(() => t.control('DELETE', '/webhooks/deliveries'));
  const post = (customer: string, body: unknown) => t.api('POST', path(customer), body);

  /** The TypeTrigger of each event notified since the last reset, oldest first. */
  async function notified(): Promise<string[]> {
    const answer = await t.control('GET', '/webhooks/deliveries');
    return answer.body.notifications
      .filter((record: { kind: string }) => record.kind === 'event')
      .map((record: { TypeTrigger: string }) => record.TypeTrigger);
  }

  it('notifies each change once, and nothing for what changes nothing', async () => {
    await post('healthy', { TypePayment: 'ExternalBank' });
    assert.deepEqual(await notified(), ['CustomerPaymentMethodUpdated']);
    await t.control('DELETE', '/webhooks/deliveries');
    await post('healthy', { NoteInvoice: 'PO 1', IsGreyListed: true });
    assert.deepEqual(await notified(), ['CustomerUpdated']);
    await t.control('DELETE', '/webhooks/deliveries');
    await post('healthy', { DateNextBilling: '2026-12-10T00:00:00Z' });
    assert.deepEqual(await notified(), ['SubscriptionDateTermUpdated']);
    await t.control('DELETE', '/webhooks/deliveries');
    const read = (await t.api('GET', path('healthy'))).body;
    await post('healthy', {
      TypePayment: read.TypePayment,
      NoteInvoice: read.NoteInvoice,
      IsGreyListed: read.IsGreyListed,
      DateNextBilling: read.DateNextBilling,
    });
    await post('healthy', { TypePayment: 'Card' });
    assert.deepEqual(await notified(), []);
  });
});

// Which changes the sandbox notifies, and the envelope of each family: every state change it
// makes (API, hosted pages, control API, the clock's catch-up) emits its event with the
// `Customer` block and the family's blocks, at the sandbox time it happened.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { NotificationEnvelopeSchema } from '../../src/contract/notifications.js';
import { link, usageBody, useTestSandbox } from './helpers.js';
import { findLink, GOOD_CARD, openPage, submit } from './hosted-pages.js';
import { startReceiver, type Receiver } from './webhook-helpers.js';
import { waitFor } from '../time.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- envelopes are read loosely
type Envelope = any;

describe('notifications: what is notified, and the envelope of each family', () => {
  let hook: Receiver;
  const seenIds = new Set<string>();
  before(async () => {
    hook = await startReceiver();
  });
  const t = useTestSandbox(() => ({ webhooks: [{ url: hook.url, secret: 'events-secret' }] }));
  after(() => hook.close());
  beforeEach(() => t.control('DELETE', '/webhooks/deliveries'));

  /**
   * The events notified since the last reset, oldest first, from the delivery log (written as
   * the change happens, so it is complete when the API has answered). Each is checked against
   * the envelope schema and the business's identity.
   */
  async function notified(): Promise<Envelope[]> {
    const answer = await t.control('GET', '/webhooks/deliveries');
    const events = answer.body.notifications
      .filter((record: { kind: string }) => record.kind === 'event')
      .map((record: { body: Envelope }) => record.body);
    for (const event of events) {
      NotificationEnvelopeSchema.parse(event);
      assert.equal(event.IdBusiness, 4242);
      assert.equal(event.IdSegment, 1);
      assert.equal(event.ReferenceSegment, 'main');
      seenIds.add(event.Id);
    }
    return events;
  }
  const types = (events: Envelope[]) => events.map((event) => event.TypeTrigger);
  const blocks = (event: Envelope) =>
    Object.keys(event)
      .filter((key) => /^[A-Z]/.test(key) && typeof event[key] === 'object')
      .sort();

  it('customers: added, updated only when something changed, billing address', async () => {
    const created = await t.api('POST', '/v1/Customer', {
      ReferenceCustomer: 'new-user',
      Name: 'Nora New',
      Email: 'nora@example.test',
      Language: 'fr',
    });
    assert.equal(created.status, 201);
    const [added] = await notified();
    assert.equal(added.TypeTrigger, 'CustomerAdded');
    assert.deepEqual(blocks(added), ['Customer']);
    assert.equal(added.Customer.ReferenceCustomer, 'new-user');
    assert.equal(added.Customer.Name, 'Nora New');
    assert.equal(added.Customer.Email, 'nora@example.test');
    assert.equal(added.Customer.Language, 'fr');
    assert.equal(added.Customer.Id, created.body.Id);
    assert.equal(added.Customer.Links, undefined, 'no links in a notification');
    assert.equal(added.DateTrigger, '2026-11-16T00:00:00.000Z');

    await t.api('POST', '/v1/Customer', { ReferenceCustomer: 'new-user', Name: 'Nora New' });
    assert.deepEqual(types(await notified()), ['CustomerAdded'], 'nothing changed');
    await t.api('POST', '/v1/Customer', { ReferenceCustomer: 'new-user', Name: 'Nora Renamed' });
    const updated = (await notified()).at(-1);
    assert.equal(updated.TypeTrigger, 'CustomerUpdated');
    assert.equal(updated.Customer.Name, 'Nora Renamed');

    const address = { City: 'Lyon', Country: 'FR' };
    await t.api('POST', '/v1/CustomerBillingAddress?ReferenceCustomer=new-user', address);
    await t.api('POST', '/v1/CustomerBillingAddress?ReferenceCustomer=new-user', address);
    assert.deepEqual(types(await notified()), [
      'CustomerAdded',
      'CustomerUpdated',
      'CustomerBillingAddressUpdated',
    ]);
  });

  it('payment method: GatewayPermission, and the suspension it causes as its own event', async () => {
    await t.control('POST', '/customers/healthy/payment-method', { state: 'invalid' });
    const [method, suspension] = await notified();
    assert.equal(method.TypeTrigger, 'CustomerPaymentMethodUpdated');
    assert.deepEqual(blocks(method), ['Customer', 'GatewayPermission']);
    assert.equal(method.GatewayPermission.StatePermission, 'Invalid');
    assert.equal(method.GatewayPermission.IsValid, false);
    assert.equal(method.GatewayPermission.ReferenceCustomer, 'healthy');
    assert.equal(method.Customer.IsPaymentMethodValid, false);
    assert.equal(suspension.TypeTrigger, 'SubscriptionSuspendedPaymentInfoMissing');
    assert.equal(suspension.Subscription.StateSubscription, 'SuspendedPaymentMethodInvalid');
    assert.equal(suspension.Subscription.Id, 1001);

    // The hosted register page: a card and an address saved by the customer.
    await t.control('DELETE', '/webhooks/deliveries');
    const sub = (await t.api('GET', '/v1/Subscription?ReferenceCustomer=no-payment-method')).body;
    const portal = await openPage(link(sub, 'hosted-related-subscription').href ?? '');
    const register = await openPage(findLink(portal, 'Payment method'));
    const form = { ...GOOD_CARD, name: 'Nadia Renamed', city: 'Lyon' };
    assert.equal((await submit(register, form)).status, 200);
    const saved = await notified();
    assert.deepEqual(types(saved).sort(), [
      'CustomerBillingAddressUpdated',
      'CustomerPaymentMethodUpdated',
      'CustomerUpdated',
    ]);
    const renamed = saved.find((event) => event.TypeTrigger === 'CustomerUpdated');
    assert.equal(renamed.Customer.Name, 'Nadia Renamed');
    const card = saved.find((event) => event.TypeTrigger === 'CustomerPaymentMethodUpdated');
    assert.equal(card.GatewayPermission.StatePermission, 'Valid');
    assert.equal(card.GatewayPermission.Label, 'Visa •••• 4242');
  });

  it('usage: SubscriptionFeaturesUpdated with CustomerBuyer, Offer and Subscription, and its invoice', async () => {
    const free = await t.api('POST', '/v1/Usage', usageBody('healthy', 'seats', { Increment: 1 }));
    assert.equal(free.status, 200);
    const [features] = await notified();
    assert.equal(features.TypeTrigger, 'SubscriptionFeaturesUpdated');
    for (const block of ['Customer', 'CustomerBuyer', 'Offer', 'Subscription']) {
      assert.equal(typeof features[block], 'object', block);
    }
    assert.equal(features.CustomerBuyer.ReferenceCustomer, 'healthy');
    assert.equal(features.Offer.ReferenceOffer, 'pro');
    assert.equal(features.Offer.AmountRecurrence, 4900);
    assert.equal(features.Subscription.Id, 1001);
    const seats = features.Subscription.Features.find(
      (feature: { ReferenceFeature: string }) => feature.ReferenceFeature === 'seats',
    );
    assert.equal(seats.QuantityCurrent, 4, 'the state after the change');

    // Billable: the invoice is its own notification, with the InvoiceDebit block, and the card
    // on file pays it at once.
    await t.api('POST', '/v1/Usage', usageBody('healthy', 'seats', { Increment: 3 }));
    const events = await notified();
    assert.deepEqual(types(events), [
      'SubscriptionFeaturesUpdated',
      'InvoiceDebitIssued',
      'InvoiceDebitPaid',
      'SubscriptionFeaturesUpdated',
    ]);
    const invoice = events[1];
    const issued = (await t.customer('healthy')).invoices.at(-1);
    assert.equal(invoice.InvoiceDebit.Id, issued.Id);
    assert.equal(invoice.InvoiceDebit.StateInvoice, 'PaymentDue');
    assert.equal(invoice.InvoiceDebit.AmountTotal, issued.AmountTotal);
    assert.equal(invoice.InvoiceDebit.IdSubscription, 1001);
    assert.equal(invoice.Subscription, undefined);

    // A refused change notifies nothing.
    const refused = await t.api(
      'POST',
      '/v1/Usage',
      usageBody('capping-reached', 'seats', { Increment: 1 }),
    );
    assert.equal(refused.status, 403);
    assert.equal((await notified()).length, 4);
  });

  it('subscriptions: started, upgraded, updated, suspended by the business, restarted', async () => {
    const created = await t.api('POST', '/v1/Subscription', {
      ReferenceCustomer: 'no-subscription',
      ReferenceOffer: 'starter',
    });
    assert.equal(created.status, 201);
    assert.deepEqual(await notified(), [], 'a pending subscription gives no rights yet');
    await t.control('POST', `/subscriptions/${created.body.Id}/complete`);
    const [started, firstInvoice] = await notified();
    assert.equal(started.TypeTrigger, 'SubscriptionStarted');
    assert.equal(started.Subscription.StateSubscription, 'Running');
    assert.equal(started.Offer.ReferenceOffer, 'starter');
    assert.equal(firstInvoice.TypeTrigger, 'InvoiceDebitIssued');

    await t.control('DELETE', '/webhooks/deliveries');
    const upgraded = await t.api('POST', '/v1/Subscription/1001/Upgrade?ReferenceOffer=business');
    assert.equal(upgraded.status, 200, upgraded.text);
    const [upgrade] = await notified();
    assert.equal(upgrade.TypeTrigger, 'SubscriptionUpgraded');
    assert.equal(upgrade.Offer.ReferenceOffer, 'business');
    assert.equal(upgrade.Subscription.ReferenceOffer, 'business');

    // A downgrade waits for the end of the period: the subscription is updated (scheduled).
    await t.control('DELETE', '/webhooks/deliveries');
    await t.api('POST', '/v1/Subscription/1001/Upgrade?ReferenceOffer=pro');
    const [scheduled] = await notified();
    assert.equal(scheduled.TypeTrigger, 'SubscriptionUpdated');
    assert.equal(scheduled.Subscription.ReferenceOfferAfterTerm, 'pro');

    await t.control('DELETE', '/webhooks/deliveries');
    await t.control('POST', '/subscriptions/1001/suspend');
    await t.control('POST', '/subscriptions/1001/suspend');
    await t.control('POST', '/subscriptions/1001/restart');
    const lifecycle = await notified();
    assert.deepEqual(types(lifecycle), ['SubscriptionSuspendedAgent', 'SubscriptionRestarted']);
    assert.equal(lifecycle[0].Subscription.StateSubscription, 'SuspendedByBusiness');
    assert.equal(lifecycle[1].Subscription.StateSubscription, 'Running');
  });

  it('invoices: paid through the control API and on the hosted charge page', async () => {
    // An invoice the card on file failed to pay (the fixture's overdue ones).
    const invoice = (await t.customer('capping-reached')).invoices[1];
    await t.control('DELETE', '/webhooks/deliveries');
    await t.control('POST', `/invoices/${invoice.Id}/pay`);
    await t.control('POST', `/invoices/${invoice.Id}/pay`);
    const [paid, ...rest] = await notified();
    assert.equal(rest.length, 0, 'paying a paid invoice notifies nothing');
    assert.equal(paid.TypeTrigger, 'InvoiceDebitPaid');
    assert.equal(paid.InvoiceDebit.Id, invoice.Id);
    assert.equal(paid.InvoiceDebit.StateInvoice, 'Paid');

    // The customer pays an overdue invoice on the hosted page.
    await t.control('DELETE', '/webhooks/deliveries');
    const overdue = (await t.customer('capping-reached')).invoices[0];
    const page = await openPage(
      link((await t.api('GET', `/v1/Invoice/${overdue.Id}`)).body, 'hosted-charge').href ?? '',
    );
    assert.equal((await submit(page)).status, 200);
    const [hostedPaid] = await notified();
    assert.equal(hostedPaid.TypeTrigger, 'InvoiceDebitPaid');
    assert.equal(hostedPaid.Customer.ReferenceCustomer, 'capping-reached');
    assert.equal(hostedPaid.InvoiceDebit.Id, overdue.Id);
  });

  it('the clock: renewals, collections and suspensions, each at the time it happened', async () => {
    // Nov 16 -> Jan 16: two renewals (Dec 1, Jan 1), each charged to the card at once; without
    // a card, two failed collections at the payment limits (Dec 15, Jan 15).
    await t.control('POST', '/clock', { advance: { months: 2 } });
    const events = await notified();
    const of = (customer: string) =>
      events
        .filter((event) => event.Customer.ReferenceCustomer === customer)
        .map((event) => `${event.DateTrigger.slice(0, 10)} ${event.TypeTrigger}`);
    assert.deepEqual(of('healthy'), [
      '2026-12-01 SubscriptionDateTermUpdated',
      '2026-12-01 InvoiceDebitIssued',
      '2026-12-01 InvoiceDebitPaid',
      '2027-01-01 SubscriptionDateTermUpdated',
      '2027-01-01 InvoiceDebitIssued',
      '2027-01-01 InvoiceDebitPaid',
    ]);
    // No card: each collection fails; the second overdue invoice reaches the capping.
    assert.deepEqual(of('no-payment-method'), [
      '2026-12-01 SubscriptionDateTermUpdated',
      '2026-12-01 InvoiceDebitIssued',
      '2026-12-15 CustomerChargingFailed',
      '2027-01-01 SubscriptionDateTermUpdated',
      '2027-01-01 InvoiceDebitIssued',
      '2027-01-15 CustomerChargingFailed',
      '2027-01-15 SubscriptionSuspendedPaymentDue',
    ]);
    const term = events.find((event) => event.TypeTrigger === 'SubscriptionDateTermUpdated');
    assert.deepEqual(blocks(term), ['Customer'], 'the Customer block only');
    const suspension = events.find(
      (event) => event.TypeTrigger === 'SubscriptionSuspendedPaymentDue',
    );
    assert.equal(suspension.Subscription.StateSubscription, 'SuspendedPaymentDue');
  });

  it('a reset notifies nothing; every notification has its own Id and reaches the receiver', async () => {
    await t.api('POST', '/v1/Usage', usageBody('healthy', 'seats', { Increment: 1 }));
    const [event] = await notified();
    await t.control('POST', '/reset');
    assert.equal((await notified()).length, 1, 'the reset sent nothing');
    await waitFor(
      () => hook.events().some((body) => body.Id === event.Id),
      'the receiver to get the notification',
    );
    const received = hook.events().find((body) => body.Id === event.Id);
    assert.deepEqual(received, event);
    const allIds = hook.events().map((body) => body.Id);
    assert.equal(new Set(allIds).size, allIds.length, 'no Id twice');
    assert.ok(seenIds.size > 20, `${seenIds.size} notifications checked`);
  });
});

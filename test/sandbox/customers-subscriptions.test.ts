import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CustomerSchema, SubscriptionSchema } from '../../src/contract/index.js';
import { assertRefused, link, rels, useTestSandbox } from './helpers.js';
import { openPage } from './hosted-pages.js';

describe('customers (endpoints 1-3)', () => {
  const t = useTestSandbox();

  const newCustomer = {
    ReferenceCustomer: 'new-1',
    Name: 'Nina New',
    Email: 'nina@example.com',
    ReferenceSegment: 'main',
  };

  it('creates a customer once: repeating the call updates it instead of duplicating it', async () => {
    const first = await t.api('POST', '/v1/customer', newCustomer);
    assert.equal(first.status, 201, first.text);
    CustomerSchema.parse(first.body);
    const again = await t.api('POST', '/v1/Customer', { ...newCustomer, Name: 'Other' });
    assert.equal(again.status, 200);
    assert.equal(again.body.Id, first.body.Id);
    assert.equal(again.body.Name, 'Other');
    const state = await t.customer('new-1');
    assert.equal(state.paymentMethod, 'absent');
    assert.deepEqual(state.subscriptions, []);
  });

  it('validates the creation body and the segment', async () => {
    const bad = await t.api('POST', '/v1/Customer', {
      ReferenceCustomer: '',
      Name: 'x',
      Email: 'not-an-email',
    });
    assert.equal(bad.status, 422);
    // ReferenceSegment may be left out: the business has one segment.
    assert.deepEqual(bad.body.map((e: { Target: string }) => e.Target).sort(), [
      'Email',
      'ReferenceCustomer',
    ]);
    const segment = await t.api('POST', '/v1/Customer', {
      ...newCustomer,
      ReferenceSegment: 'other',
    });
    assert.equal(segment.status, 422);
    assert.equal(segment.body[0].Target, 'ReferenceSegment');
    assert.equal((await t.api('GET', '/v1/Customer?ReferenceCustomer=new-1')).status, 404);
  });

  it('stores a billing address', async () => {
    const address = {
      Company: 'Acme',
      FirstName: 'Nadia',
      LastName: 'N',
      AddressLine1: '1 rue X',
      ZipCode: '75001',
      City: 'Paris',
      Country: 'FR',
      TaxInformation: 'FR123',
    };
    const res = await t.api(
      'POST',
      '/v1/CustomerBillingAddress?ReferenceCustomer=no-payment-method',
      address,
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual((await t.customer('no-payment-method')).billingAddress, address);
    const bad = await t.api(
      'POST',
      '/v1/CustomerBillingAddress?ReferenceCustomer=no-payment-method',
      { Country: 'France' },
    );
    assert.equal(bad.status, 422);
    assert.equal(bad.body[0].Target, 'Country');
    const unknown = await t.api(
      'POST',
      '/v1/CustomerBillingAddress?ReferenceCustomer=ghost',
      address,
    );
    assert.equal(unknown.status, 404);
    const missing = await t.api('POST', '/v1/CustomerBillingAddress', address);
    assert.equal(missing.status, 422);
  });

  it('returns the customer with insite links; ReferenceOffer opens that offer', async () => {
    const res = await t.api('GET', '/v1/Customer?ReferenceCustomer=healthy');
    assert.equal(res.status, 200);
    CustomerSchema.parse(res.body);
    assert.deepEqual(rels(res.body), [
      'insite-collection-offers',
      'insite-collection-upgrade',
      'insite-home',
      'insite-register',
      'insite-subscribe',
      'self',
    ]);
    assert.equal(link(res.body, 'insite-home').href, `${t.sandbox.url}/insite`);
    for (const rel of [
      'insite-collection-offers',
      'insite-register',
      'insite-collection-upgrade',
      'insite-subscribe',
    ]) {
      assert.match(link(res.body, rel).query ?? '', /^[A-Za-z0-9_-]{40,}$/, rel);
      assert.equal(link(res.body, rel).href, undefined);
    }
    const withOffer = await t.api(
      'GET',
      '/v1/Customer?ReferenceCustomer=no-subscription&ReferenceOffer=business',
    );
    const query = link(withOffer.body, 'insite-subscribe').query ?? '';
    // The in-site page opens the subscribe workflow of that offer.
    const page = await openPage(`${t.sandbox.url}/insite?pa_query=${query}`);
    assert.equal(page.status, 200);
    assert.match(page.html, /ServicePortal\.open/);
    const opened = await fetch(
      `${t.sandbox.url}/portal/open?${new URLSearchParams({
        business_id: '4242',
        segment_ref: 'main',
        customer_ref: 'no-subscription',
        query,
        hash: (await import('../../src/sandbox/index.js')).portalHash(
          'no-subscription',
          'sandbox-portal-secret',
        ),
      })}`,
    ).then((r) => r.json());
    assert.equal(opened.page, 'subscribe');
    const subscribe = await openPage(opened.url);
    assert.match(subscribe.html, /<h2 id="offer-title">Business<\/h2>/);
    const unknownOffer = await t.api(
      'GET',
      '/v1/Customer?ReferenceCustomer=healthy&ReferenceOffer=gold',
    );
    assertRefused(unknownOffer, 404, 'Error.Offer.NotFound');
  });
});

describe('subscriptions (endpoints 4-11)', () => {
  const t = useTestSandbox();

  it('creates a pending subscription with a hosted-subscribe link; it starts on the hosted page', async () => {
    const res = await t.api('POST', '/v1/Subscription', {
      ReferenceCustomer: 'no-subscription',
      ReferenceOffer: 'starter',
    });
    assert.equal(res.status, 201, res.text);
    SubscriptionSchema.parse(res.body);
    assert.equal(res.body.StateSubscription, 'PendingSubscription');
    assert.equal(res.body.ReferenceOffer, 'starter');
    assert.equal(res.body.IdOffer, 101);
    assert.equal(res.body.AmountRecurrence, 1900);
    const href = link(res.body, 'hosted-subscribe').href ?? '';
    assert.ok(href.startsWith(`${t.sandbox.hostedUrl}/subscribe/`), href);
    // Repeating the creation returns the same pending subscription.
    const again = await t.api('POST', '/v1/Subscription', {
      ReferenceCustomer: 'no-subscription',
      ReferenceOffer: 'starter',
    });
    assert.equal(again.body.Id, res.body.Id);
    const byCustomer = await t.api('GET', '/v1/Subscription?ReferenceCustomer=no-subscription');
    assert.equal(byCustomer.body.Id, res.body.Id);
  });

  it('refuses unknown customers and offers', async () => {
    const customer = await t.api('POST', '/v1/Subscription', {
      ReferenceCustomer: 'ghost',
      ReferenceOffer: 'pro',
    });
    assertRefused(customer, 404, 'Error.Customer.NotFound');
    const offer = await t.api('POST', '/v1/Subscription', {
      ReferenceCustomer: 'healthy',
      ReferenceOffer: 'gold',
    });
    assertRefused(offer, 404, 'Error.Offer.NotFound');
    const body = await t.api('POST', '/v1/Subscription', { ReferenceCustomer: 'healthy' });
    assert.equal(body.status, 422);
  });

  it('GET by id carries the links of its state', async () => {
    const running = await t.api('GET', '/v1/Subscription/1001');
    assert.equal(running.status, 200);
    SubscriptionSchema.parse(running.body);
    assert.equal(running.body.StateSubscription, 'Running');
    assert.deepEqual(rels(running.body), [
      'hosted-related-subscription',
      'hosted-upgrade',
      'insite-related-subscription',
      'insite-upgrade',
      'self',
    ]);
    assert.equal(running.body.IsPaymentCappingReached, false);
    assert.equal(running.body.TitleLocalized, 'Pro');
    assert.equal(running.body.AmountRecurrence, 4900);
    assert.equal(running.body.UnitRecurrence, 'Month');
    assert.equal(running.body.DurationRecurrence, 1);
    assert.equal(running.body.Features.length, 5);

    const suspended = await t.api('GET', '/v1/Subscription?ReferenceCustomer=suspended');
    assert.equal(suspended.body.StateSubscription, 'SuspendedPaymentMethodInvalid');
    assert.ok(rels(suspended.body).includes('hosted-restart'));
    assert.ok(rels(suspended.body).includes('insite-restart'));
    assert.ok(!rels(suspended.body).includes('hosted-upgrade'));

    const capped = await t.api('GET', '/v1/Subscription?ReferenceCustomer=capping-reached');
    assert.equal(capped.body.StateSubscription, 'SuspendedPaymentDue');
    assert.equal(capped.body.IsPaymentCappingReached, true);
    assert.ok(rels(capped.body).includes('hosted-restart'));
    // Its two unpaid invoices are linked, each readable at its href.
    const invoiceLinks = capped.body.Links.filter(
      (l: { rel: string }) => l.rel === 'related-invoice',
    );
    assert.equal(invoiceLinks.length, 2);
    for (const { href } of invoiceLinks) {
      const invoice = await t.api('GET', new URL(href).pathname);
      assert.equal(invoice.body.StateInvoice, 'PaymentDue');
      assert.equal(invoice.body.ReferenceCustomer, 'capping-reached');
    }
    assert.ok(!rels(running.body).includes('related-invoice'));

    const pending = await t.api('GET', '/v1/Subscription?ReferenceCustomer=pending');
    assert.equal(pending.body.StateSubscription, 'PendingSubscription');
    assert.ok(rels(pending.body).includes('hosted-subscribe'));

    const french = await t.api('GET', '/v1/Subscription/1001?Language=fr');
    assert.equal(french.body.Features[0].TitleLocalized, 'Sièges');
  });

  it('answers 404 for unknown subscriptions and customers without one', async () => {
    const unknown = await t.api('GET', '/v1/Subscription/999999');
    assertRefused(unknown, 404, 'Error.Subscription.NotFound');
    const none = await t.api('GET', '/v1/Subscription?ReferenceCustomer=no-subscription');
    assertRefused(none, 404, 'Error.Subscription.NotFound');
    const bad = await t.api('GET', '/v1/Subscription/abc');
    assert.equal(bad.status, 422);
  });

  it('returns a targeted custom subscription with hosted-upgrade, hosted-conclude and hosted-register', async () => {
    const state = await t.customer('healthy');
    const custom = state.subscriptions.find((s: { custom: boolean }) => s.custom);
    const res = await t.api('GET', `/v1/Subscription/${custom.Id}/?IdSubscriptionToUpgrade=1001`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.ReferenceOffer, 'enterprise');
    assert.ok(res.body.Features.length > 0);
    assert.ok(Array.isArray(res.body.Discounts));
    for (const rel of ['hosted-upgrade', 'hosted-conclude', 'hosted-register'])
      assert.ok(link(res.body, rel).href, rel);
    const other = await t.api('GET', `/v1/Subscription/${custom.Id}/?IdSubscriptionToUpgrade=1003`);
    assert.equal(other.status, 422);
  });

  it('switches to a custom subscription instantly (endpoint 8), charging the prorated difference', async () => {
    const state = await t.customer('healthy');
    const custom = state.subscriptions.find((s: { custom: boolean }) => s.custom);
    // Pro 4900 -> Enterprise 49900: (49900 - 4900) x 15/30 = 22500.
    const res = await t.api('POST', `/v1/Subscription/1001/Upgrade?IdSubscription=${custom.Id}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.ReferenceOffer, 'enterprise');
    assert.equal(res.body.StateSubscription, 'Running');
    assert.equal(res.body.AmountChargedNow, 22500);
    const invoice = await t.api('GET', `/v1/Invoice/${res.body.IdInvoice}`);
    assert.equal(invoice.body.AmountTotal, 22500);
    const after = await t.customer('healthy');
    assert.equal(
      after.subscriptions.find((s: { Id: number }) => s.Id === custom.Id).StateSubscription,
      'Ended',
    );
    // Quantities carry over.
    const usages = await t.api(
      'GET',
      '/v1/Usages?ReferenceCustomer=healthy&ReferenceFeature=seats',
    );
    assert.deepEqual(
      [usages.body.Items[0].QuantityCurrent, usages.body.Items[0].QuantityIncluded],
      [3, -1],
    );
  });

  it('switches to an offer instantly (endpoint 9), prorating after discounts', async () => {
    // healthy: Pro 4900 -> Business 19900: (19900 - 4900) x 1/2 = 7500.
    const res = await t.api('POST', '/v1/Subscription/1001/Upgrade?ReferenceOffer=business');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.ReferenceOffer, 'business');
    assert.equal(res.body.AmountChargedNow, 7500);
    // discounted: 20 % off: 3920 -> 15920: 12000 x 1/2 = 6000.
    const discounted = await t.api('GET', '/v1/Subscription?ReferenceCustomer=discounted');
    const down = await t.api(
      'POST',
      `/v1/Subscription/${discounted.body.Id}/Upgrade?ReferenceOffer=business`,
    );
    assert.equal(down.body.AmountChargedNow, 6000);
    // A downgrade charges nothing; the same offer is a no-op.
    // A downgrade charges nothing and waits for the end of the period (upgrade-quote tests).
    const starter = await t.api('POST', '/v1/Subscription/1001/Upgrade?ReferenceOffer=starter');
    assert.equal(starter.body.AmountChargedNow, 0);
    assert.equal(starter.body.IdInvoice, null);
    assert.equal(starter.body.ReferenceOffer, 'business');
    assert.equal(starter.body.ReferenceOfferAfterTerm, 'starter');
    // The current offer again is a no-op that cancels the scheduled change.
    const same = await t.api('POST', '/v1/Subscription/1001/Upgrade?ReferenceOffer=business');
    assert.equal(same.status, 200);
    assert.equal(same.body.AmountChargedNow, 0);
    assert.equal(same.body.ReferenceOfferAfterTerm, undefined);
  });

  it('refuses an upgrade that the state or the payment method does not allow, changing nothing', async () => {
    const cases: [string, number, string][] = [
      ['no-payment-method', 403, 'Error.Customer.PaymentSettings.Missing'],
      ['capping-reached', 403, 'Error.Customer.Billing.CappingReached'],
      ['suspended', 403, 'Error.Subscription.NotActive'],
    ];
    for (const [customer, status, code] of cases) {
      const sub = await t.api('GET', `/v1/Subscription?ReferenceCustomer=${customer}`);
      const before = await t.customer(customer);
      const res = await t.api(
        'POST',
        `/v1/Subscription/${sub.body.Id}/Upgrade?ReferenceOffer=business`,
      );
      assert.equal(res.status, status, customer);
      assert.equal(res.body.Code, code);
      assert.deepEqual(await t.customer(customer), before);
    }
    const both = await t.api(
      'POST',
      '/v1/Subscription/1001/Upgrade?ReferenceOffer=business&IdSubscription=1002',
    );
    assert.equal(both.status, 422);
    const neither = await t.api('POST', '/v1/Subscription/1001/Upgrade');
    assert.equal(neither.status, 422);
    const unknownOffer = await t.api('POST', '/v1/Subscription/1001/Upgrade?ReferenceOffer=gold');
    assert.equal(unknownOffer.status, 404);
    const notCustom = await t.api('POST', '/v1/Subscription/1001/Upgrade?IdSubscription=1003');
    assert.equal(notCustom.status, 422);
  });

  it('previews a subscription on another offer with a hosted-upgrade link (endpoint 10)', async () => {
    const res = await t.api('GET', '/v1/Subscription/1001/Upgrade?ReferenceOffer=business');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.ReferenceOffer, 'business');
    assert.equal(res.body.AmountRecurrence, 19900);
    const seats = res.body.Features.find(
      (f: { ReferenceFeature: string }) => f.ReferenceFeature === 'seats',
    );
    assert.deepEqual([seats.QuantityCurrent, seats.QuantityIncluded], [3, -1]);
    assert.ok(link(res.body, 'hosted-upgrade').href);
    // Nothing changed.
    assert.equal((await t.api('GET', '/v1/Subscription/1001')).body.ReferenceOffer, 'pro');
  });

  it('the hosted upgrade table lists every switchable offer, the visible grid included (11)', async () => {
    const sub = await t.api('GET', '/v1/Subscription/1001');
    const page = await openPage(link(sub.body, 'hosted-upgrade').href ?? '');
    assert.equal(page.status, 200);
    for (const title of ['Starter', 'Pro', 'Business', 'Enterprise', 'Custom offer: Enterprise']) {
      assert.match(page.html, new RegExp(`<th scope="row">${title}`), title);
    }
    assert.match(page.html, /Current plan/);
  });
});

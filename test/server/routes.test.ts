import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBillingProxy, portalHash, type BillingProxy } from '../../src/server/index.js';
import {
  call,
  control,
  proxyOptions,
  serviceCall,
  type RunningSandbox,
  useSandbox,
} from './helpers.js';

/** A purchase of one project (within the plan: free), under `idempotencyKey`. */
function freeProject(idempotencyKey: string) {
  return { feature: 'projects', increment: 1, idempotencyKey, confirmedAmountTotal: 0 };
}

describe('proxy routes against the sandbox', () => {
  let sandbox: RunningSandbox;
  let proxy: BillingProxy;

  useSandbox((started) => {
    sandbox = started;
    proxy = createBillingProxy(proxyOptions(sandbox));
  });

  describe('GET /usages', () => {
    it('lists every feature of the signed-in customer', async () => {
      const { status, body, headers } = await call(proxy, '/usages');
      assert.equal(status, 200);
      assert.equal(headers.get('cache-control'), 'no-store');
      const seats = body.usages.find(
        (usage: { ReferenceFeature: string }) => usage.ReferenceFeature === 'seats',
      );
      assert.equal(seats.QuantityCurrent, 3);
      assert.equal(seats.QuantityIncluded, 5);
      assert.deepEqual(
        body.usages.map((usage: { ReferenceFeature: string }) => usage.ReferenceFeature).sort(),
        ['api-calls', 'priority-support', 'projects', 'seats', 'sso'],
      );
      assert.ok(
        body.usages.every(
          (usage: { ReferenceCustomer: string }) => usage.ReferenceCustomer === 'healthy',
        ),
      );
    });

    it('shows unlimited access as QuantityIncluded -1', async () => {
      const { body } = await call(proxy, '/usages', { customer: 'unlimited' });
      const seats = body.usages.find(
        (usage: { ReferenceFeature: string }) => usage.ReferenceFeature === 'seats',
      );
      assert.equal(seats.QuantityIncluded, -1);
    });

    it('answers an empty list for a customer without subscription', async () => {
      const { status, body } = await call(proxy, '/usages', { customer: 'no-subscription' });
      assert.equal(status, 200);
      assert.deepEqual(body, { usages: [] });
    });

    it('creates an unknown customer upstream (ensureCustomer) and answers an empty list', async () => {
      const { status, body } = await call(proxy, '/usages', { customer: 'new-user-1' });
      assert.equal(status, 200);
      assert.deepEqual(body, { usages: [] });
      const state = await control(sandbox).customer('new-user-1');
      assert.equal(state.customer.email ?? state.customer.Email, 'new-user-1@example.test');
    });

    it('does not create the customer when ensureCustomer is false', async () => {
      const strict = createBillingProxy(proxyOptions(sandbox, { ensureCustomer: false }));
      const { status, body } = await call(strict, '/usages', { customer: 'new-user-2' });
      assert.equal(status, 200);
      assert.deepEqual(body, { usages: [] });
      await assert.rejects(control(sandbox).customer('new-user-2'));
    });

    it('merges every page of the upstream list (SizePage 1000) in one call', async () => {
      const counted = { pages: 0 };
      const counting = createBillingProxy(
        proxyOptions(sandbox, {
          fetch: async (input, init) => {
            const url = new URL(String(input));
            if (url.pathname === '/v1/Usages') {
              counted.pages += 1;
              assert.equal(url.searchParams.get('SizePage'), '1000');
              assert.equal(url.searchParams.get('Page'), '1');
            }
            return fetch(input, init);
          },
        }),
      );
      const { body } = await call(counting, '/usages');
      assert.equal(body.usages.length, 5);
      assert.equal(counted.pages, 1);
    });
  });

  describe('POST /pricing', () => {
    it('prices a billable change with NextTerm', async () => {
      const { status, body } = await call(proxy, '/pricing', {
        body: { feature: 'seats', increment: 3 },
      });
      assert.equal(status, 200);
      assert.equal(body.ReferenceCustomer, 'healthy');
      assert.equal(body.ReferenceFeature, 'seats');
      assert.ok(body.AmountTotal > 0, 'one seat over the included five is billable');
      assert.equal(typeof body.PricingLocalized, 'string');
      assert.equal(typeof body.NextTerm.AmountTotal, 'number');
    });

    it('prices 0 for unlimited access', async () => {
      const { body } = await call(proxy, '/pricing', {
        customer: 'unlimited',
        body: { feature: 'seats', increment: 10 },
      });
      assert.equal(body.AmountTotal, 0);
    });

    it('applies the discount', async () => {
      const plain = await call(proxy, '/pricing', { body: { feature: 'seats', increment: 3 } });
      const discounted = await call(proxy, '/pricing', {
        customer: 'discounted',
        body: { feature: 'seats', increment: 3 },
      });
      // 20 % off, computed by the service on the unrounded prorated amount: within a hundredth.
      assert.ok(plain.body.AmountTotal > 0);
      assert.ok(
        Math.abs(discounted.body.AmountTotal - plain.body.AmountTotal * 0.8) <= 1,
        `${discounted.body.AmountTotal} is 80 % of ${plain.body.AmountTotal}`,
      );
    });

    it('localizes with the browser language', async () => {
      const { body } = await call(proxy, '/pricing', {
        body: { feature: 'seats', increment: 3 },
        headers: { 'accept-language': 'fr-FR,fr;q=0.9' },
      });
      assert.match(body.PricingLocalized, /\$|US/);
      assert.notEqual(
        body.LabelLocalized,
        (await call(proxy, '/pricing', { body: { feature: 'seats', increment: 3 } })).body
          .LabelLocalized,
      );
    });
    it('localizes with the page language (Content-Language) before the customer’s', async () => {
      // The customer speaks English, the page is French.
      const english = createBillingProxy(
        proxyOptions(sandbox, {
          identify: () => ({ reference: 'healthy', language: 'en-GB' }),
        }),
      );
      const asked = { body: { feature: 'seats', increment: 3 } };
      const customers = await call(english, '/pricing', asked);
      const pages = await call(english, '/pricing', {
        ...asked,
        headers: { 'content-language': 'fr' },
      });
      assert.equal(customers.body.LabelLocalized, 'Due now');
      assert.notEqual(pages.body.LabelLocalized, customers.body.LabelLocalized);
      assert.match(pages.body.Details[0].LabelLocalized, /Sièges/);
    });
  });

  describe('POST /usage', () => {
    it('applies a confirmed purchase once and replays it for the same key', async () => {
      const price = await call(proxy, '/pricing', { body: { feature: 'seats', increment: 3 } });
      const purchase = {
        feature: 'seats',
        increment: 3,
        idempotencyKey: 'route-test-key-0001',
        confirmedAmountTotal: price.body.AmountTotal,
      };
      const first = await call(proxy, '/usage', { body: purchase });
      assert.equal(first.status, 200);
      assert.equal(first.body.replayed, false);
      assert.equal(first.body.amountTotal, price.body.AmountTotal);
      assert.equal(first.body.usage.ReferenceFeature, 'seats');
      assert.equal(first.body.usage.QuantityCurrent, 6);
      const second = await call(proxy, '/usage', { body: purchase });
      assert.equal(second.status, 200);
      assert.equal(second.body.replayed, true);
      assert.deepEqual(second.body.usage, first.body.usage);
      const state = await control(sandbox).customer('healthy');
      assert.equal(state.usageLog.length, 1);
      const usages = await call(proxy, '/usages');
      assert.equal(
        usages.body.usages.find(
          (usage: { ReferenceFeature: string }) => usage.ReferenceFeature === 'seats',
        ).QuantityCurrent,
        6,
      );
    });

    it('refuses a key reused for a different purchase with 422', async () => {
      const purchase = freeProject('route-test-key-0002');
      assert.equal((await call(proxy, '/usage', { body: purchase })).status, 200);
      const reused = await call(proxy, '/usage', { body: { ...purchase, increment: 2 } });
      assert.equal(reused.status, 422);
      assert.equal(reused.body.code, 'idempotency-key-reused');
    });

    it('scopes keys to the customer: the same key of another customer is another purchase', async () => {
      const purchase = freeProject('route-test-key-0003');
      const mine = await call(proxy, '/usage', { body: purchase });
      const theirs = await call(proxy, '/usage', { customer: 'discounted', body: purchase });
      assert.equal(mine.body.replayed, false);
      assert.equal(theirs.status, 200);
      assert.equal(theirs.body.replayed, false);
      assert.equal(theirs.body.usage.ReferenceCustomer, 'discounted');
    });
  });

  describe('GET /portal and GET /links', () => {
    it('gives ServicePortal.open its parameters with the HMAC hash', async () => {
      const { status, body } = await call(proxy, '/portal?page=home');
      assert.equal(status, 200);
      assert.equal(body.scriptUrl, sandbox.portalScriptUrl);
      assert.equal(body.hostedOrigin, new URL(sandbox.hostedUrl).origin);
      assert.equal(body.params.business_id, sandbox.businessId);
      assert.equal(body.params.segment_ref, sandbox.segment);
      assert.equal(body.params.customer_ref, 'healthy');
      assert.ok(body.params.query.length > 10);
      assert.equal(body.params.hash, await portalHash('healthy', sandbox.portalSecret));
      assert.match(body.params.hash, /^[0-9a-f]{64}$/);
    });

    it('opens every page from the right Links, and distinct pages give distinct queries', async () => {
      const queries = new Map<string, string>();
      for (const [page, customer] of [
        ['home', 'healthy'],
        ['offers', 'no-subscription'],
        ['subscribe&offer=business', 'no-subscription'],
        ['register', 'no-payment-method'],
        ['change-plan', 'healthy'],
        ['change-plan&offer=business', 'healthy'],
        ['restart', 'suspended'],
        ['subscribe', 'pending'],
        ['pay-invoice', 'capping-reached'],
      ] as const) {
        const { status, body } = await call(proxy, `/portal?page=${page}`, { customer });
        assert.equal(status, 200, `${page}: ${JSON.stringify(body)}`);
        assert.equal(body.params.customer_ref, customer);
        queries.set(`${page}/${customer}`, body.params.query);
      }
      assert.equal(new Set(queries.values()).size, queries.size);
    });

    it('never opens a second subscription: a started one is changed, a pending one completed', async () => {
      const changePlan = await call(proxy, '/portal?page=change-plan', { customer: 'healthy' });
      for (const customer of ['healthy', 'suspended']) {
        const refused = await call(proxy, '/portal?page=subscribe&offer=business', { customer });
        assert.equal(refused.status, 409, customer);
        assert.equal(refused.body.code, 'already-subscribed');
      }
      // The catalogue, which would sell an extra subscription, becomes the change of plan.
      const offers = await call(proxy, '/portal?page=offers', { customer: 'healthy' });
      assert.equal(offers.status, 200);
      assert.equal(offers.body.params.query, changePlan.body.params.query);

      const other = await call(proxy, '/portal?page=subscribe&offer=business', {
        customer: 'pending',
      });
      assert.equal(other.status, 409);
      assert.equal(other.body.code, 'subscription-pending');
      const draft = await call(proxy, '/portal?page=subscribe', { customer: 'pending' });
      const same = await call(proxy, '/portal?page=subscribe&offer=pro', { customer: 'pending' });
      assert.equal(same.status, 200);
      assert.equal(same.body.params.query, draft.body.params.query);
    });

    it('reads the subscription again before a subscribe: one started meanwhile is seen', async () => {
      const customer = 'no-subscription';
      const first = await call(proxy, '/portal?page=subscribe&offer=pro', { customer });
      assert.equal(first.status, 200);
      // The customer subscribes elsewhere (another tab): the draft is created and completed.
      const created = await serviceCall(sandbox, 'POST', '/v1/Subscription', {
        ReferenceCustomer: customer,
        ReferenceOffer: 'pro',
      });
      assert.equal(created.status, 201);
      await control(sandbox).completeSubscription(created.body.Id);
      const second = await call(proxy, '/portal?page=subscribe&offer=business', { customer });
      assert.equal(second.status, 409);
      assert.equal(second.body.code, 'already-subscribed');
      const state = await control(sandbox).customer(customer);
      assert.deepEqual(
        state.subscriptions.map((s: { ReferenceOffer: string }) => s.ReferenceOffer),
        ['pro'],
      );
    });

    it('opens the change to a custom subscription prepared for the customer', async () => {
      const state = await control(sandbox).customer('healthy');
      const custom = state.subscriptions.find(
        (subscription: { ReferenceOffer: string }) => subscription.ReferenceOffer === 'enterprise',
      );
      const id = custom.Id;
      const { status, body } = await call(proxy, `/portal?page=change-plan&subscription=${id}`);
      assert.equal(status, 200, JSON.stringify(body));
    });

    it('refuses pages the subscription state does not offer', async () => {
      const restart = await call(proxy, '/portal?page=restart');
      assert.equal(restart.status, 409);
      const none = await call(proxy, '/portal?page=restart', { customer: 'no-subscription' });
      assert.equal(none.status, 404);
      assert.equal(none.body.code, 'no-subscription');
      const noOffer = await call(proxy, '/portal?page=subscribe', { customer: 'no-subscription' });
      assert.equal(noOffer.status, 409);
      assert.equal(noOffer.body.field, 'offer');
    });

    it('opens the portal home of a customer without subscription on the offers', async () => {
      const home = await call(proxy, '/portal?page=home', { customer: 'no-subscription' });
      const offers = await call(proxy, '/portal?page=offers', { customer: 'no-subscription' });
      assert.equal(home.status, 200);
      assert.equal(home.body.params.query, offers.body.params.query);
    });

    it('opens the portal home of a pending customer on their subscription, not the offers', async () => {
      const home = await call(proxy, '/portal?page=home', { customer: 'pending' });
      const offers = await call(proxy, '/portal?page=offers', { customer: 'pending' });
      assert.equal(home.status, 200);
      assert.notEqual(home.body.params.query, offers.body.params.query);
      const params = new URLSearchParams(
        Object.entries(home.body.params).map(([key, value]) => [key, String(value)]),
      );
      const opened = await fetch(`${sandbox.url}/portal/open?${params}`).then((r) => r.json());
      const page = await fetch(opened.url).then((r) => r.text());
      assert.match(page, /Waiting to be completed/);
      assert.match(page, /Complete your subscription/);
    });

    it('builds in-site links: the installation URL with pa_query', async () => {
      const portal = await call(proxy, '/portal?page=offers');
      const { status, body } = await call(proxy, '/links?page=offers');
      assert.equal(status, 200);
      const url = new URL(body.url);
      assert.equal(url.origin, sandbox.url);
      assert.equal(url.searchParams.get('pa_query'), portal.body.params.query);
      const page = await fetch(body.url);
      assert.equal(page.status, 200);
    });

    it('validates the query', async () => {
      for (const query of [
        '',
        '?page=nope',
        '?page=home&customer=suspended',
        '?page=pay-invoice&invoice=abc',
        '?page=home&page=offers',
      ]) {
        const { status, body } = await call(proxy, `/portal${query}`);
        assert.equal(status, 400, query);
        assert.equal(body.code, 'validation');
      }
    });
  });

  describe('GET /subscription', () => {
    it('describes a running subscription', async () => {
      const { status, body } = await call(proxy, '/subscription');
      assert.equal(status, 200);
      assert.equal(body.status, 'running');
      assert.equal(body.state, 'Running');
      assert.equal(body.offer, 'pro');
      assert.equal(body.suspensionReason, null);
      assert.equal(body.paymentCappingReached, false);
      assert.equal(typeof body.subscriptionId, 'number');
      assert.deepEqual(body.dueInvoices, []);
    });

    it('says what each discount takes off the recurring price', async () => {
      const { body } = await call(proxy, '/subscription', { customer: 'discounted' });
      assert.deepEqual(body.discounts, [
        {
          reference: 'twenty-off',
          title: '20% off everything',
          off: { perTenThousand: 2000 },
          fees: 'all',
        },
      ]);
      assert.deepEqual((await call(proxy, '/subscription')).body.discounts, []);
    });

    it('describes suspensions and their reasons', async () => {
      const capped = await call(proxy, '/subscription', { customer: 'capping-reached' });
      assert.equal(capped.body.status, 'suspended');
      assert.equal(capped.body.suspensionReason, 'payment-due');
      assert.equal(capped.body.paymentCappingReached, true);
      // The fixture's two unpaid Pro invoices of $49.00, oldest first or not, both listed.
      assert.equal(capped.body.dueInvoices.length, 2);
      for (const invoice of capped.body.dueInvoices) {
        assert.equal(invoice.amountTotal, 4900);
        assert.equal(invoice.currency, 'USD');
        assert.equal(typeof invoice.id, 'number');
      }
      const [oldest, newest] = capped.body.dueInvoices;
      assert.ok(oldest.dateIssue <= newest.dateIssue, 'oldest first');
      // Paying "the" due invoice opens the oldest one.
      const payOldest = await call(proxy, `/portal?page=pay-invoice&invoice=${oldest.id}`, {
        customer: 'capping-reached',
      });
      const payAny = await call(proxy, '/portal?page=pay-invoice', { customer: 'capping-reached' });
      assert.equal(payAny.status, 200);
      assert.equal(payAny.body.params.query, payOldest.body.params.query);
      const suspended = await call(proxy, '/subscription', { customer: 'suspended' });
      assert.equal(suspended.body.status, 'suspended');
      assert.equal(suspended.body.suspensionReason, 'payment-method-invalid');
    });

    it('describes pending and missing subscriptions', async () => {
      assert.equal(
        (await call(proxy, '/subscription', { customer: 'pending' })).body.status,
        'pending',
      );
      const none = await call(proxy, '/subscription', { customer: 'no-subscription' });
      assert.equal(none.status, 200);
      assert.equal(none.body.status, 'none');
      assert.equal(none.body.subscriptionId, null);
    });
  });
});

// The live service's paged lists of customers, subscriptions and invoices: their paging (Page
// from 1, SizePage 0-1000, 0 answering only the count), each filter, the refusal of a filter that
// names something unknown, and items that are exactly what the single GET answers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CustomerSchema,
  InvoiceSchema,
  pagedListSchema,
  SubscriptionSchema,
} from '../../src/contract/index.js';
import { defaultFixtures } from '../../src/sandbox/index.js';
import { assertRefused, usageBody, useTestSandbox, type Answer } from './helpers.js';

const DEFAULT_CUSTOMERS = [
  'healthy',
  'no-payment-method',
  'capping-reached',
  'suspended',
  'starter-plan',
  'unlimited',
  'discounted',
  'pending',
  'no-subscription',
  'two-subscriptions',
];

const refs = (answer: Answer): string[] =>
  answer.body.Items.map((item: { ReferenceCustomer: string }) => item.ReferenceCustomer);

/** The page fields of a list answer. */
const pageOf = (answer: Answer) => {
  const { Page, SizePage, Count, TotalItems } = answer.body;
  return { Page, SizePage, Count, TotalItems };
};

/** Asserts a 422 naming `target`, with the error format of every 422 (an array). */
function assertInvalid(answer: Answer, target: string, message?: string): void {
  assert.equal(answer.status, 422, `${message ?? target}: ${answer.text}`);
  assert.ok(Array.isArray(answer.body), answer.text);
  assert.equal(answer.body[0].Code, 'Error.Api.Validation');
  assert.equal(answer.body[0].Target, target, message);
}

/** The paging refusals every list shares: each a 422 naming the parameter. */
const BAD_PAGES: [string, string][] = [
  ['Page=0', 'Page'],
  ['Page=-1', 'Page'],
  ['Page=abc', 'Page'],
  ['Page=1.5', 'Page'],
  ['SizePage=-1', 'SizePage'],
  ['SizePage=1001', 'SizePage'],
  ['SizePage=ten', 'SizePage'],
];

describe('GET /v1/Customers', () => {
  const t = useTestSandbox();

  it('lists every customer, oldest first, 10 a page by default, each as GET /v1/Customer answers it', async () => {
    const res = await t.api('GET', '/v1/Customers');
    assert.equal(res.status, 200, res.text);
    pagedListSchema(CustomerSchema).parse(res.body);
    assert.deepEqual(pageOf(res), { Page: 1, SizePage: 10, Count: 10, TotalItems: 10 });
    assert.deepEqual(refs(res), DEFAULT_CUSTOMERS);
    const single = await t.api('GET', '/v1/Customer?ReferenceCustomer=suspended');
    assert.deepEqual(res.body.Items[3], single.body);
  });

  it('pages: Page and SizePage, beyond the end an empty page, SizePage=0 the count alone', async () => {
    const second = await t.api('GET', '/v1/Customers?Page=2&SizePage=3');
    assert.deepEqual(pageOf(second), { Page: 2, SizePage: 3, Count: 3, TotalItems: 10 });
    assert.deepEqual(refs(second), DEFAULT_CUSTOMERS.slice(3, 6));
    const last = await t.api('GET', '/v1/Customers?Page=4&SizePage=3');
    assert.deepEqual(refs(last), ['two-subscriptions']);
    const beyond = await t.api('GET', '/v1/Customers?Page=5&SizePage=3');
    assert.deepEqual(pageOf(beyond), { Page: 5, SizePage: 3, Count: 0, TotalItems: 10 });
    const count = await t.api('GET', '/v1/Customers?SizePage=0');
    assert.deepEqual(pageOf(count), { Page: 1, SizePage: 0, Count: 0, TotalItems: 10 });
    assert.deepEqual(count.body.Items, []);
    const all = await t.api('GET', '/v1/Customers?SizePage=1000');
    assert.equal(all.body.Count, 10);
  });

  it('refuses a bad page with a 422 naming the parameter', async () => {
    for (const [query, target] of BAD_PAGES) {
      assertInvalid(await t.api('GET', `/v1/Customers?${query}`), target, query);
    }
  });

  it('lists a customer created through the API last', async () => {
    await t.api('POST', '/v1/Customer', { ReferenceCustomer: 'newcomer' });
    const res = await t.api('GET', '/v1/Customers?Page=2&SizePage=10');
    assert.deepEqual(refs(res), ['newcomer']);
    assert.equal(res.body.TotalItems, 11);
  });

  it('ReferenceFeature: the customers whose running subscription has the feature', async () => {
    const withFeature = async (feature: string) =>
      refs(await t.api('GET', `/v1/Customers?ReferenceFeature=${feature}&SizePage=100`));
    // Pro and Business have seats and SSO; Starter has neither; suspended and pending
    // subscriptions do not count.
    const proAndAbove = ['healthy', 'no-payment-method', 'unlimited', 'discounted'];
    assert.deepEqual(await withFeature('seats'), [...proAndAbove, 'two-subscriptions']);
    assert.deepEqual(await withFeature('sso'), [...proAndAbove, 'two-subscriptions']);
    // A Starter subscription has projects.
    assert.ok((await withFeature('projects')).includes('starter-plan'));
    // An add-on counts once bought: Business includes priority support, Pro sells it.
    assert.deepEqual(await withFeature('priority-support'), ['unlimited']);
    const bought = await t.api(
      'POST',
      '/v1/Usage',
      usageBody('healthy', 'priority-support', { IsEnabled: true }),
    );
    assert.equal(bought.status, 200, bought.text);
    assert.deepEqual(await withFeature('priority-support'), ['healthy', 'unlimited']);
  });

  it('refuses an unknown feature (404) and an unknown segment (422)', async () => {
    assertRefused(
      await t.api('GET', '/v1/Customers?ReferenceFeature=teleport'),
      404,
      'Error.Feature.NotFound',
    );
    assertInvalid(await t.api('GET', '/v1/Customers?ReferenceSegment=mars'), 'ReferenceSegment');
    const main = await t.api('GET', '/v1/Customers?ReferenceSegment=main');
    assert.equal(main.body.TotalItems, 10);
  });
});

describe('GET /v1/Subscriptions', () => {
  const t = useTestSandbox();
  const ids = (answer: Answer): number[] => answer.body.Items.map((s: { Id: number }) => s.Id);

  it('lists every subscription in every state, oldest first, each as GET /v1/Subscription/{id} answers it', async () => {
    const res = await t.api('GET', '/v1/Subscriptions?SizePage=100');
    assert.equal(res.status, 200, res.text);
    pagedListSchema(SubscriptionSchema).parse(res.body);
    // healthy has two (Pro and a prepared Enterprise), two-subscriptions two, eight others one.
    assert.equal(res.body.TotalItems, 11);
    const list = ids(res);
    assert.deepEqual(
      list,
      [...list].sort((a, b) => a - b),
    );
    const states = new Set(
      res.body.Items.map((s: { StateSubscription: string }) => s.StateSubscription),
    );
    for (const state of ['Running', 'PendingSubscription', 'SuspendedPaymentDue'])
      assert.ok(states.has(state), state);
    for (const item of res.body.Items) {
      const single = await t.api('GET', `/v1/Subscription/${item.Id}`);
      assert.deepEqual(item, single.body, `subscription ${item.Id}`);
    }
  });

  it('pages, with SizePage=0 for the count alone', async () => {
    const all = ids(await t.api('GET', '/v1/Subscriptions?SizePage=100'));
    const third = await t.api('GET', '/v1/Subscriptions?Page=3&SizePage=4');
    assert.deepEqual(pageOf(third), { Page: 3, SizePage: 4, Count: 3, TotalItems: 11 });
    assert.deepEqual(ids(third), all.slice(8));
    const count = await t.api('GET', '/v1/Subscriptions?SizePage=0');
    assert.deepEqual(pageOf(count), { Page: 1, SizePage: 0, Count: 0, TotalItems: 11 });
    for (const [query, target] of BAD_PAGES) {
      assertInvalid(await t.api('GET', `/v1/Subscriptions?${query}`), target, query);
    }
  });

  it('filters by customer and by buyer; a new subscription joins the list', async () => {
    const healthy = await t.api('GET', '/v1/Subscriptions?ReferenceCustomer=healthy');
    assert.deepEqual(
      healthy.body.Items.map((s: { ReferenceOffer: string }) => s.ReferenceOffer),
      ['pro', 'enterprise'],
    );
    const buyer = await t.api('GET', '/v1/Subscriptions?ReferenceCustomerBuyer=two-subscriptions');
    assert.deepEqual(
      buyer.body.Items.map((s: { ReferenceOffer: string }) => s.ReferenceOffer),
      ['starter', 'pro'],
    );
    // Both filters apply: a customer who is not the buyer has none here.
    const neither = await t.api(
      'GET',
      '/v1/Subscriptions?ReferenceCustomer=healthy&ReferenceCustomerBuyer=two-subscriptions',
    );
    assert.deepEqual(pageOf(neither), { Page: 1, SizePage: 10, Count: 0, TotalItems: 0 });
    assert.equal(
      (await t.api('GET', '/v1/Subscriptions?ReferenceCustomer=no-subscription')).body.TotalItems,
      0,
    );
    const created = await t.api('POST', '/v1/Subscription', {
      ReferenceCustomer: 'no-subscription',
      ReferenceOffer: 'starter',
    });
    assert.equal(created.status, 201, created.text);
    const after = await t.api('GET', '/v1/Subscriptions?ReferenceCustomer=no-subscription');
    assert.deepEqual(ids(after), [created.body.Id]);
    assert.equal(after.body.Items[0].StateSubscription, 'PendingSubscription');
  });

  it('refuses an unknown customer or buyer (404 naming the parameter) and a bad flag (422)', async () => {
    for (const name of ['ReferenceCustomer', 'ReferenceCustomerBuyer']) {
      const res = await t.api('GET', `/v1/Subscriptions?${name}=ghost`);
      assertRefused(res, 404, 'Error.Customer.NotFound', name);
      assert.equal(res.body.Target, name);
    }
    assertInvalid(await t.api('GET', '/v1/Subscriptions?IgnoreFeatures=maybe'), 'IgnoreFeatures');
    assertInvalid(await t.api('GET', '/v1/Subscriptions?Language=de'), 'Language');
    assertInvalid(
      await t.api('GET', '/v1/Subscriptions?ReferenceSegment=mars'),
      'ReferenceSegment',
    );
  });

  it('IgnoreFeatures=true leaves out Features; Language localizes every item', async () => {
    const light = await t.api(
      'GET',
      '/v1/Subscriptions?ReferenceCustomer=healthy&IgnoreFeatures=true',
    );
    for (const item of light.body.Items) assert.equal(item.Features, undefined);
    const full = await t.api(
      'GET',
      '/v1/Subscriptions?ReferenceCustomer=healthy&IgnoreFeatures=false',
    );
    assert.ok(full.body.Items[0].Features.length > 0);
    const french = await t.api('GET', '/v1/Subscriptions?ReferenceCustomer=healthy&Language=fr');
    const seats = (answer: Answer) =>
      answer.body.Items[0].Features.find(
        (f: { ReferenceFeature: string }) => f.ReferenceFeature === 'seats',
      ).PricingLocalized;
    assert.match(seats(french), /par unité/);
    assert.match(seats(full), /per unit/);
  });
});

/** The default fixtures with capping-reached's two invoices as the only ones (no year of history). */
function twoFixtureInvoices() {
  const fixtures = defaultFixtures();
  fixtures.customers = (fixtures.customers ?? []).map((customer) =>
    customer.reference === 'discounted' ? { ...customer, invoices: [] } : customer,
  );
  return fixtures;
}

describe('GET /v1/Invoices', () => {
  const t = useTestSandbox({ fixtures: twoFixtureInvoices() });
  const numbers = (answer: Answer): string[] =>
    answer.body.Items.map((i: { FullNumber: string }) => i.FullNumber);

  /** Two invoices for healthy (Nov 16 and Nov 17) beside capping-reached's two (Oct 2 and 27). */
  async function billHealthyTwice() {
    const first = await t.api('POST', '/v1/Usage', usageBody('healthy', 'seats', { Increment: 4 }));
    assert.equal(first.status, 200, first.text);
    await t.control('POST', '/clock', { advance: { days: 1 } });
    const second = await t.api(
      'POST',
      '/v1/Usage',
      usageBody('healthy', 'seats', { Increment: 1 }),
    );
    assert.equal(second.status, 200, second.text);
    const healthy = await t.customer('healthy');
    const capped = await t.customer('capping-reached');
    return { healthy, capped };
  }

  it('lists every invoice newest first, each as GET /v1/Invoice/{id} answers it', async () => {
    const { healthy, capped } = await billHealthyTwice();
    const res = await t.api('GET', '/v1/Invoices');
    assert.equal(res.status, 200, res.text);
    pagedListSchema(InvoiceSchema).parse(res.body);
    assert.deepEqual(pageOf(res), { Page: 1, SizePage: 10, Count: 4, TotalItems: 4 });
    assert.deepEqual(
      res.body.Items.map((i: { DateIssue: string }) => i.DateIssue),
      [
        '2026-11-17T00:00:00.000Z',
        '2026-11-16T00:00:00.000Z',
        '2026-10-27T00:00:00.000Z',
        '2026-10-02T00:00:00.000Z',
      ],
    );
    assert.deepEqual(res.body.Items.slice(0, 2), [...healthy.invoices].reverse());
    assert.deepEqual(res.body.Items.slice(2), [...capped.invoices].reverse());
    for (const item of res.body.Items) {
      assert.deepEqual(item, (await t.api('GET', `/v1/Invoice/${item.Id}`)).body);
    }
  });

  it('newest first also among invoices issued at the same instant (the higher id first)', async () => {
    // healthy has 3 seats of 5 included: 3 more are billed, then one more.
    const first = await t.api('POST', '/v1/Usage', usageBody('healthy', 'seats', { Increment: 3 }));
    const second = await t.api(
      'POST',
      '/v1/Usage',
      usageBody('healthy', 'seats', { Increment: 1 }),
    );
    assert.equal(first.status + second.status, 400);
    const res = await t.api('GET', '/v1/Invoices?ReferenceCustomer=healthy');
    const [newer, older] = res.body.Items;
    assert.equal(newer.DateIssue, older.DateIssue);
    assert.ok(newer.Id > older.Id);
  });

  it('filters by customer (reference or id), subscription and segment', async () => {
    const { healthy } = await billHealthyTwice();
    const byReference = await t.api('GET', '/v1/Invoices?ReferenceCustomer=healthy');
    assert.deepEqual(
      numbers(byReference),
      [...healthy.invoices].reverse().map((i: { FullNumber: string }) => i.FullNumber),
    );
    const id = healthy.customer.Id;
    const byId = await t.api('GET', `/v1/Invoices?IdCustomer=${id}`);
    assert.deepEqual(byId.body, byReference.body);
    const both = await t.api('GET', `/v1/Invoices?IdCustomer=${id}&ReferenceCustomer=healthy`);
    assert.deepEqual(both.body, byReference.body);
    const proId = healthy.subscriptions[0].Id;
    const bySubscription = await t.api('GET', `/v1/Invoices?IdSubscription=${proId}`);
    assert.deepEqual(bySubscription.body, byReference.body);
    const none = await t.api('GET', '/v1/Invoices?ReferenceCustomer=starter-plan');
    assert.deepEqual(pageOf(none), { Page: 1, SizePage: 10, Count: 0, TotalItems: 0 });
    assert.deepEqual(none.body.Items, []);
    assert.equal((await t.api('GET', '/v1/Invoices?ReferenceSegment=main')).body.TotalItems, 4);
  });

  it('pages, with SizePage=0 for the count alone', async () => {
    await billHealthyTwice();
    const all = numbers(await t.api('GET', '/v1/Invoices'));
    const second = await t.api('GET', '/v1/Invoices?Page=2&SizePage=1');
    assert.deepEqual(pageOf(second), { Page: 2, SizePage: 1, Count: 1, TotalItems: 4 });
    assert.deepEqual(numbers(second), [all[1]]);
    const count = await t.api('GET', '/v1/Invoices?SizePage=0&ReferenceCustomer=healthy');
    assert.deepEqual(pageOf(count), { Page: 1, SizePage: 0, Count: 0, TotalItems: 2 });
    for (const [query, target] of BAD_PAGES) {
      assertInvalid(await t.api('GET', `/v1/Invoices?${query}`), target, query);
    }
  });

  it('refuses filters that name nothing, or two different customers', async () => {
    const healthy = await t.customer('healthy');
    const twoSubscriptions = await t.customer('two-subscriptions');
    const ghost = await t.api('GET', '/v1/Invoices?ReferenceCustomer=ghost');
    assertRefused(ghost, 404, 'Error.Customer.NotFound');
    assert.equal(ghost.body.Target, 'ReferenceCustomer');
    const noId = await t.api('GET', '/v1/Invoices?IdCustomer=999999');
    assertRefused(noId, 404, 'Error.Customer.NotFound');
    assert.equal(noId.body.Target, 'IdCustomer');
    assertInvalid(await t.api('GET', '/v1/Invoices?IdCustomer=abc'), 'IdCustomer');
    assertInvalid(
      await t.api(
        'GET',
        `/v1/Invoices?IdCustomer=${healthy.customer.Id}&ReferenceCustomer=suspended`,
      ),
      'IdCustomer',
    );
    for (const query of [
      'IdSubscription=999999',
      // Another customer's subscription.
      `IdSubscription=${twoSubscriptions.subscriptions[0].Id}&ReferenceCustomer=healthy`,
    ]) {
      const res = await t.api('GET', `/v1/Invoices?${query}`);
      assertRefused(res, 404, 'Error.Subscription.NotFound', query);
      assert.equal(res.body.Target, 'IdSubscription');
    }
    assertInvalid(await t.api('GET', '/v1/Invoices?IdSubscription=-3'), 'IdSubscription');
    assertInvalid(await t.api('GET', '/v1/Invoices?ReferenceSegment=mars'), 'ReferenceSegment');
  });
});

describe('the lists in a business with several segments', () => {
  const fixtures = defaultFixtures();
  fixtures.otherSegments = [{ id: 2, reference: 'eu', title: 'Europe' }];
  fixtures.customers = [
    ...(fixtures.customers ?? []),
    {
      reference: 'eu-customer',
      name: 'Eva',
      email: 'eva@example.com',
      segment: 'eu',
      subscriptions: [{ offer: 'pro', quantities: { seats: 2 } }],
      invoices: [{ amountTotal: 4900, issuedDaysAgo: 3, label: 'Pro' }],
    },
  ];
  const t = useTestSandbox({ fixtures });

  it('ReferenceSegment keeps the customers, subscriptions and invoices of that segment', async () => {
    const customers = await t.api('GET', '/v1/Customers?ReferenceSegment=eu');
    assert.deepEqual(refs(customers), ['eu-customer']);
    assert.equal(customers.body.Items[0].ReferenceSegment, 'eu');
    const main = await t.api('GET', '/v1/Customers?ReferenceSegment=main&SizePage=100');
    assert.deepEqual(refs(main), DEFAULT_CUSTOMERS);
    const subscriptions = await t.api('GET', '/v1/Subscriptions?ReferenceSegment=eu');
    assert.deepEqual(refs(subscriptions), ['eu-customer']);
    assert.equal(
      (await t.api('GET', '/v1/Subscriptions?ReferenceSegment=main')).body.TotalItems,
      11,
    );
    const invoices = await t.api('GET', '/v1/Invoices?ReferenceSegment=eu');
    assert.deepEqual(refs(invoices), ['eu-customer']);
    // capping-reached's two and discounted's thirteen.
    assert.equal((await t.api('GET', '/v1/Invoices?ReferenceSegment=main')).body.TotalItems, 15);
    const seats = await t.api('GET', '/v1/Customers?ReferenceSegment=eu&ReferenceFeature=seats');
    assert.deepEqual(refs(seats), ['eu-customer']);
  });
});

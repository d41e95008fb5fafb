import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BillingAddressSchema, CustomerSchema } from '../../src/contract/index.js';
import { defaultFixtures } from '../../src/sandbox/index.js';
import { assertRefused, link, useTestSandbox, usageBody } from './helpers.js';

// What the live service reads beyond the seed, on customers: create-or-update by reference,
// every field optional, null as "not given", unknown fields ignored (and logged), the billing
// address under both names with GET.

describe('POST /v1/Customer: create or update by ReferenceCustomer', () => {
  const t = useTestSandbox();

  it('creates with the reference alone (201), in the only segment', async () => {
    const res = await t.api('POST', '/v1/Customer', { ReferenceCustomer: 'bare' });
    assert.equal(res.status, 201, res.text);
    CustomerSchema.parse(res.body);
    assert.equal(res.body.ReferenceCustomer, 'bare');
    assert.equal(res.body.ReferenceSegment, 'main');
    assert.equal(res.body.IdSegment, 1);
    assert.equal(res.body.Name, undefined);
    assert.equal(res.body.Email, undefined);
    assert.deepEqual(res.body.Metadata, {});
  });

  it('updates what is given (200) and keeps the rest', async () => {
    const created = await t.api('POST', '/v1/Customer', {
      ReferenceCustomer: 'lena',
      Name: 'Lena',
      Email: 'lena@example.com',
      Language: 'en',
      ReferenceAffiliation: 'partner-7',
      Metadata: { plan: 'trial', crm: 'C-1' },
    });
    assert.equal(created.status, 201, created.text);
    const updated = await t.api('POST', '/v1/Customer', {
      ReferenceCustomer: 'lena',
      Email: 'lena@example.org',
      Language: 'fr',
    });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.Id, created.body.Id);
    assert.equal(updated.body.Name, 'Lena');
    assert.equal(updated.body.Email, 'lena@example.org');
    assert.equal(updated.body.Language, 'fr');
    assert.equal(updated.body.ReferenceAffiliation, 'partner-7');
    assert.deepEqual(updated.body.Metadata, { plan: 'trial', crm: 'C-1' });
    const read = await t.api('GET', '/v1/Customer?ReferenceCustomer=lena');
    assert.equal(read.body.Language, 'fr');
    assert.equal(read.body.Email, 'lena@example.org');
  });

  it('updates a fixture customer by reference, without touching its subscription', async () => {
    const before = await t.customer('healthy');
    const res = await t.api('POST', '/v1/Customer', {
      ReferenceCustomer: 'healthy',
      Name: 'Hannah H.',
    });
    assert.equal(res.status, 200);
    const after = await t.customer('healthy');
    assert.equal(after.customer.Name, 'Hannah H.');
    assert.deepEqual(after.subscriptions, before.subscriptions);
  });

  it('reads null as "not given": on creation and on update', async () => {
    const created = await t.api('POST', '/v1/Customer', {
      ReferenceCustomer: 'nulls',
      Name: 'Nils',
      Email: null,
      Language: null,
      ReferenceSegment: null,
      ReferenceOffer: null,
      ReferenceAffiliation: null,
      Metadata: { kept: 'yes', dropped: null },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.Metadata, { kept: 'yes' });
    const updated = await t.api('POST', '/v1/Customer', {
      ReferenceCustomer: 'nulls',
      Name: null,
      Email: 'nils@example.com',
    });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.Name, 'Nils', 'a null name leaves the name as it was');
    assert.equal(updated.body.Email, 'nils@example.com');
  });

  it('localizes in the stored language when the request names none', async () => {
    await t.api('POST', '/v1/Customer', { ReferenceCustomer: 'healthy', Language: 'fr' });
    const price = await t.api(
      'POST',
      '/v1/Pricing/Usage',
      usageBody('healthy', 'seats', { Increment: 4 }),
    );
    assert.equal(price.body.LabelLocalized, 'À payer maintenant');
    // A request's own language still wins: the query, then Accept-Language.
    const english = await t.api(
      'POST',
      '/v1/Pricing/Usage',
      { ReferenceCustomer: 'healthy', ReferenceFeature: 'seats', Increment: 4 },
      { 'accept-language': 'en-GB' },
    );
    assert.equal(english.body.LabelLocalized, 'Due now');
    // A language the sandbox does not speak is stored and returned; answers use the default.
    await t.api('POST', '/v1/Customer', { ReferenceCustomer: 'healthy', Language: 'pt-BR' });
    const stored = await t.api('GET', '/v1/Customer?ReferenceCustomer=healthy');
    assert.equal(stored.body.Language, 'pt-BR');
    const usages = await t.api('GET', '/v1/Usages?ReferenceCustomer=healthy');
    assert.equal(usages.body.Items[0].TitleLocalized, 'Seats');
  });

  it('remembers ReferenceOffer: the customer insite-subscribe opens that offer', async () => {
    const res = await t.api('POST', '/v1/Customer', {
      ReferenceCustomer: 'wants-pro',
      ReferenceOffer: 'pro',
    });
    assert.equal(res.body.ReferenceOffer, 'pro');
    // Sealed queries are deterministic: the same target gives the same query.
    const explicit = await t.api(
      'GET',
      '/v1/Customer?ReferenceCustomer=wants-pro&ReferenceOffer=pro',
    );
    const catalogue = await t.api(
      'GET',
      '/v1/Customer?ReferenceCustomer=wants-pro&ReferenceOffer=starter',
    );
    const query = link(res.body, 'insite-subscribe').query;
    assert.equal(query, link(explicit.body, 'insite-subscribe').query);
    assert.notEqual(query, link(catalogue.body, 'insite-subscribe').query);
    const unknown = await t.api('POST', '/v1/Customer', {
      ReferenceCustomer: 'wants-gold',
      ReferenceOffer: 'gold',
    });
    assertRefused(unknown, 404, 'Error.Offer.NotFound');
    assert.equal((await t.api('GET', '/v1/Customer?ReferenceCustomer=wants-gold')).status, 404);
  });

  it('accepts an empty Name or Email as not given, and refuses wrong values, all at once', async () => {
    const empty = await t.api('POST', '/v1/Customer', {
      ReferenceCustomer: 'empty',
      Name: '',
      Email: '',
    });
    assert.equal(empty.status, 201, empty.text);
    const bad = await t.api('POST', '/v1/Customer', {
      ReferenceCustomer: 'bad',
      Email: 'not-an-email',
      Language: 'french!',
      Metadata: { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' },
    });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.map((e: { Target: string }) => e.Target).sort(), [
      'Email',
      'Language',
      'Metadata',
    ]);
    const notStrings = await t.api('POST', '/v1/Customer', {
      ReferenceCustomer: 'bad',
      Metadata: { count: 3 },
    });
    assert.equal(notStrings.status, 422);
    assert.equal(notStrings.body[0].Target, 'Metadata.count');
    assert.equal((await t.api('GET', '/v1/Customer?ReferenceCustomer=bad')).status, 404);
  });

  it('accepts unknown fields, ignores them and logs one line naming them and the route', async () => {
    const res = await t.api('POST', '/v1/customer', {
      ReferenceCustomer: 'extra',
      Name: 'Ext',
      Nickname: 'E',
      Tier: 3,
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.Nickname, undefined);
    assert.deepEqual(t.logs, [
      '[sandbox] POST /v1/Customer: ignored unknown field(s) Nickname, Tier',
    ]);
  });

  it('matches paths case-insensitively (the seed writes /v1/customer)', async () => {
    for (const path of ['/v1/customer', '/V1/CUSTOMER', '/v1/Customer']) {
      const res = await t.api('POST', path, { ReferenceCustomer: 'cased' });
      assert.ok([200, 201].includes(res.status), `${path}: ${res.status}`);
    }
    assert.equal((await t.customer('cased')).customer.ReferenceCustomer, 'cased');
  });
});

describe('customers of a business with several segments', () => {
  const fixtures = defaultFixtures();
  fixtures.otherSegments = [{ id: 2, reference: 'eu', title: 'Europe' }];
  fixtures.customers = [
    ...(fixtures.customers ?? []),
    { reference: 'eu-customer', name: 'Eva', email: 'eva@example.com', segment: 'eu' },
  ];
  const t = useTestSandbox({ fixtures });

  it('needs ReferenceSegment to create a customer: a clear 422 names the segments', async () => {
    const res = await t.api('POST', '/v1/Customer', { ReferenceCustomer: 'who' });
    assert.equal(res.status, 422);
    assert.equal(res.body[0].Target, 'ReferenceSegment');
    assert.match(res.body[0].Message, /several segments \(main, eu\)/);
    const eu = await t.api('POST', '/v1/Customer', {
      ReferenceCustomer: 'who',
      ReferenceSegment: 'eu',
    });
    assert.equal(eu.status, 201, eu.text);
    assert.deepEqual([eu.body.ReferenceSegment, eu.body.IdSegment], ['eu', 2]);
  });

  it('updates without ReferenceSegment, and refuses moving a customer to another segment', async () => {
    const update = await t.api('POST', '/v1/Customer', {
      ReferenceCustomer: 'eu-customer',
      Name: 'Eva E.',
    });
    assert.equal(update.status, 200, update.text);
    assert.equal(update.body.ReferenceSegment, 'eu');
    const move = await t.api('POST', '/v1/Customer', {
      ReferenceCustomer: 'eu-customer',
      ReferenceSegment: 'main',
    });
    assert.equal(move.status, 422);
    assert.match(move.body[0].Message, /does not change segment/);
  });
});

describe('billing address', () => {
  const t = useTestSandbox();

  const full = {
    Company: 'Acme',
    FirstName: 'Nadia',
    LastName: 'N',
    AddressLine1: '1 rue X',
    AddressLine2: 'Bâtiment B',
    ZipCode: '75001',
    City: 'Paris',
    Region: 'Île-de-France',
    Country: 'FR',
    TaxInformation: 'FR123',
    Phone: '+33 1 23 45 67 89',
  };

  it('is written and read under both names, AddressLine2, Region and Phone included', async () => {
    for (const [write, read] of [
      ['/v1/CustomerBillingAddress', '/v1/CustomerAddressBilling'],
      ['/v1/CustomerAddressBilling', '/v1/CustomerBillingAddress'],
    ] as const) {
      const posted = await t.api('POST', `${write}?ReferenceCustomer=no-payment-method`, full);
      assert.equal(posted.status, 200, posted.text);
      const got = await t.api('GET', `${read}?ReferenceCustomer=no-payment-method`);
      assert.equal(got.status, 200);
      BillingAddressSchema.parse(got.body);
      assert.deepEqual(got.body, { ReferenceCustomer: 'no-payment-method', ...full });
    }
    const none = await t.api('GET', '/v1/CustomerAddressBilling?ReferenceCustomer=healthy');
    assert.deepEqual(none.body, { ReferenceCustomer: 'healthy' });
    const unknown = await t.api('GET', '/v1/CustomerAddressBilling?ReferenceCustomer=ghost');
    assert.equal(unknown.status, 404);
  });

  it('reads null as not given, ignores and logs unknown fields, and still refuses wrong values', async () => {
    const res = await t.api('POST', '/v1/CustomerBillingAddress?ReferenceCustomer=healthy', {
      City: 'Lyon',
      Country: 'fr',
      Company: null,
      AddressLine3: 'unknown',
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { ReferenceCustomer: 'healthy', City: 'Lyon', Country: 'FR' });
    assert.deepEqual(t.logs, [
      '[sandbox] POST /v1/CustomerBillingAddress: ignored unknown field(s) AddressLine3',
    ]);
    const bad = await t.api('POST', '/v1/CustomerAddressBilling?ReferenceCustomer=healthy', {
      Country: 'France',
      Phone: 'call me',
    });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.map((e: { Target: string }) => e.Target).sort(), [
      'Country',
      'Phone',
    ]);
    assert.deepEqual((await t.customer('healthy')).billingAddress, { City: 'Lyon', Country: 'FR' });
  });
});

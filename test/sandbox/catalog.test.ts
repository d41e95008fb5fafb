import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CatalogFeatureRecordSchema,
  FeaturesPageSchema,
  OfferSchema,
  OffersPageSchema,
} from '../../src/contract/index.js';
import { assertRefused, link, rels, useTestSandbox } from './helpers.js';
import { openPage } from './hosted-pages.js';

// The offer catalogue and the features: GET /v1/Offers, /v1/Offer, /v1/Features, /v1/Feature.
// The catalogue does not change, so one sandbox serves every test.

type Item = { ReferenceOffer: string };
const refs = (body: { Items: Item[] }) => body.Items.map((o) => o.ReferenceOffer);

describe('GET /v1/Offers and /v1/Offer', () => {
  const t = useTestSandbox();

  it('lists every offer, paged, with its price, features and links', async () => {
    const res = await t.api('GET', '/v1/Offers');
    assert.equal(res.status, 200, res.text);
    const page = OffersPageSchema.parse(res.body);
    assert.deepEqual([page.Page, page.SizePage, page.Count, page.TotalItems], [1, 10, 4, 4]);
    assert.deepEqual(refs(res.body), ['starter', 'pro', 'business', 'enterprise']);
    const pro = res.body.Items[1];
    assert.deepEqual(
      {
        Id: pro.Id,
        TitleLocalized: pro.TitleLocalized,
        DescriptionLocalized: pro.DescriptionLocalized,
        IsVisible: pro.IsVisible,
        IsOnRequest: pro.IsOnRequest,
        AmountRecurrence: pro.AmountRecurrence,
        DurationRecurrence: pro.DurationRecurrence,
        UnitRecurrence: pro.UnitRecurrence,
        Currency: pro.Currency,
        PricingLocalized: pro.PricingLocalized,
      },
      {
        Id: 102,
        TitleLocalized: 'Pro',
        DescriptionLocalized: 'For growing teams',
        IsVisible: true,
        IsOnRequest: false,
        AmountRecurrence: 4900,
        DurationRecurrence: 1,
        UnitRecurrence: 'Month',
        Currency: 'USD',
        PricingLocalized: '<strong>$49.00</strong>&nbsp;/\u00a0month',
      },
    );
    const byRef = Object.fromEntries(
      pro.Features.map((f: { ReferenceFeature: string }) => [f.ReferenceFeature, f]),
    );
    assert.deepEqual(byRef.seats, {
      Id: 11,
      ReferenceFeature: 'seats',
      TypeFeature: 'Limitation',
      TitleLocalized: 'Seats',
      IsVisible: true,
      Properties: 'UpdatableAfterSubscription',
      QuantityIncluded: 5,
      QuantityMax: 500,
      AmountUnit: 1000,
      PricingLocalized: '<strong>$10.00</strong>&nbsp;/\u00a0month for each unit above 5',
    });
    assert.equal(
      byRef['api-calls'].PricingLocalized,
      '<strong>$0.01</strong> for each unit above 10,000',
    );
    assert.deepEqual(
      [byRef.sso.IsIncluded, byRef.sso.IsAddOn, byRef.sso.AmountRecurrence],
      [true, false, undefined],
    );
    assert.deepEqual(
      [
        byRef['priority-support'].IsIncluded,
        byRef['priority-support'].IsAddOn,
        byRef['priority-support'].AmountRecurrence,
        byRef['priority-support'].PricingLocalized,
        byRef['priority-support'].DescriptionLocalized,
      ],
      [
        false,
        true,
        900,
        '<strong>$9.00</strong>&nbsp;/\u00a0month',
        'Answers within four business hours',
      ],
    );
    // Without a customer: only the self link (anonymous subscription is not enabled).
    assert.deepEqual(rels(pro), ['self']);
    assert.equal(link(pro, 'self').href, `${t.sandbox.url}/v1/Offer?ReferenceOffer=pro`);
  });

  it('shows an on-request offer without a price and without subscribe or upgrade links', async () => {
    const res = await t.api('GET', '/v1/Offer?ReferenceOffer=enterprise&ReferenceCustomer=healthy');
    assert.equal(res.status, 200, res.text);
    OfferSchema.parse(res.body);
    assert.deepEqual(
      [
        res.body.IsOnRequest,
        res.body.IsVisible,
        res.body.AmountRecurrence,
        res.body.PricingLocalized,
      ],
      [true, false, undefined, 'On request'],
    );
    assert.deepEqual(rels(res.body), ['self']);
    const french = await t.api('GET', '/v1/Offer?ReferenceOffer=enterprise&Language=fr');
    assert.equal(french.body.PricingLocalized, 'Sur demande');
    const unknown = await t.api('GET', '/v1/Offer?ReferenceOffer=gold');
    assertRefused(unknown, 404, 'Error.Offer.NotFound');
    assert.equal((await t.api('GET', '/v1/Offer')).status, 422);
  });

  it('pages with Page and SizePage; SizePage=0 answers only the count', async () => {
    const second = await t.api('GET', '/v1/Offers?SizePage=3&Page=2');
    assert.deepEqual(refs(second.body), ['enterprise']);
    assert.equal(second.body.TotalItems, 4);
    const count = await t.api('GET', '/v1/Offers?SizePage=0');
    assert.deepEqual(count.body, { Page: 1, SizePage: 0, Count: 0, TotalItems: 4, Items: [] });
    for (const bad of ['SizePage=-1', 'SizePage=1001', 'Page=0', 'Page=x']) {
      const res = await t.api('GET', `/v1/Offers?${bad}`);
      assert.equal(res.status, 422, bad);
      assert.equal(res.body[0].Target, bad.split('=')[0]);
    }
  });

  it('filters by IsVisible, PrefixReferenceOffer and ReferenceSegment', async () => {
    const grid = await t.api('GET', '/v1/Offers?IsVisible=true');
    assert.deepEqual(refs(grid.body), ['starter', 'pro', 'business']);
    const hidden = await t.api('GET', '/v1/Offers?IsVisible=false');
    assert.deepEqual(refs(hidden.body), ['enterprise']);
    const prefixed = await t.api('GET', '/v1/Offers?PrefixReferenceOffer=bus');
    assert.deepEqual(refs(prefixed.body), ['business']);
    const segment = await t.api('GET', '/v1/Offers?ReferenceSegment=main&IgnoreFeatures=true');
    assert.equal(segment.body.TotalItems, 4);
    assert.equal(segment.body.Items[0].ReferenceSegment, 'main');
    const unknown = await t.api('GET', '/v1/Offers?ReferenceSegment=mars');
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body[0].Target, 'ReferenceSegment');
    const table = await t.api('GET', '/v1/Offers?ReferencePricingTable=summer');
    assert.equal(table.status, 422);
    assert.equal(table.body[0].Target, 'ReferencePricingTable');
  });

  it('lighter answers: IgnoreFeatures, Pricing=false, Links=false; Html=false gives text', async () => {
    const light = await t.api(
      'GET',
      '/v1/Offers?IgnoreFeatures=true&Pricing=false&Links=false&ReferenceCustomer=healthy',
    );
    const pro = light.body.Items[1];
    for (const field of [
      'Features',
      'Links',
      'AmountRecurrence',
      'PricingLocalized',
      'Currency',
      'AmountUpFront',
    ])
      assert.equal(pro[field], undefined, field);
    assert.deepEqual([pro.ReferenceOffer, pro.DurationRecurrence, pro.IsCurrent], ['pro', 1, true]);
    const noPrices = await t.api('GET', '/v1/Offer?ReferenceOffer=pro&Pricing=false');
    const seats = noPrices.body.Features.find(
      (f: { ReferenceFeature: string }) => f.ReferenceFeature === 'seats',
    );
    assert.deepEqual(
      [seats.QuantityIncluded, seats.AmountUnit, seats.PricingLocalized],
      [5, undefined, undefined],
    );
    const text = await t.api('GET', '/v1/Offer?ReferenceOffer=pro&Html=false');
    assert.equal(text.body.PricingLocalized, '$49.00\u00a0/\u00a0month');
    const french = await t.api('GET', '/v1/Offer?ReferenceOffer=pro&Html=false&Language=fr');
    assert.match(french.body.PricingLocalized, /^49,00\s\$US\u00a0\/\u00a0mois$/u);
    assert.equal(french.body.DescriptionLocalized, 'Pour les équipes en croissance');
    const frSeats = french.body.Features.find(
      (f: { ReferenceFeature: string }) => f.ReferenceFeature === 'seats',
    );
    assert.match(
      frSeats.PricingLocalized,
      /^10,00\s\$US\u00a0\/\u00a0mois par unité au-delà de 5$/u,
    );
    for (const bad of ['Html=maybe', 'Pricing=0', 'Links=no', 'IgnoreFeatures=1', 'Language=de']) {
      assert.equal((await t.api('GET', `/v1/Offers?${bad}`)).status, 422, bad);
    }
  });

  it('gives a customer subscribe links and, for their subscription, upgrade links that open', async () => {
    const res = await t.api('GET', '/v1/Offers?ReferenceCustomer=healthy');
    const [starter, pro, business] = res.body.Items;
    assert.deepEqual(
      res.body.Items.map((o: { IsCurrent: boolean }) => o.IsCurrent),
      [false, true, false, false],
    );
    assert.deepEqual(rels(business), [
      'hosted-subscribe',
      'hosted-upgrade',
      'insite-subscribe',
      'insite-upgrade',
      'self',
    ]);
    assert.deepEqual(rels(pro), ['hosted-subscribe', 'insite-subscribe', 'self']);
    assert.ok(rels(starter).includes('insite-upgrade'));
    // The hosted-upgrade link opens the change to that offer alone.
    const page = await openPage(link(business, 'hosted-upgrade').href ?? '');
    assert.equal(page.status, 200);
    assert.match(page.html, /<th scope="row">Business/);
    assert.doesNotMatch(page.html, /<th scope="row">Starter/);
    // The insite queries open through the in-site page.
    const insite = await openPage(
      `${t.sandbox.url}/insite?pa_query=${link(business, 'insite-upgrade').query}`,
    );
    assert.equal(insite.status, 200);
    // A customer in French gets French texts without asking.
    await t.api('POST', '/v1/Customer', { ReferenceCustomer: 'healthy', Language: 'fr' });
    const french = await t.api('GET', '/v1/Offer?ReferenceOffer=pro&ReferenceCustomer=healthy');
    assert.equal(french.body.DescriptionLocalized, 'Pour les équipes en croissance');
    await t.api('POST', '/v1/Customer', { ReferenceCustomer: 'healthy', Language: 'en' });
  });

  it('Upgrade=true lists only what the customer or the subscription can move to', async () => {
    const healthy = await t.api('GET', '/v1/Offers?Upgrade=true&ReferenceCustomer=healthy');
    assert.equal(healthy.status, 200, healthy.text);
    // Not its own offer, not the on-request enterprise.
    assert.deepEqual(refs(healthy.body), ['starter', 'business']);
    const subs = (await t.customer('two-subscriptions')).subscriptions;
    const starterSub = subs.find((s: Item) => s.ReferenceOffer === 'starter');
    const bySubscription = await t.api(
      'GET',
      `/v1/Offers?Upgrade=true&IdSubscription=${starterSub.Id}`,
    );
    assert.deepEqual(refs(bySubscription.body), ['pro', 'business']);
    assert.ok(
      bySubscription.body.Items.every(
        (o: { IsCurrent: boolean; Links: { rel: string }[] }) =>
          o.IsCurrent === false && o.Links.some((l) => l.rel === 'insite-upgrade'),
      ),
    );
    const counted = await t.api(
      'GET',
      '/v1/Offers?Upgrade=true&ReferenceCustomer=healthy&SizePage=0',
    );
    assert.equal(counted.body.TotalItems, 2);
    const alone = await t.api('GET', '/v1/Offers?Upgrade=true');
    assert.equal(alone.status, 422);
    assert.equal(alone.body[0].Target, 'Upgrade');
    const none = await t.api('GET', '/v1/Offers?Upgrade=true&ReferenceCustomer=no-subscription');
    assertRefused(none, 404, 'Error.Subscription.NotFound');
    const mismatch = await t.api(
      'GET',
      `/v1/Offers?Upgrade=true&ReferenceCustomer=healthy&IdSubscription=${starterSub.Id}`,
    );
    assert.equal(mismatch.status, 404);
    const ghost = await t.api('GET', '/v1/Offers?ReferenceCustomer=ghost');
    assert.equal(ghost.body.Code, 'Error.Customer.NotFound');
  });
});

describe('GET /v1/Features and /v1/Feature', () => {
  const t = useTestSandbox();

  it('lists the features with what each offer says about them', async () => {
    const res = await t.api('GET', '/v1/Features?SizePage=100');
    assert.equal(res.status, 200, res.text);
    FeaturesPageSchema.parse(res.body);
    assert.deepEqual(
      res.body.Items.map((f: { ReferenceFeature: string; TypeFeature: string }) => [
        f.ReferenceFeature,
        f.TypeFeature,
      ]),
      [
        ['seats', 'Limitation'],
        ['projects', 'Limitation'],
        ['api-calls', 'Consumption'],
        ['sso', 'OnOff'],
        ['priority-support', 'OnOff'],
      ],
    );
    const support = await t.api('GET', '/v1/Feature?ReferenceFeature=priority-support&Html=false');
    CatalogFeatureRecordSchema.parse(support.body);
    assert.deepEqual(
      support.body.Offers.map(
        (o: {
          ReferenceOffer: string;
          IsIncluded: boolean;
          IsAddOn: boolean;
          PricingLocalized?: string;
        }) => [o.ReferenceOffer, o.IsIncluded, o.IsAddOn, o.PricingLocalized],
      ),
      [
        ['starter', false, true, '$9.00\u00a0/\u00a0month'],
        ['pro', false, true, '$9.00\u00a0/\u00a0month'],
        ['business', true, false, undefined],
        ['enterprise', true, false, undefined],
      ],
    );
    assert.equal(support.body.Offers[3].IsOnRequest, true);
    const seats = await t.api('GET', '/v1/Feature?ReferenceFeature=seats');
    assert.deepEqual(
      seats.body.Offers.map((o: { ReferenceOffer: string; QuantityIncluded: number }) => [
        o.ReferenceOffer,
        o.QuantityIncluded,
      ]),
      [
        ['pro', 5],
        ['business', -1],
        ['enterprise', -1],
      ],
    );
  });

  it('filters and pages; IgnoreOffers leaves the offers out; unknown is a 404', async () => {
    const onOff = await t.api('GET', '/v1/Features?TypeFeature=OnOff&IgnoreOffers=true');
    assert.deepEqual(
      onOff.body.Items.map((f: { ReferenceFeature: string; Offers?: unknown }) => [
        f.ReferenceFeature,
        f.Offers,
      ]),
      [
        ['sso', undefined],
        ['priority-support', undefined],
      ],
    );
    const count = await t.api('GET', '/v1/Features?SizePage=0');
    assert.equal(count.body.TotalItems, 5);
    const french = await t.api('GET', '/v1/Feature?ReferenceFeature=seats&Language=fr');
    assert.equal(french.body.TitleLocalized, 'Sièges');
    const unknown = await t.api('GET', '/v1/Feature?ReferenceFeature=teleport');
    assertRefused(unknown, 404, 'Error.Feature.NotFound');
    assert.equal(unknown.body.Target, 'ReferenceFeature');
  });
});

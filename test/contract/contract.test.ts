import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  FeatureReferenceSchema,
  parseFeatureProperties,
  PricingUsageResultSchema,
  PurchaseRequestSchema,
  ServiceErrorBodySchema,
  SubscriptionSchema,
  UsagesPageSchema,
  findLink,
} from '../../src/contract/index.js';

describe('contract schemas', () => {
  it('keeps unknown fields and accepts enum values beyond the seed', () => {
    const parsed = SubscriptionSchema.parse({
      Id: 1,
      IdSegment: 2,
      IdOffer: 3,
      IdCustomer: 4,
      ReferenceSegment: 'seg',
      ReferenceOffer: 'pro',
      ReferenceCustomer: 'c1',
      StateSubscription: 'SuspendedByOperator',
      UnitRecurrence: 'Quarter',
      SomethingNew: { nested: true },
      Features: [
        { Id: 1, ReferenceFeature: 'api-calls', TypeFeature: 'Consumption', QuantityCurrent: 3 },
      ],
      Links: [{ rel: 'hosted-upgrade', href: 'https://x/upgrade/t' }],
    });
    assert.equal(parsed.StateSubscription, 'SuspendedByOperator');
    assert.deepEqual((parsed as Record<string, unknown>).SomethingNew, { nested: true });
    assert.equal(findLink(parsed.Links, 'hosted-upgrade')?.href, 'https://x/upgrade/t');
    assert.equal(findLink(parsed.Links, 'hosted-restart'), undefined);
  });

  it('rejects wrong types with the path of the field', () => {
    const result = UsagesPageSchema.safeParse({
      Page: 1,
      SizePage: 10,
      Count: 1,
      TotalItems: 1,
      Items: [{ IdSubscription: 'x' }],
    });
    assert.equal(result.success, false);
    assert.deepEqual(result.error?.issues[0]?.path, ['Items', 0, 'IdSubscription']);
  });

  it('parses pricing results with NextTerm and Details', () => {
    const parsed = PricingUsageResultSchema.parse({
      ReferenceFeature: 'seats',
      LabelLocalized: 'Due now',
      PricingLocalized: '$12.00',
      Currency: 'USD',
      AmountSubtotal: 1200,
      AmountTotal: 1200,
      Details: [{ LabelLocalized: 'Seats', AmountTotal: 1200 }],
      NextTerm: {
        LabelLocalized: 'Then',
        PricingLocalized: '$60.00\u00a0/\u00a0month',
        AmountSubtotal: 6000,
        AmountTotal: 6000,
      },
    });
    assert.equal(parsed.NextTerm?.AmountTotal, 6000);
  });

  it('accepts one error or an array of errors', () => {
    assert.ok(
      ServiceErrorBodySchema.safeParse({ Code: 'Error.Api.Usage.NoneMatching', Message: 'No' })
        .success,
    );
    assert.ok(
      ServiceErrorBodySchema.safeParse([
        { Code: 'Error.Api.Validation', Message: 'Bad', Target: 'Increment' },
      ]).success,
    );
    assert.equal(ServiceErrorBodySchema.safeParse({ Message: 'no code' }).success, false);
  });

  it('splits comma-separated feature properties', () => {
    assert.deepEqual(parseFeatureProperties('None, UpdatableAfterSubscription'), [
      'None',
      'UpdatableAfterSubscription',
    ]);
  });

  it('validates proxy request bodies strictly', () => {
    assert.equal(FeatureReferenceSchema.safeParse('seats').success, true);
    assert.equal(FeatureReferenceSchema.safeParse('../etc').success, false);
    assert.equal(FeatureReferenceSchema.safeParse('').success, false);
    const ok = {
      feature: 'seats',
      increment: 2,
      idempotencyKey: 'a'.repeat(16),
      confirmedAmountTotal: 0,
    };
    assert.equal(PurchaseRequestSchema.safeParse(ok).success, true);
    assert.equal(
      PurchaseRequestSchema.safeParse({ ...ok, customer: 'someone-else' }).success,
      false,
    );
    assert.equal(PurchaseRequestSchema.safeParse({ ...ok, increment: 1.5 }).success, false);
    assert.equal(
      PurchaseRequestSchema.safeParse({ ...ok, idempotencyKey: 'short' }).success,
      false,
    );
  });
});

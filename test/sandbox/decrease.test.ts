import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertRefused, useTestSandbox, usageBody } from './helpers.js';

// A Limitation lowered, as the live service does it (seed endpoints 14 and 15, `QuantityCurrent`
// or a negative `Increment`): the seed's immediate amount is an "extra cost", never a credit, so
// nothing is credited or refunded now; the next recurring price is the lower one, and the next
// period is billed at it. The clock is frozen at 2026-11-16 00:00 UTC, half of the November
// period left. healthy is on Pro: 4900 a month, 5 seats included, then 1000 a seat.
describe('decreases of a Limitation: nothing credited now, the next term lowered', () => {
  const t = useTestSandbox();

  const price = (body: Record<string, unknown>) =>
    t.api('POST', '/v1/Pricing/Usage?NextTerm=true', body);
  const apply = (body: Record<string, unknown>) => t.api('POST', '/v1/Usage', body);
  const running = async (customer = 'healthy') =>
    (await t.customer(customer)).subscriptions.find(
      (subscription: { StateSubscription: string }) =>
        subscription.StateSubscription !== 'PendingSubscription',
    );

  it('prices and applies 7 -> 5 seats: 0 due, no credit line, no invoice, 6900 -> 4900', async () => {
    const bought = await apply(usageBody('healthy', 'seats', { QuantityCurrent: 7 }));
    assert.equal(bought.status, 200, bought.text);
    const invoices = (await t.customer('healthy')).invoices.length;
    assert.equal((await running()).AmountRecurrence, 6900);

    for (const change of [{ QuantityCurrent: 5 }, { Increment: -2 }]) {
      const priced = await price(usageBody('healthy', 'seats', change));
      assert.equal(priced.status, 200, priced.text);
      assert.equal(priced.body.AmountSubtotal, 0);
      assert.equal(priced.body.AmountTotal, 0);
      assert.equal(priced.body.AmountTotalDue, 0);
      assert.deepEqual(priced.body.Details, [], 'no Credit line: nothing is credited now');
      assert.equal(priced.body.NextTerm.AmountTotal, 4900);
    }

    const lowered = await apply(usageBody('healthy', 'seats', { QuantityCurrent: 5 }));
    assert.equal(lowered.status, 200, lowered.text);
    assert.equal(lowered.body.QuantityCurrent, 5);
    const state = await t.customer('healthy');
    assert.equal(state.invoices.length, invoices, 'no invoice and no credit note');
    assert.equal(state.usageLog.at(-1).invoiceId, null);
    assert.equal((await running()).AmountRecurrence, 4900);

    // The next period is billed at the lower price.
    await t.control('POST', '/clock', { set: '2026-12-01T00:00:00Z' });
    const renewal = (await t.customer('healthy')).invoices.at(-1);
    assert.equal(renewal.AmountTotal, 4900);
    assert.equal(renewal.DateIssue, '2026-12-01T00:00:00.000Z');
  });

  it('needs no payment method (nothing is billed), and still refuses a suspended subscription', async () => {
    // no-payment-method has 5 seats: down to 4 costs nothing and needs no card.
    const free = await apply(usageBody('no-payment-method', 'seats', { QuantityCurrent: 4 }));
    assert.equal(free.status, 200, free.text);
    assert.equal(free.body.QuantityCurrent, 4);
    const suspended = await apply(usageBody('capping-reached', 'seats', { QuantityCurrent: 1 }));
    assertRefused(suspended, 403, 'Error.Customer.Billing.CappingReached');
  });

  it('refuses below zero, naming the field, and changes nothing', async () => {
    for (const change of [{ QuantityCurrent: -1 }, { Increment: -4 }]) {
      const refused = await apply(usageBody('healthy', 'seats', change));
      assert.equal(refused.status, 422, refused.text);
      assert.equal(
        (await running()).Features.find(
          (f: { ReferenceFeature: string }) => f.ReferenceFeature === 'seats',
        ).QuantityCurrent,
        3,
      );
    }
  });
});

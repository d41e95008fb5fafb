// The customer's plan through the proxy, against the real sandbox: the offers, the quote of a
// move, and the move itself, re-quoted and applied exactly once per confirmation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBillingProxy, type BillingProxy } from '../../src/server/index.js';
import { call, control, proxyOptions, serviceCall, useSandbox, countedProxy } from './helpers.js';

describe('plan changes', () => {
  const sandbox = useSandbox();

  async function quote(proxy: BillingProxy, offer: string, customer = 'healthy') {
    const { status, body } = await call(proxy, '/plan/quote', { customer, body: { offer } });
    assert.equal(status, 200, JSON.stringify(body));
    return body;
  }

  /** The customer's running subscription, and the invoices issued for it. */
  async function planOf(customer = 'healthy') {
    const state = await control(sandbox).customer(customer);
    const running = state.subscriptions.find(
      (subscription: { StateSubscription: string }) => subscription.StateSubscription === 'Running',
    );
    return {
      offer: running.ReferenceOffer as string,
      offerAfterTerm: (running.ReferenceOfferAfterTerm ?? null) as string | null,
      invoices: state.invoices.length as number,
      lastInvoiceTotal: state.invoices.at(-1)?.AmountTotal as number | undefined,
    };
  }

  /** How many times the proxy called the service's upgrade, per subscription. */
  function upgradeCalls(counter: { calls: Record<string, number> }): number[] {
    return Object.entries(counter.calls)
      .filter(([route]) => /^POST \/v1\/Subscription\/\d+\/Upgrade$/.test(route))
      .map(([, count]) => count);
  }

  function change(offer: string, key: string, due: number, next: number) {
    return {
      offer,
      idempotencyKey: key,
      confirmedAmountTotal: due,
      confirmedNextTermAmountTotal: next,
    };
  }

  it('lists the visible offers of the grid, the current one marked', async () => {
    const proxy = createBillingProxy(proxyOptions(sandbox));
    const { status, body } = await call(proxy, '/offers');
    assert.equal(status, 200, JSON.stringify(body));
    const offers = body.offers as { ReferenceOffer: string; IsCurrent?: boolean }[];
    assert.deepEqual(
      offers.map((offer) => offer.ReferenceOffer),
      ['starter', 'pro', 'business'],
    );
    assert.equal(offers.find((offer) => offer.IsCurrent)?.ReferenceOffer, 'pro');
    assert.equal((await call(proxy, '/offers?x=1')).status, 400);
  });

  it('lists the subscriptions the business prepared for a running customer, as offers', async () => {
    const proxy = createBillingProxy(proxyOptions(sandbox));
    const { status, body } = await call(proxy, '/offers');
    assert.equal(status, 200, JSON.stringify(body));
    // healthy runs Pro; the business prepared a custom Enterprise subscription (sold on request,
    // not in the visible grid) at its own price.
    assert.equal(body.prepared.length, 1, JSON.stringify(body.prepared));
    const [{ subscription, offer }] = body.prepared;
    const state = await control(sandbox).customer('healthy');
    const custom = state.subscriptions.find(
      (candidate: { StateSubscription: string }) =>
        candidate.StateSubscription === 'PendingSubscription',
    );
    assert.equal(subscription, custom.Id);
    assert.equal(offer.ReferenceOffer, 'enterprise');
    assert.equal(offer.TitleLocalized, 'Enterprise');
    assert.equal(offer.AmountRecurrence, 49_900);
    assert.equal(offer.Currency, 'USD');
    assert.equal(offer.UnitRecurrence, 'Month');
    assert.equal(offer.IsOnRequest, false);
    assert.ok(
      offer.Features.some(
        (feature: { ReferenceFeature: string }) => feature.ReferenceFeature === 'seats',
      ),
    );
    // Another running customer, for whom the business prepared nothing, has none.
    const discounted = await call(proxy, '/offers', { customer: 'discounted' });
    assert.deepEqual(discounted.body.prepared, []);

    // Once taken, it is the customer's plan: outside the visible grid, still a card, current.
    const running = state.subscriptions.find(
      (candidate: { StateSubscription: string }) => candidate.StateSubscription === 'Running',
    );
    const taken = await serviceCall(
      sandbox,
      'POST',
      `/v1/Subscription/${running.Id}/Upgrade?IdSubscription=${custom.Id}`,
    );
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
    const after = await call(proxy, '/offers');
    assert.deepEqual(after.body.prepared, []);
    const current = after.body.offers.filter(
      (candidate: { IsCurrent?: boolean }) => candidate.IsCurrent,
    );
    assert.equal(current.length, 1, JSON.stringify(after.body.offers));
    assert.equal(current[0].ReferenceOffer, 'enterprise');
    assert.equal(current[0].AmountRecurrence, 49_900);
    assert.equal(current[0].Currency, 'USD');
  });

  it('lists no prepared subscription without a running one, nor when they cannot be read', async () => {
    const proxy = createBillingProxy(proxyOptions(sandbox));
    // A pending subscription of a customer without a running one is its own, to complete.
    for (const customer of ['pending', 'no-subscription', 'suspended']) {
      const { status, body } = await call(proxy, '/offers', { customer });
      assert.equal(status, 200, `${customer}: ${JSON.stringify(body)}`);
      assert.deepEqual(body.prepared, [], customer);
      assert.ok(body.offers.length > 0, customer);
    }
    // A service that cannot list subscriptions leaves the plans as they are, and says so in the log.
    const logged: { event: string }[] = [];
    const logging = createBillingProxy({
      ...proxyOptions(sandbox),
      logger: (entry) => logged.push(entry),
    });
    await control(sandbox).fault({ route: 'GET /v1/Subscriptions', mode: 'status-500', times: 3 });
    const { status, body } = await call(logging, '/offers');
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.prepared, []);
    assert.equal(body.offers.length, 3);
    assert.ok(
      logged.some((entry) => entry.event === 'subscriptions-unread'),
      JSON.stringify(logged),
    );
  });

  it('quotes an upgrade now and a downgrade at the end of the period, changing nothing', async () => {
    const proxy = createBillingProxy(proxyOptions(sandbox));
    const before = await planOf();
    const upgrade = await quote(proxy, 'business');
    assert.equal(upgrade.IsImmediate, true);
    assert.ok(upgrade.AmountTotalDue > 0);
    assert.ok(upgrade.NextTerm.AmountTotal > 0);
    const downgrade = await quote(proxy, 'starter');
    assert.equal(downgrade.IsImmediate, false);
    assert.equal(downgrade.AmountTotalDue, 0);
    assert.ok(Date.parse(downgrade.DateEffective) > Date.now());
    assert.deepEqual(await planOf(), before);
  });

  it('refuses a stale price with the new quote, then applies the confirmed one once', async () => {
    const { counter, proxy } = countedProxy(sandbox);
    const priced = await quote(proxy, 'business');
    const stale = await call(proxy, '/plan', {
      body: change('business', 'plan-stale-price-0001', priced.AmountTotalDue + 1, 0),
    });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.code, 'price-changed');
    assert.equal(stale.body.quote.AmountTotalDue, priced.AmountTotalDue);
    assert.equal((await planOf()).offer, 'pro', 'nothing changed');

    const confirmed = change(
      'business',
      'plan-confirmed-00001',
      priced.AmountTotalDue,
      priced.NextTerm.AmountTotal,
    );
    const invoicesBefore = (await planOf()).invoices;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call(proxy, '/plan', { body: confirmed })),
    );
    assert.ok(
      answers.every((answer) => answer.status === 200),
      answers[0]?.text,
    );
    assert.equal(answers.filter((answer) => !answer.body.replayed).length, 1);
    assert.ok(answers.every((answer) => answer.body.offer === 'business'));
    const after = await planOf();
    assert.equal(after.offer, 'business');
    assert.equal(after.invoices - invoicesBefore, 1, 'one invoice');
    assert.equal(after.lastInvoiceTotal, priced.AmountTotalDue, 'at the confirmed price');
    assert.deepEqual(upgradeCalls(counter), [1]);
  });

  it('schedules a downgrade for the end of the period', async () => {
    const proxy = createBillingProxy(proxyOptions(sandbox));
    const priced = await quote(proxy, 'starter');
    const { status, body } = await call(proxy, '/plan', {
      body: change('starter', 'plan-downgrade-00001', 0, priced.NextTerm.AmountTotal),
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.offer, 'pro');
    assert.equal(body.offerAfterTerm, 'starter');
    assert.equal(body.dateEffective, priced.DateEffective);
    assert.equal((await planOf()).offerAfterTerm, 'starter');
  });

  it('says a scheduled downgrade, and keeps the current plan by choosing it again', async () => {
    const proxy = createBillingProxy(proxyOptions(sandbox));
    const nothingScheduled = (await call(proxy, '/subscription')).body;
    assert.deepEqual(
      [
        nothingScheduled.offerAfterTerm,
        nothingScheduled.titleAfterTerm,
        nothingScheduled.dateOfferChange,
      ],
      [null, null, null],
    );
    const down = await quote(proxy, 'starter');
    const scheduled = await call(proxy, '/plan', {
      body: change('starter', 'plan-keep-downgrade-1', 0, down.NextTerm.AmountTotal),
    });
    assert.equal(scheduled.status, 200, scheduled.text);
    const status = (await call(proxy, '/subscription')).body;
    assert.deepEqual(
      [status.offer, status.offerAfterTerm, status.titleAfterTerm, status.dateOfferChange],
      ['pro', 'starter', 'Starter', down.DateEffective],
    );
    // Keeping Pro: quoted (nothing now, Pro's recurring price), confirmed, applied once.
    const keep = await quote(proxy, 'pro');
    assert.deepEqual(
      [keep.TypeChange, keep.AmountTotalDue, keep.NextTerm.AmountTotal],
      ['None', 0, 4900],
    );
    const body = change('pro', 'plan-keep-current-01', 0, keep.NextTerm.AmountTotal);
    const kept = await call(proxy, '/plan', { body });
    assert.equal(kept.status, 200, kept.text);
    assert.deepEqual([kept.body.offer, kept.body.offerAfterTerm], ['pro', null]);
    assert.equal((await planOf()).offerAfterTerm, null);
    assert.equal((await call(proxy, '/subscription')).body.offerAfterTerm, null);
    const again = await call(proxy, '/plan', { body });
    assert.equal(again.body.replayed, true);
    // Nothing scheduled any more: Pro is the plan, as before.
    assert.equal((await call(proxy, '/plan/quote', { body: { offer: 'pro' } })).status, 409);
  });

  it('reconciles a change whose answer was lost, and a retry does not change again', async () => {
    const { counter, proxy } = countedProxy(sandbox, { timeouts: { reconcileMs: 1_000 } });
    const priced = await quote(proxy, 'business');
    await control(sandbox).fault({
      route: 'POST /v1/Subscription/{id}/Upgrade',
      mode: 'drop-after-apply',
    });
    const body = change(
      'business',
      'plan-dropped-answer-1',
      priced.AmountTotalDue,
      priced.NextTerm.AmountTotal,
    );
    const first = await call(proxy, '/plan', { body });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.offer, 'business');
    const retry = await call(proxy, '/plan', { body });
    assert.equal(retry.body.replayed, true);
    assert.deepEqual(upgradeCalls(counter), [1]);
  });

  it('says what stands in the way: on request, no subscription, already on the plan', async () => {
    const proxy = createBillingProxy(proxyOptions(sandbox));
    const onRequest = await call(proxy, '/plan/quote', { body: { offer: 'enterprise' } });
    assert.equal(onRequest.status, 403);
    assert.equal(onRequest.body.code, 'offer-on-request');
    const none = await call(proxy, '/plan/quote', {
      customer: 'brand-new-customer',
      body: { offer: 'pro' },
    });
    assert.equal(none.status, 404);
    assert.equal(none.body.code, 'no-subscription');
    const same = await call(proxy, '/plan/quote', { body: { offer: 'pro' } });
    assert.equal(same.status, 409);
    assert.equal(same.body.code, 'already-on-offer');
    const invalid = await call(proxy, '/plan', { body: { offer: 'business' } });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.code, 'validation');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryIdempotencyStore } from '../../src/server/index.js';
import {
  call,
  collectingLogger,
  control,
  serviceCall,
  startSandbox,
  useSandbox,
  seatsPurchase,
  ledgerOf,
  countedProxy,
  proxyOver,
  priceThrough,
} from './helpers.js';

// What touches money beyond exactly once: a success whose body cannot be read, a price confirmed
// as the billing period ends, and an apply whose answer shows something else changed the feature.
describe('purchases: money safety', () => {
  const sandbox = useSandbox();

  const ledger = () => ledgerOf(sandbox);

  for (const mode of ['html-after-apply', 'empty-after-apply'] as const) {
    it(`takes a 2xx with an unreadable body (${mode}) as applied: read back, stored, never applied again`, async () => {
      const { logger, entries } = collectingLogger();
      // The store's clock is the test's, moved past the refusals' time to live below.
      let later = 0;
      const { counter, proxy } = countedProxy(sandbox, {
        logger,
        // A refusal would be forgotten quickly: a retry after it must still not apply again.
        limits: { rateLimit: false, failedPurchaseTtlMs: 100 },
        idempotencyStore: createMemoryIdempotencyStore({ now: () => Date.now() + later }),
      });
      const { AmountTotal: amount } = await priceThrough(proxy);
      await control(sandbox).fault({ route: 'POST /v1/Usage', mode });
      const purchase = seatsPurchase(`unreadable-success-${mode}`, amount);
      const first = await call(proxy, '/usage', { body: purchase });
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.replayed, false);
      assert.equal(first.body.usage.QuantityCurrent, 6, 'the usage read back');
      assert.equal(first.body.amountConfirmed, true);
      assert.ok(entries.some((entry) => entry.event === 'apply-answer-unreadable'));

      // Past failedPurchaseTtlMs, the retry is still a replay.
      later += 200;
      const retry = await call(proxy, '/usage', { body: purchase });
      assert.equal(retry.status, 200, retry.text);
      assert.equal(retry.body.replayed, true);
      const after = await ledger();
      assert.equal(after.count, 1);
      assert.equal(after.invoices, 1);
      assert.equal(after.quantity, 6);
      assert.equal(counter.calls['POST /v1/Usage'], 1);
    });
  }

  it('never charges a price confirmed as the period ends at the next period’s price', async () => {
    const { logger, entries } = collectingLogger();
    const proxy = proxyOver(sandbox, { logger, timeouts: { applyMs: 5_000 } });
    // Three seconds before the period turns, the sandbox's clock running from there.
    const { periodEnd } = await ledger();
    await control(sandbox).setClock(new Date(Date.parse(periodEnd) - 3_000).toISOString());
    const lastMoment = await priceThrough(proxy);
    assert.equal(lastMoment.DatePeriodTerm, periodEnd);
    // The service takes 3.5 s to process the apply: sent now, it would be priced after the turn.
    await control(sandbox).fault({ route: 'POST /v1/Usage', mode: 'delay', delayMs: 3_500 });
    const refused = await call(proxy, '/usage', {
      body: seatsPurchase('period-turn-confirmed-1', lastMoment.AmountTotal),
    });
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.code, 'price-changed');
    const fresh = refused.body.pricing;
    assert.notEqual(fresh.AmountTotal, lastMoment.AmountTotal);
    assert.ok(Date.parse(fresh.DatePeriodTerm) > Date.parse(periodEnd), 'priced in the new period');
    assert.equal((await ledger()).count, 0, 'nothing applied at a price nobody saw');
    assert.ok(entries.some((entry) => entry.event === 'purchase-awaits-period-turn'));

    // The customer confirms the new price: applied once, invoiced at that price.
    const confirmed = await call(proxy, '/usage', {
      body: seatsPurchase('period-turn-confirmed-2', fresh.AmountTotal),
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    const after = await ledger();
    assert.equal(after.count, 1);
    assert.deepEqual(after.invoiceAmounts, [fresh.AmountTotal]);
  });

  it('refuses with period-ending and a fresh price when the service’s period does not turn', async () => {
    const proxy = proxyOver(sandbox, { timeouts: { applyMs: 1_000 } });
    const frozen = await startSandbox({ now: '2026-11-30T23:59:59.000Z' });
    try {
      const frozenProxy = proxyOver(frozen, { timeouts: { applyMs: 1_000 } });
      const quote = await priceThrough(frozenProxy);
      const answer = await call(frozenProxy, '/usage', {
        body: seatsPurchase('period-never-turns-01', quote.AmountTotal),
      });
      assert.equal(answer.status, 409, answer.text);
      assert.equal(answer.body.code, 'period-ending');
      assert.equal(answer.body.pricing.AmountTotal, quote.AmountTotal);
      const stats = await control(frozen).stats();
      assert.equal(stats.appliedUsageChanges, 0);
    } finally {
      await frozen.close();
    }
    // Far from a period's end nothing waits.
    const started = Date.now();
    const quote = await priceThrough(proxy);
    const answer = await call(proxy, '/usage', {
      body: seatsPurchase('period-far-from-end-1', quote.AmountTotal),
    });
    assert.equal(answer.status, 200, answer.text);
    assert.ok(Date.now() - started < 1_000);
  });

  it('says the amount is unconfirmed when the apply shows another change of the feature', async () => {
    const { logger, entries } = collectingLogger();
    // The host's back end reports usage of the same feature while the purchase is applied.
    const concurrent: typeof fetch = async (input, init) => {
      const url = new URL(String(input));
      if (init?.method === 'POST' && url.pathname === '/v1/Usage') {
        const other = await serviceCall(sandbox, 'POST', '/v1/Usage', {
          ReferenceCustomer: 'healthy',
          ReferenceFeature: 'projects',
          Increment: 1,
          DateStamp: new Date().toISOString(),
        });
        assert.equal(other.status, 200, JSON.stringify(other.body));
      }
      return fetch(input, init);
    };
    const proxy = proxyOver(sandbox, { fetch: concurrent, logger });
    const { AmountTotal: amount } = await priceThrough(proxy, 'projects', 1);
    const answer = await call(proxy, '/usage', {
      body: {
        feature: 'projects',
        increment: 1,
        idempotencyKey: 'concurrent-change-0001',
        confirmedAmountTotal: amount,
      },
    });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.usage.QuantityCurrent, 6, 'both changes applied');
    assert.equal(answer.body.amountConfirmed, false);
    assert.ok(entries.some((entry) => entry.event === 'purchase-amount-unconfirmed'));
    // A plain purchase is confirmed.
    const plain = proxyOver(sandbox);
    const again = await call(plain, '/usage', {
      body: {
        feature: 'projects',
        increment: 1,
        idempotencyKey: 'plain-change-00000001',
        confirmedAmountTotal: amount,
      },
    });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.amountConfirmed, true);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryIdempotencyStore, type BillingProxy } from '../../src/server/index.js';
import {
  call,
  collectingLogger,
  control,
  useSandbox,
  seatsPurchase,
  ledgerOf,
  countedProxy,
  proxyOver,
  priceThrough,
} from './helpers.js';
import { waitFor } from '../time.js';

// Exactly-once purchases against the real sandbox, including its injected faults.
describe('purchases: price check and exactly once', () => {
  const sandbox = useSandbox();

  /** The amount the proxy quotes now: what a purchase confirms. */
  const price = async (
    proxy: BillingProxy,
    feature?: string,
    increment?: number,
    customer?: string,
  ) => (await priceThrough(proxy, feature, increment, customer)).AmountTotal as number;

  const applied = (customer = 'healthy') => ledgerOf(sandbox, customer);

  it('refuses a forged or stale confirmedAmountTotal with 409 price-changed and the current price', async () => {
    const proxy = proxyOver(sandbox);
    const amount = await price(proxy);
    assert.ok(amount > 0);
    for (const forged of [0, amount - 1, amount + 1]) {
      const { status, body } = await call(proxy, '/usage', {
        body: seatsPurchase(`forged-amount-${forged}-key`, forged),
      });
      assert.equal(status, 409);
      assert.equal(body.code, 'price-changed');
      assert.equal(body.pricing.AmountTotal, amount);
    }
    assert.equal((await applied()).count, 0);
  });

  it('refuses a purchase whose confirmed recurring price is not the service’s, and applies the one that is', async () => {
    const proxy = proxyOver(sandbox);
    const quote = await priceThrough(proxy);
    const amount = quote.AmountTotal as number;
    const nextTerm = (quote.NextTerm as { AmountTotal: number }).AmountTotal;
    assert.ok(nextTerm > 0);
    // Confirmed at another recurring price (another change since, or another customer's
    // dialog): refused with the service's price, nothing applied.
    for (const confirmed of [nextTerm - 900, nextTerm + 900]) {
      const { status, body } = await call(proxy, '/usage', {
        body: {
          ...seatsPurchase(`next-term-${confirmed}-key`, amount),
          confirmedNextTermAmountTotal: confirmed,
        },
      });
      assert.equal(status, 409);
      assert.equal(body.code, 'price-changed');
      assert.equal(body.pricing.NextTerm.AmountTotal, nextTerm);
    }
    assert.equal((await applied()).count, 0);
    // A bad figure is refused before anything is asked.
    const bad = await call(proxy, '/usage', {
      body: { ...seatsPurchase('next-term-bad-key', amount), confirmedNextTermAmountTotal: -1 },
    });
    assert.equal(bad.status, 400);
    // The prices confirmed: applied once.
    const right = await call(proxy, '/usage', {
      body: {
        ...seatsPurchase('next-term-right-key', amount),
        confirmedNextTermAmountTotal: nextTerm,
      },
    });
    assert.equal(right.status, 200, right.text);
    assert.equal((await applied()).count, 1);
  });

  it('lets a refused key be retried with the new price once confirmed', async () => {
    const proxy = proxyOver(sandbox);
    const amount = await price(proxy);
    const key = 'retry-after-price-change';
    const stale = await call(proxy, '/usage', {
      body: {
        feature: 'seats',
        increment: 3,
        idempotencyKey: key,
        confirmedAmountTotal: amount + 100,
      },
    });
    assert.equal(stale.status, 409);
    const confirmed = await call(proxy, '/usage', {
      body: { feature: 'seats', increment: 3, idempotencyKey: key, confirmedAmountTotal: amount },
    });
    assert.equal(confirmed.status, 200);
    assert.equal((await applied()).count, 1);
  });

  it('shares a refusal with identical duplicates, and forgets it after failedPurchaseTtlMs', async () => {
    // The store's clock is the test's: it moves past the refusal's time to live at once.
    let later = 0;
    const { counter, proxy } = countedProxy(sandbox, {
      limits: { rateLimit: false, failedPurchaseTtlMs: 1500 },
      idempotencyStore: createMemoryIdempotencyStore({ now: () => Date.now() + later }),
    });
    const purchase = {
      feature: 'seats',
      increment: 1,
      idempotencyKey: 'refusal-shared-key',
      confirmedAmountTotal: 0,
    };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(proxy, '/usage', { customer: 'no-payment-method', body: purchase }),
      ),
    );
    assert.deepEqual(
      answers.map((answer) => answer.body.code),
      Array(5).fill('Error.Customer.PaymentSettings.Missing'),
    );
    assert.equal(counter.calls['POST /v1/Pricing/Usage'], 1);
    await control(sandbox).paymentMethod('no-payment-method', 'valid');
    // Within failedPurchaseTtlMs the same purchase gets the refusal kept, without a call.
    const kept = await call(proxy, '/usage', { customer: 'no-payment-method', body: purchase });
    assert.equal(kept.body.code, 'Error.Customer.PaymentSettings.Missing');
    assert.equal(counter.calls['POST /v1/Pricing/Usage'], 1);
    // Past it, the refusal is forgotten: the same purchase is a new attempt.
    later += 1600;
    const forgotten = await call(proxy, '/usage', {
      customer: 'no-payment-method',
      body: purchase,
    });
    assert.equal(forgotten.body.code, 'price-changed', forgotten.text);
    assert.equal(counter.calls['POST /v1/Pricing/Usage'], 2);
    const amount = await price(proxy, 'seats', 1, 'no-payment-method');
    const retried = await call(proxy, '/usage', {
      customer: 'no-payment-method',
      body: { ...purchase, confirmedAmountTotal: amount },
    });
    assert.equal(retried.status, 200, retried.text);
  });

  it('keeps its record under purchase:<customer>:<key>, where earlier versions kept it', async () => {
    const store = createMemoryIdempotencyStore();
    const proxy = proxyOver(sandbox, { idempotencyStore: store });
    const answer = await call(proxy, '/usage', {
      body: seatsPurchase('record-key-format-0001', await price(proxy)),
    });
    assert.equal(answer.status, 200, answer.text);
    const record = JSON.parse((await store.get('purchase:healthy:record-key-format-0001')) ?? '{}');
    assert.equal(record.state, 'done');
    assert.equal(record.fingerprint, JSON.stringify(['seats', 3, answer.body.amountTotal]));
  });

  it('applies 100 concurrent identical purchases exactly once, with one invoice', async () => {
    const { counter, proxy } = countedProxy(sandbox);
    const amount = await price(proxy);
    const before = await applied();
    const purchase = seatsPurchase('hundred-concurrent-0001', amount);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => call(proxy, '/usage', { body: purchase })),
    );
    assert.ok(
      answers.every((answer) => answer.status === 200),
      JSON.stringify(answers.find((answer) => answer.status !== 200)?.body),
    );
    assert.equal(answers.filter((answer) => !answer.body.replayed).length, 1);
    assert.ok(answers.every((answer) => answer.body.usage.QuantityCurrent === 6));
    const after = await applied();
    assert.equal(after.count - before.count, 1);
    assert.equal(after.invoices - before.invoices, 1);
    assert.equal(after.quantity, 6);
    assert.equal(counter.calls['POST /v1/Usage'], 1);
    assert.equal(counter.calls['POST /v1/Pricing/Usage'], 2, 'the preview and one re-check');
  });

  it('serializes different keys buying the same feature, each applied once', async () => {
    const proxy = proxyOver(sandbox);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        call(proxy, '/usage', {
          body: {
            feature: 'projects',
            increment: 1,
            idempotencyKey: `distinct-keys-000${index}`,
            confirmedAmountTotal: 0,
          },
        }),
      ),
    );
    assert.ok(answers.every((answer) => answer.status === 200 && !answer.body.replayed));
    assert.deepEqual(
      answers.map((answer) => answer.body.usage.QuantityCurrent).sort(),
      [5, 6, 7, 8, 9],
    );
    assert.equal((await applied()).count, 5);
  });

  it('reconciles a timeout after the change was applied, and a retry does not apply again', async () => {
    const { logger, entries } = collectingLogger();
    const { counter, proxy } = countedProxy(sandbox, {
      logger,
      timeouts: { applyMs: 400, reconcileMs: 1000 },
    });
    const amount = await price(proxy);
    await control(sandbox).fault({
      route: 'POST /v1/Usage',
      mode: 'delay-after-apply',
      delayMs: 2000,
    });
    const purchase = seatsPurchase('timeout-after-apply-01', amount);
    const first = await call(proxy, '/usage', { body: purchase });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.replayed, false);
    assert.equal(first.body.usage.QuantityCurrent, 6);
    assert.ok(entries.some((entry) => entry.event === 'purchase-ambiguous'));
    const retry = await call(proxy, '/usage', { body: purchase });
    assert.equal(retry.status, 200);
    assert.equal(retry.body.replayed, true);
    assert.equal(counter.calls['POST /v1/Usage'], 1);
    assert.equal((await applied()).count, 1);
  });

  it('reconciles a connection dropped after the change was applied', async () => {
    const proxy = proxyOver(sandbox);
    const amount = await price(proxy);
    await control(sandbox).fault({ route: 'POST /v1/Usage', mode: 'drop-after-apply' });
    const purchase = seatsPurchase('drop-after-apply-0001', amount);
    const first = await call(proxy, '/usage', { body: purchase });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.usage.QuantityCurrent, 6);
    const retry = await call(proxy, '/usage', { body: purchase });
    assert.equal(retry.body.replayed, true);
    assert.equal((await applied()).count, 1);
  });

  it('reports a drop before apply as a failure, and the retry with the same key applies once', async () => {
    const { counter, proxy } = countedProxy(sandbox, { timeouts: { reconcileMs: 200 } });
    const amount = await price(proxy);
    await control(sandbox).fault({ route: 'POST /v1/Usage', mode: 'drop-before-apply' });
    const purchase = seatsPurchase('drop-before-apply-001', amount);
    const first = await call(proxy, '/usage', { body: purchase });
    assert.equal(first.status, 503, first.text);
    assert.equal(first.body.code, 'upstream-unavailable');
    assert.equal((await applied()).count, 0);
    const retry = await call(proxy, '/usage', { body: purchase });
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.body.replayed, false);
    const again = await call(proxy, '/usage', { body: purchase });
    assert.equal(again.body.replayed, true);
    assert.equal((await applied()).count, 1);
    assert.equal(counter.calls['POST /v1/Usage'], 2);
  });

  it('keeps an unresolved apply recorded when the retry cannot read back', async () => {
    const { counter, proxy } = countedProxy(sandbox, { timeouts: { reconcileMs: 100 } });
    const amount = await price(proxy);
    await control(sandbox).fault({ route: 'POST /v1/Usage', mode: 'drop-after-apply' });
    // The read before applying works (a zero delay uses up the first fault), then every
    // read-back fails: the first attempt cannot tell, and gives the key up.
    await control(sandbox).fault({ route: 'GET /v1/Usages', mode: 'delay', delayMs: 0, times: 1 });
    await control(sandbox).fault({ route: 'GET /v1/Usages', mode: 'status-500', times: 1000 });
    const purchase = seatsPurchase('unresolved-apply-kept-1', amount);
    const first = await call(proxy, '/usage', { body: purchase });
    assert.equal(first.status, 503, first.text);
    // A retry while reads still fail must not apply (it cannot check the first attempt).
    const blind = await call(proxy, '/usage', { body: purchase });
    assert.equal(blind.status, 503, blind.text);
    await control(sandbox).clearFaults();
    // Once reads work, the retry finds the first attempt's change.
    const retry = await call(proxy, '/usage', { body: purchase });
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.body.usage.QuantityCurrent, 6);
    assert.equal((await applied()).count, 1);
    assert.equal(counter.calls['POST /v1/Usage'], 1);
  });

  it('finds a late apply when the retry comes: the retry reads back before applying', async () => {
    // The apply lands after the proxy gave up on it (timeout shorter than the service's delay,
    // reconcile window shorter still): the retry must find it instead of applying again.
    const store = createMemoryIdempotencyStore();
    const { counter, proxy } = countedProxy(sandbox, {
      idempotencyStore: store,
      timeouts: { applyMs: 100, reconcileMs: 100 },
    });
    const amount = await price(proxy);
    await control(sandbox).fault({ route: 'POST /v1/Usage', mode: 'delay', delayMs: 600 });
    const purchase = seatsPurchase('late-apply-found-0001', amount);
    const first = await call(proxy, '/usage', { body: purchase });
    assert.equal(first.status, 504, first.text);
    // Wait for the service to have applied it (late), whatever the machine's load.
    await waitFor(async () => (await applied()).count > 0, 'the delayed apply to land');
    const stats = await applied();
    assert.equal(stats.count, 1, 'the delayed apply landed after the proxy gave up');
    const retry = await call(proxy, '/usage', { body: purchase });
    assert.equal(retry.status, 200, retry.text);
    assert.equal((await applied()).count, stats.count, 'the retry applied nothing new');
    assert.equal(retry.body.usage.QuantityCurrent, 6);
    assert.equal(counter.calls['POST /v1/Usage'], 1);
  });

  it('treats a 500 on apply as ambiguous and reconciles it', async () => {
    const proxy = proxyOver(sandbox, { timeouts: { reconcileMs: 200 } });
    const amount = await price(proxy);
    await control(sandbox).fault({ route: 'POST /v1/Usage', mode: 'status-500' });
    const purchase = seatsPurchase('status-500-on-apply-1', amount);
    const first = await call(proxy, '/usage', { body: purchase });
    const count = (await applied()).count;
    if (first.status === 200) assert.equal(count, 1);
    else {
      assert.equal(first.status, 503);
      assert.equal(count, 0);
    }
    const retry = await call(proxy, '/usage', { body: purchase });
    assert.equal(retry.status, 200);
    assert.equal((await applied()).count, 1);
  });
});

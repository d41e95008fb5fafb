import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BillingProxy } from '../../src/server/index.js';
import {
  call,
  collectingLogger,
  control,
  countedProxy,
  ledgerOf,
  proxyOver,
  serviceCall,
  useSandbox,
} from './helpers.js';

// Decreases of a Limitation ("seats") through POST /pricing and POST /usage with `quantity`: the
// real proxy against the real sandbox over HTTP. healthy is on Pro (4900 a month, 5 seats
// included, then 1000 a seat) with 3 seats; each test first brings them to 7 (2 extra, 6900 a
// month) through the service itself, so that a decrease has extras to remove.
describe('decreases: priced, confirmed and applied exactly once', () => {
  const sandbox = useSandbox();
  const ledger = () => ledgerOf(sandbox);

  async function sevenSeats(customer = 'healthy'): Promise<void> {
    const answer = await serviceCall(sandbox, 'POST', '/v1/Usage', {
      ReferenceCustomer: customer,
      ReferenceFeature: 'seats',
      QuantityCurrent: 7,
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  }

  type Price = { AmountTotal: number; NextTerm: { AmountTotal: number } };

  async function price(proxy: BillingProxy, quantity: number, inUse?: number): Promise<Price> {
    const body = { feature: 'seats', quantity, ...(inUse === undefined ? {} : { inUse }) };
    const answer = await call(proxy, '/pricing', { body });
    assert.equal(answer.status, 200, answer.text);
    return answer.body as Price;
  }

  function decrease(key: string, quantity: number, pricing: Price) {
    return {
      feature: 'seats',
      quantity,
      idempotencyKey: key,
      confirmedAmountTotal: pricing.AmountTotal,
      confirmedNextTermAmountTotal: pricing.NextTerm.AmountTotal,
    };
  }

  it('prices a decrease: nothing credited now, the lower recurring price next term', async () => {
    await sevenSeats();
    const proxy = proxyOver(sandbox);
    const before = await ledger();
    const pricing = await price(proxy, 5);
    assert.equal(pricing.AmountTotal, 0);
    assert.equal(pricing.NextTerm.AmountTotal, 4900);
    // Pricing changes nothing.
    assert.deepEqual(await ledger(), before);
  });

  it('applies 20 concurrent duplicate confirmations once, with no invoice and no credit', async () => {
    await sevenSeats();
    const { counter, proxy } = countedProxy(sandbox);
    const pricing = await price(proxy, 5);
    const before = await ledger();
    const invoicesBefore = (await control(sandbox).customer('healthy')).invoices.length;
    const body = decrease('twenty-concurrent-decrease', 5, pricing);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call(proxy, '/usage', { body })),
    );
    assert.ok(
      answers.every((answer) => answer.status === 200),
      JSON.stringify(answers.find((answer) => answer.status !== 200)?.body),
    );
    assert.equal(answers.filter((answer) => !answer.body.replayed).length, 1);
    for (const { body: answer } of answers) {
      assert.equal(answer.usage.QuantityCurrent, 5);
      assert.equal(answer.amountTotal, 0);
      assert.equal(answer.nextTermAmountTotal, 4900);
    }
    assert.equal(counter.calls['POST /v1/Usage'], 1);
    const after = await ledger();
    assert.equal(after.count - before.count, 1);
    assert.equal(after.quantity, 5);
    const state = await control(sandbox).customer('healthy');
    assert.equal(state.invoices.length, invoicesBefore, 'a decrease issues no invoice, no credit');
    const subscription = state.subscriptions.find(
      (candidate: { StateSubscription: string }) => candidate.StateSubscription === 'Running',
    );
    assert.equal(subscription.AmountRecurrence, 4900);
  });

  it('sends the new absolute quantity to the service, never a negative increment', async () => {
    await sevenSeats();
    const proxy = proxyOver(sandbox);
    const pricing = await price(proxy, 6);
    const answer = await call(proxy, '/usage', {
      body: decrease('absolute-quantity-key', 6, pricing),
    });
    assert.equal(answer.status, 200, answer.text);
    const { usageLog } = await control(sandbox).customer('healthy');
    const last = usageLog.at(-1);
    assert.deepEqual([last.quantityBefore, last.quantityAfter, last.amountTotal], [7, 6, 0]);
  });

  it('refuses a second tab confirming the same decrease under its own key: not a decrease', async () => {
    await sevenSeats();
    const proxy = proxyOver(sandbox);
    const pricing = await price(proxy, 5);
    const first = await call(proxy, '/usage', {
      body: decrease('first-tab-decrease-key', 5, pricing),
    });
    assert.equal(first.status, 200, first.text);
    const second = await call(proxy, '/usage', {
      body: decrease('other-tab-decrease-key', 5, pricing),
    });
    assert.equal(second.status, 409, second.text);
    assert.equal(second.body.code, 'not-a-decrease');
    assert.match(second.body.message, /You have 5/);
    assert.equal((await ledger()).quantity, 5);
  });

  it('refuses a changed price with 409 price-changed and the current one, changing nothing', async () => {
    await sevenSeats();
    const proxy = proxyOver(sandbox);
    const pricing = await price(proxy, 5);
    const before = await ledger();
    const stale = [
      { ...decrease('stale-now-decrease-key', 5, pricing), confirmedAmountTotal: 100 },
      {
        ...decrease('stale-next-decrease-key', 5, pricing),
        confirmedNextTermAmountTotal: pricing.NextTerm.AmountTotal + 1000,
      },
    ];
    for (const body of stale) {
      const answer = await call(proxy, '/usage', { body });
      assert.equal(answer.status, 409, answer.text);
      assert.equal(answer.body.code, 'price-changed');
      assert.equal(answer.body.pricing.AmountTotal, 0);
      assert.equal(answer.body.pricing.NextTerm.AmountTotal, 4900);
    }
    assert.deepEqual(await ledger(), before);
  });

  it('refuses below what is in use (the page says, or the host), below the plan, below zero', async () => {
    await sevenSeats();
    const proxy = proxyOver(sandbox);
    const before = await ledger();
    const confirmed = { confirmedAmountTotal: 0, confirmedNextTermAmountTotal: 4900 };
    const cases: [body: Record<string, unknown>, status: number, code: string, text: RegExp][] = [
      [{ quantity: 5, inUse: 6 }, 409, 'below-in-use', /6 are in use: you cannot go below 6/],
      [{ quantity: 4 }, 409, 'below-included', /Your plan includes 5: you cannot go below 5/],
      [{ quantity: -1 }, 400, 'validation', /"quantity": cannot be below 0/],
      [{ quantity: 7 }, 409, 'not-a-decrease', /You have 7/],
      [{ quantity: 9 }, 409, 'not-a-decrease', /You have 7/],
      [{ quantity: 2.5 }, 400, 'validation', /"quantity"/],
      [{ quantity: 5, increment: -2 }, 400, 'validation', /not several/],
    ];
    for (const [fields, status, code, text] of cases) {
      for (const path of ['/pricing', '/usage']) {
        const body =
          path === '/pricing'
            ? { feature: 'seats', ...fields }
            : {
                feature: 'seats',
                idempotencyKey: `refused-${code}-key-0001`,
                ...confirmed,
                ...fields,
              };
        const answer = await call(proxy, path, { body });
        assert.equal(answer.status, status, `${path} ${JSON.stringify(fields)}: ${answer.text}`);
        assert.equal(answer.body.code, code);
        assert.match(answer.body.message, text);
      }
    }
    // The host's own figure wins over a page that says fewer are in use.
    const hosted = proxyOver(sandbox, {
      inUse: (_identity, feature) => (feature === 'seats' ? 6 : undefined),
    });
    const told = await call(hosted, '/pricing', {
      body: { feature: 'seats', quantity: 5, inUse: 2 },
    });
    assert.equal(told.status, 409, told.text);
    assert.equal(told.body.code, 'below-in-use');
    // What is in use, when said, may be below the plan's included quantity.
    const low = await call(proxy, '/pricing', {
      body: { feature: 'seats', quantity: 2, inUse: 2 },
    });
    assert.equal(low.status, 200, low.text);
    assert.equal(low.body.NextTerm.AmountTotal, 4900);
    assert.deepEqual(await ledger(), before);
  });

  it('refuses a feature the customer does not own, or one without a quantity to lower', async () => {
    const proxy = proxyOver(sandbox);
    const before = await ledger();
    const cases: [feature: string, status: number, code: string][] = [
      ['unknown-feature', 404, 'Error.Api.Usage.NoneMatching'],
      ['priority-support', 400, 'validation'],
      ['api-calls', 400, 'validation'],
    ];
    for (const [feature, status, code] of cases) {
      const answer = await call(proxy, '/pricing', { body: { feature, quantity: 0 } });
      assert.equal(answer.status, status, `${feature}: ${answer.text}`);
      assert.equal(answer.body.code, code);
    }
    assert.deepEqual(await ledger(), before);
  });

  it('reconciles an apply whose answer is lost: applied once, the retry replayed', async () => {
    await sevenSeats();
    const entries = collectingLogger();
    const { counter, proxy } = countedProxy(sandbox, {
      logger: entries.logger,
      timeouts: { applyMs: 400, reconcileMs: 1000 },
    });
    const pricing = await price(proxy, 5);
    await control(sandbox).fault({
      route: 'POST /v1/Usage',
      mode: 'delay-after-apply',
      delayMs: 2000,
    });
    const body = decrease('decrease-timeout-after-apply', 5, pricing);
    const first = await call(proxy, '/usage', { body });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.usage.QuantityCurrent, 5);
    assert.ok(entries.entries.some((entry) => entry.event === 'decrease-ambiguous'));
    const retry = await call(proxy, '/usage', { body });
    assert.equal(retry.body.replayed, true);
    assert.equal(counter.calls['POST /v1/Usage'], 1);
  });
});

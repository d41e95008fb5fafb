// The proxy's `taxes` option: whether the customer's prices include tax is the business's word
// (the service's quotes do not tell it), said on every answer that carries prices.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBillingProxy } from '../../src/server/index.js';
import {
  call,
  collectingLogger,
  ledgerOf,
  proxyOptions,
  proxyOver,
  seatsPurchase,
  useSandbox,
} from './helpers.js';

describe('taxes option', () => {
  const sandbox = useSandbox();

  it('says nothing of tax when unset', async () => {
    const proxy = proxyOver(sandbox);
    const pricing = await call(proxy, '/pricing', { body: { feature: 'seats', increment: 3 } });
    assert.equal(pricing.status, 200);
    assert.ok(!('taxes' in pricing.body), pricing.text);
    const offers = await call(proxy, '/offers');
    assert.equal(offers.status, 200);
    assert.ok(!('taxes' in offers.body));
  });

  it('says it on prices, offers and a changed price', async () => {
    const proxy = proxyOver(sandbox, { taxes: 'included' });
    const pricing = await call(proxy, '/pricing', { body: { feature: 'seats', increment: 3 } });
    assert.equal(pricing.status, 200);
    assert.equal(pricing.body.taxes, 'included');
    assert.ok(pricing.body.AmountTotal > 0);
    const offers = await call(proxy, '/offers');
    assert.equal(offers.body.taxes, 'included');
    // A purchase confirmed at another price: refused, its new price said as the first one was.
    const refused = await call(proxy, '/usage', {
      body: seatsPurchase('taxes-changed-price', pricing.body.AmountTotal + 1),
    });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'price-changed');
    assert.equal(refused.body.pricing.taxes, 'included');
    assert.equal((await ledgerOf(sandbox)).count, 0);
  });

  it('asks a function for each customer', async () => {
    const asked: string[] = [];
    const proxy = proxyOver(sandbox, {
      taxes: (identity) => {
        asked.push(identity.reference);
        return identity.reference === 'discounted' ? 'included' : undefined;
      },
    });
    const taxed = await call(proxy, '/offers', { customer: 'discounted' });
    assert.equal(taxed.body.taxes, 'included');
    const untaxed = await call(proxy, '/offers', { customer: 'healthy' });
    assert.ok(!('taxes' in untaxed.body));
    const excluded = proxyOver(sandbox, { taxes: () => 'excluded' });
    const pricing = await call(excluded, '/pricing', { body: { feature: 'seats', increment: 3 } });
    assert.equal(pricing.body.taxes, 'excluded');
    assert.deepEqual(asked, ['discounted', 'healthy']);
  });

  it('refuses another value when the proxy is created, naming the option', () => {
    for (const taxes of ['include', 'yes', true, 20]) {
      assert.throws(
        () => createBillingProxy(proxyOptions(sandbox, { taxes } as never)),
        /taxes must be 'included', 'excluded' or a function/,
        String(taxes),
      );
    }
  });

  it('answers 500 and logs it when the function answers another value', async () => {
    const { entries, logger } = collectingLogger();
    const proxy = proxyOver(sandbox, { taxes: () => 'TTC' as never, logger });
    const { status, body, text } = await call(proxy, '/offers');
    assert.equal(status, 500);
    assert.equal(body.code, 'internal');
    assert.ok(!text.includes('TTC'), 'the host bug stays in the log');
    assert.ok(
      entries.some((entry) => entry.level === 'error' && /taxes\(identity\)/.test(entry.message)),
      JSON.stringify(entries),
    );
  });
});

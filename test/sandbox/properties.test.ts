import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SERVICE_ERROR_CODES } from '../../src/contract/index.js';
import { defaultFixtures } from '../../src/sandbox/index.js';
import { useTestSandbox } from './helpers.js';

// Properties of pricing and usage over HTTP, on random customers, features and increments of the
// default fixture.

// Every customer of the default fixture (fixtures-cli.test.ts lists them), and one it lacks.
const CUSTOMERS = [...(defaultFixtures().customers ?? []).map((c) => c.reference), 'ghost'];
const FEATURES = ['seats', 'projects', 'api-calls', 'sso', 'priority-support', 'nothing'];

describe('pricing and usage properties', () => {
  const t = useTestSandbox();

  it('a price is never negative, never above its subtotal, changes nothing, and the apply charges exactly it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CUSTOMERS),
        fc.constantFrom(...FEATURES),
        fc.oneof(
          fc.integer({ min: -20, max: 20 }),
          fc.integer({ min: -1_000_000, max: 1_000_000 }),
        ),
        async (customer, feature, increment) => {
          await t.control('POST', '/reset');
          const body = {
            ReferenceCustomer: customer,
            ReferenceFeature: feature,
            Increment: increment,
            NextTerm: true,
          };
          const before = customer === 'ghost' ? null : await t.customer(customer);
          const priced = await t.api('POST', '/v1/Pricing/Usage', body);
          assert.ok(
            priced.status === 200 || (priced.status >= 400 && priced.status < 500),
            priced.text,
          );
          if (before)
            assert.deepEqual(await t.customer(customer), before, 'pricing changed the state');

          const applied = await t.api('POST', '/v1/Usage', body);
          assert.equal(
            applied.status,
            priced.status,
            `apply ${applied.text} vs price ${priced.text}`,
          );
          if (priced.status !== 200) {
            const errors = Array.isArray(priced.body) ? priced.body : [priced.body];
            for (const e of errors)
              assert.ok((SERVICE_ERROR_CODES as readonly string[]).includes(e.Code), e.Code);
            assert.deepEqual(applied.body, priced.body);
            if (before)
              assert.deepEqual(
                await t.customer(customer),
                before,
                'a refused apply changed the state',
              );
            return;
          }
          const p = priced.body;
          assert.ok(p.AmountTotal >= 0 && p.AmountTotal <= p.AmountSubtotal, JSON.stringify(p));
          assert.ok(
            p.NextTerm.AmountTotal >= 0 && p.NextTerm.AmountTotal <= p.NextTerm.AmountSubtotal,
          );
          // The apply answers the usage, no amount: what it charged is on the invoice.
          assert.equal(applied.body.AmountTotal, undefined);
          assert.equal(applied.body.QuantityCurrent, p.QuantityAfter);
          const after = await t.customer(customer);
          assert.equal(
            after.invoices.length,
            (before?.invoices.length ?? 0) + (p.AmountTotal > 0 ? 1 : 0),
          );
          if (p.AmountTotal > 0) assert.equal(after.invoices.at(-1).AmountTotal, p.AmountTotal);
        },
      ),
      { numRuns: 60 },
    );
  });
});

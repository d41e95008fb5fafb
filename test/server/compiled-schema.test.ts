// The proxy parses with compiled copies of the contract's schemas (zod's JIT objects): they must
// accept, produce and refuse exactly what the originals do. Compared on real sandbox answers and
// on thousands of mutations of them (missing, retyped and extra fields at any depth).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type * as z from 'zod/mini';
import {
  CustomerSchema,
  InvoiceSchema,
  PricingRequestSchema,
  PricingUsageResultSchema,
  PurchaseRequestSchema,
  ServiceErrorBodySchema,
  SubscriptionSchema,
  UsageSchema,
  UsagesPageSchema,
} from '../../src/contract/index.js';
import { compiled } from '../../src/server/compiled-schema.js';
import { startSandbox, type RunningSandbox } from './helpers.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Mutation {
  /** Indices that pick a key or item at each level (modulo the count there). */
  path: number[];
  kind: 'delete' | 'replace' | 'add';
  value: unknown;
}

function mutate(root: unknown, mutation: Mutation): unknown {
  const copy = structuredClone(root) as Json;
  let parent: Record<string, unknown> | unknown[] | null = null;
  let key: string | number | null = null;
  let node: unknown = copy;
  for (const index of mutation.path) {
    if (node === null || typeof node !== 'object') break;
    const keys = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    if (keys.length === 0) break;
    parent = node as Record<string, unknown> | unknown[];
    key = keys[index % keys.length] as string | number;
    node = (parent as Record<string | number, unknown>)[key];
  }
  if (parent === null || key === null) return mutation.kind === 'replace' ? mutation.value : copy;
  if (mutation.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete (parent as Record<string, unknown>)[key];
  } else if (mutation.kind === 'replace') {
    (parent as Record<string | number, unknown>)[key] = mutation.value;
  } else if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
    (node as Record<string, unknown>)[`Extra${mutation.path.length}`] = mutation.value;
  }
  return copy;
}

const mutations = fc.array(
  fc.record({
    path: fc.array(fc.nat(40), { maxLength: 5 }),
    kind: fc.constantFrom<Mutation['kind']>('delete', 'replace', 'add'),
    value: fc.oneof(
      fc.anything(),
      fc.integer(),
      fc.double(),
      fc.string(),
      fc.constant(undefined),
      fc.constant(null),
    ),
  }),
  { maxLength: 4 },
);

/** What a parse says, in comparable form. */
function outcome(schema: z.ZodMiniType, value: unknown) {
  const result = schema.safeParse(value);
  return result.success
    ? { success: true, data: result.data }
    : {
        success: false,
        issues: result.error.issues.map(({ code, path, message }) => ({ code, path, message })),
      };
}

function assertSame(schema: z.ZodMiniType, samples: unknown[]): void {
  const fast = compiled(schema);
  assert.notEqual(fast, schema, 'compiled() made a new schema');
  for (const sample of samples) {
    assert.equal(schema.safeParse(sample).success, true, 'the real sample is valid');
    assert.deepStrictEqual(outcome(fast, sample), outcome(schema, sample));
  }
  fc.assert(
    fc.property(fc.constantFrom(...samples), mutations, (sample, changes) => {
      const input = changes.reduce<unknown>((value, change) => mutate(value, change), sample);
      assert.deepStrictEqual(outcome(fast, input), outcome(schema, input));
    }),
    { numRuns: 1500 },
  );
}

describe('compiled contract schemas parse exactly like the originals', () => {
  let sandbox: RunningSandbox;
  const answers: Record<string, unknown[]> = {};

  before(async () => {
    sandbox = await startSandbox();
    const authorization = `Basic ${Buffer.from(`${sandbox.agentKey}:${sandbox.apiKey}`).toString('base64')}`;
    const get = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${sandbox.apiUrl}${path}`, {
        ...init,
        headers: { authorization, 'content-type': 'application/json' },
      });
      assert.ok(response.ok, `${path}: ${response.status}`);
      return response.json() as Promise<unknown>;
    };
    const customers = ['healthy', 'discounted', 'capping-reached', 'unlimited', 'starter-plan'];
    answers.usages = await Promise.all(
      customers.map((customer) =>
        get(`/v1/Usages?ReferenceCustomer=${customer}&Page=1&SizePage=1000`),
      ),
    );
    answers.pricing = await Promise.all(
      ['healthy', 'discounted', 'unlimited'].map((customer) =>
        get('/v1/Pricing/Usage', {
          method: 'POST',
          body: JSON.stringify({
            ReferenceCustomer: customer,
            ReferenceFeature: 'seats',
            Increment: 3,
            NextTerm: true,
          }),
        }),
      ),
    );
    answers.subscriptions = await Promise.all(
      customers.map((customer) => get(`/v1/Subscription?ReferenceCustomer=${customer}`)),
    );
    answers.customers = await Promise.all(
      customers.map((customer) => get(`/v1/Customer?ReferenceCustomer=${customer}`)),
    );
    const capped = (await get('/_sandbox/customers/capping-reached')) as {
      invoices: { Id: number }[];
    };
    answers.invoices = await Promise.all(
      capped.invoices.map((invoice) => get(`/v1/Invoice/${invoice.Id}`)),
    );
  });
  after(() => sandbox.close());

  it('usages pages and usages', () => {
    assertSame(UsagesPageSchema, answers.usages ?? []);
    const items = (answers.usages ?? []).flatMap((page) => (page as { Items: unknown[] }).Items);
    assertSame(UsageSchema, items);
  });

  it('pricing results', () => assertSame(PricingUsageResultSchema, answers.pricing ?? []));

  it('subscriptions (features, discounts, links)', () =>
    assertSame(SubscriptionSchema, answers.subscriptions ?? []));

  it('customers', () => assertSame(CustomerSchema, answers.customers ?? []));

  it('invoices', () => {
    assert.ok((answers.invoices ?? []).length > 0, 'the fixture has invoices');
    assertSame(InvoiceSchema, answers.invoices ?? []);
  });

  it('service error bodies (one error or a list)', () =>
    assertSame(ServiceErrorBodySchema, [
      { Code: 'Error.Customer.NotFound', Message: 'No such customer' },
      [{ Code: 'Error.Api.Validation', Message: 'Bad', Target: 'Increment' }],
    ]));

  it('browser request bodies (strict objects)', () => {
    assertSame(PricingRequestSchema, [{ feature: 'seats', increment: 3 }]);
    assertSame(PurchaseRequestSchema, [
      {
        feature: 'seats',
        increment: 2,
        idempotencyKey: 'a1b2c3d4e5f6g7h8',
        confirmedAmountTotal: 1200,
      },
    ]);
  });
});

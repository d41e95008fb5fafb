import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import * as z from 'zod';
import {
  CustomerSchema,
  InvoiceSchema,
  InvoicesPageSchema,
  PricingUsageAnswerSchema,
  SubscriptionSchema,
  UpgradeQuoteSchema,
  UsagesPageSchema,
} from '../../src/contract/index.js';
import { guardedParser, hasFastPath } from '../../src/server/schema-guard.js';
import { defaultFixtures, startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from './helpers.js';

// The service's answers the proxy validates, each read through `guardedParser`.
const ANSWERS = {
  CustomerSchema,
  InvoiceSchema,
  InvoicesPageSchema,
  PricingUsageAnswerSchema,
  SubscriptionSchema,
  UpgradeQuoteSchema,
  UsagesPageSchema,
} as const;

interface Definition {
  type: string;
  format?: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  valueType?: z.ZodType;
  entries?: Record<string, unknown>;
}
const definition = (schema: z.ZodType) =>
  (schema as unknown as { _zod: { def: Definition } })._zod.def;

// A key zod copies onto a new object would set that object's prototype: not a key a test of
// equal results can use.
const key = fc.string({ maxLength: 12 }).filter((name) => name !== '__proto__');
const anyJson = fc
  .jsonValue({ maxDepth: 2 })
  .filter((value) => !JSON.stringify(value).includes('__proto__'));

/**
 * Documents shaped by the schema: half of them valid, half with a value now and then replaced
 * by anything else (wrong types, nulls, objects for strings, a double for an integer, an
 * unknown enum value), a required key now and then missing. Objects carry keys of their own.
 */
const document = (schema: z.ZodType) => fc.oneof(shaped(schema, false), shaped(schema, true));

function shaped(schema: z.ZodType, dirty: boolean): fc.Arbitrary<unknown> {
  const valid = validOf(schema, dirty);
  return dirty
    ? fc.oneof({ arbitrary: valid, weight: 15 }, { arbitrary: wrongOf(schema), weight: 1 })
    : valid;
}

/** A value near the schema's, mostly not valid. */
function wrongOf(schema: z.ZodType): fc.Arbitrary<unknown> {
  const def = definition(schema);
  if (def.type === 'number' && def.format === 'safeint')
    return fc.oneof(
      fc.constant(2 ** 53),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      anyJson,
    );
  if (def.type === 'enum') return fc.oneof(fc.string({ maxLength: 4 }), anyJson);
  return anyJson;
}

function validOf(schema: z.ZodType, dirty: boolean): fc.Arbitrary<unknown> {
  const def = definition(schema);
  const inner = (of: z.ZodType | undefined) => shaped(of as z.ZodType, dirty);
  switch (def.type) {
    case 'string':
    case 'custom':
      return fc.string({ maxLength: 8 });
    case 'boolean':
      return fc.boolean();
    case 'number':
      return def.format === 'safeint'
        ? fc.integer()
        : fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'nullable':
      return fc.option(inner(def.innerType), { nil: null });
    case 'optional':
      return inner(def.innerType);
    case 'array':
      return fc.array(inner(def.element), { maxLength: 3 });
    case 'record':
      return fc.dictionary(key, inner(def.valueType), { maxKeys: 3 });
    case 'object': {
      const shape = def.shape ?? {};
      const names = Object.keys(shape);
      const required = names.filter(
        (name) => definition(shape[name] as z.ZodType).type !== 'optional',
      );
      const fields = fc.record(
        Object.fromEntries(names.map((name) => [name, inner(shape[name])])),
        { requiredKeys: required },
      );
      const extra = fc.dictionary(
        key.filter((name) => !(name in shape)),
        anyJson,
        { maxKeys: 2 },
      );
      const dropped =
        dirty && required.length > 0
          ? fc.oneof(
              { arbitrary: fc.constant(undefined), weight: 15 },
              { arbitrary: fc.constantFrom(...required), weight: 1 },
            )
          : fc.constant(undefined);
      return fc.tuple(fields, extra, dropped).map(([own, more, drop]) => {
        const result: Record<string, unknown> = { ...more, ...own };
        if (drop !== undefined) delete result[drop];
        return result;
      });
    }
    default:
      return anyJson;
  }
}

describe('the fast path for the service’s answers (guardedParser)', () => {
  it('has one for every answer the proxy reads', () => {
    for (const [name, schema] of Object.entries(ANSWERS))
      assert.ok(hasFastPath(schema), `${name} is always parsed by zod`);
  });

  it('leaves to zod what it cannot mirror: a check, a default, an object that strips keys', () => {
    assert.equal(hasFastPath(z.string().min(2)), false);
    assert.equal(hasFastPath(z.looseObject({ a: z.string().default('x') })), false);
    assert.equal(hasFastPath(z.object({ a: z.string() })), false);
    assert.equal(hasFastPath(z.looseObject({ a: z.int().min(0) })), false);
    assert.equal(hasFastPath(z.record(z.enum(['a', 'b']), z.string())), false);
    assert.equal(hasFastPath(z.looseObject({ a: z.string() })), true);
  });

  for (const [name, schema] of Object.entries(ANSWERS)) {
    it(`answers as zod does for documents near ${name}`, () => {
      const parse = guardedParser(schema as z.ZodType<unknown>);
      let valid = 0;
      let invalid = 0;
      fc.assert(
        fc.property(document(schema), (generated) => {
          // What the proxy validates always comes out of JSON.parse.
          const sample: unknown = JSON.parse(JSON.stringify(generated));
          const fast = parse(sample);
          const slow = schema.safeParse(sample);
          assert.equal(fast.success, slow.success, JSON.stringify(sample));
          if (fast.success) {
            valid += 1;
            assert.deepEqual(fast.data, slow.data);
          } else {
            invalid += 1;
            assert.deepEqual(fast.error.issues, slow.error?.issues);
          }
        }),
        { numRuns: 400 },
      );
      // The generator must exercise both sides, or the comparison proves little.
      assert.ok(valid >= 20 && invalid >= 20, `${valid} valid and ${invalid} invalid documents`);
    });
  }

  describe('with the sandbox’s own answers', () => {
    let sandbox: RunningSandbox;
    before(async () => {
      sandbox = await startSandbox();
    });
    after(() => sandbox.close());

    it('takes the fast path for every customer’s usages', async () => {
      const authorization = `Basic ${btoa(`${sandbox.agentKey}:${sandbox.apiKey}`)}`;
      const parse = guardedParser(UsagesPageSchema);
      const customers = (defaultFixtures().customers ?? []).map(({ reference }) => reference);
      assert.ok(customers.length >= 10);
      for (const customer of customers) {
        const answer = await fetch(
          `${sandbox.apiUrl}/v1/Usages?ReferenceCustomer=${customer}&Page=1&SizePage=1000`,
          { headers: { authorization } },
        );
        const document: unknown = await answer.json();
        const parsed = parse(document);
        assert.ok(parsed.success, customer);
        // The fast path answers with the document itself; zod would have copied it.
        assert.equal(parsed.data, document, `${customer}'s usages went through zod`);
      }
    });
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { FEATURE_REFERENCE_PATTERN, IDEMPOTENCY_KEY_PATTERN } from '../../src/contract/index.js';
import { createBillingProxy, type BillingProxy } from '../../src/server/index.js';
import { call, countingFetch, proxyOptions, startSandbox, type RunningSandbox } from './helpers.js';

const MAX_INCREMENT = 10_000;

function isValidPricing(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort().join();
  return (
    keys === 'feature,increment' &&
    typeof record.feature === 'string' &&
    FEATURE_REFERENCE_PATTERN.test(record.feature) &&
    Number.isInteger(record.increment) &&
    (record.increment as number) >= 1 &&
    (record.increment as number) <= MAX_INCREMENT
  );
}

function isValidPurchase(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { idempotencyKey, confirmedAmountTotal, ...rest } = value as Record<string, unknown>;
  return (
    isValidPricing(rest) &&
    typeof idempotencyKey === 'string' &&
    IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey) &&
    Number.isSafeInteger(confirmedAmountTotal) &&
    (confirmedAmountTotal as number) >= 0
  );
}

/** Bodies near the valid ones: right keys with wrong values, extra keys, missing keys. */
const nearPricing = fc.record(
  {
    feature: fc.oneof(
      fc.string(),
      fc.stringMatching(/^[a-z-]{1,10}$/),
      fc.constant('seats'),
      fc.integer(),
      fc.constant(null),
    ),
    increment: fc.oneof(
      fc.integer(),
      fc.double(),
      fc.string(),
      fc.constant(null),
      fc.bigInt().map(String),
    ),
    customer: fc.string(),
    ReferenceCustomer: fc.string(),
  },
  { requiredKeys: [] },
);

const nearPurchase = fc.record(
  {
    feature: fc.oneof(fc.string(), fc.constant('seats')),
    increment: fc.oneof(fc.integer({ min: -20_000, max: 20_000 }), fc.double()),
    idempotencyKey: fc.oneof(fc.string(), fc.stringMatching(/^[A-Za-z0-9_-]{10,20}$/)),
    confirmedAmountTotal: fc.oneof(fc.integer(), fc.double(), fc.constant(-1), fc.string()),
    customer: fc.string(),
  },
  { requiredKeys: [] },
);

describe('property: no malformed body reaches the billing service', () => {
  let sandbox: RunningSandbox;
  let proxy: BillingProxy;
  let counter: ReturnType<typeof countingFetch>;

  before(async () => {
    sandbox = await startSandbox();
    counter = countingFetch();
    proxy = createBillingProxy(proxyOptions(sandbox, { fetch: counter.fetch }));
  });
  after(() => sandbox.close());

  it('arbitrary JSON values on /pricing and /usage are refused before any upstream call', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/pricing', '/usage'),
        fc.oneof(fc.jsonValue(), nearPricing, nearPurchase),
        async (path, body) => {
          const valid = path === '/pricing' ? isValidPricing(body) : isValidPurchase(body);
          fc.pre(!valid);
          const before = counter.total;
          const { status, body: answer } = await call(proxy, path, {
            rawBody: JSON.stringify(body) ?? 'undefined',
          });
          assert.equal(status, 400, JSON.stringify(body));
          assert.equal(answer.code, 'validation');
          assert.equal(counter.total, before);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('arbitrary bytes as body are refused before any upstream call', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/pricing', '/usage'),
        fc.oneof(fc.string(), fc.uint8Array({ maxLength: 200 })),
        async (path, raw) => {
          const text = typeof raw === 'string' ? raw : new TextDecoder().decode(raw);
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = Symbol('invalid');
          }
          fc.pre(!(path === '/pricing' ? isValidPricing(parsed) : isValidPurchase(parsed)));
          const before = counter.total;
          const response = await proxy.handler(
            new Request(`http://app.test/billing${path}`, {
              method: 'POST',
              headers: {
                origin: 'http://app.test',
                cookie: 'session=healthy',
                'content-type': 'application/json',
              },
              body: raw,
            }),
          );
          assert.equal(response.status, 400);
          assert.equal(counter.total, before);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('arbitrary portal queries either pass validation or never reach the service', async () => {
    const pages = fc.constantFrom(
      'home',
      'offers',
      'subscribe',
      'register',
      'change-plan',
      'restart',
      'pay-invoice',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.oneof(
            fc.constantFrom('page', 'offer', 'subscription', 'invoice', 'customer'),
            fc.string(),
          ),
          fc.oneof(pages, fc.string()),
        ),
        async (query) => {
          const search = new URLSearchParams(query).toString();
          const before = counter.total;
          const { status } = await call(proxy, `/links?${search}`);
          if (status === 400) assert.equal(counter.total, before, search);
          else assert.ok([200, 404, 409, 422].includes(status), `${search}: ${status}`);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a valid body does reach the service (the counter sees calls)', async () => {
    const before = counter.total;
    const { status } = await call(proxy, '/pricing', { body: { feature: 'seats', increment: 1 } });
    assert.equal(status, 200);
    assert.ok(counter.total > before);
  });
});

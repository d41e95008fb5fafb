// POST /pricing for a customer who cannot buy yet, over real HTTP (the Node adapter on a port, the
// sandbox behind it): a preview changes nothing, so the customer's state comes as a 200 with its
// refusal, never as a failed request in the page's console; a confirmed change refused for the
// same reason stays an HTTP error, and real failures stay errors.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createBillingProxy, toNodeHandler } from '../../src/server/index.js';
import { PRICING_REFUSAL_CODES } from '../../src/contract/index.js';
import { control, listen, proxyOptions, startSandbox, type RunningSandbox } from './helpers.js';

describe('POST /pricing: refusals of a preview', () => {
  let sandbox: RunningSandbox;
  let server: Server;
  let origin: string;

  before(async () => {
    sandbox = await startSandbox();
    server = createServer(toNodeHandler(createBillingProxy(proxyOptions(sandbox))));
    origin = await listen(server);
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await sandbox.close();
  });
  beforeEach(async () => {
    await control(sandbox).reset();
  });

  async function post(path: string, customer: string, body: object) {
    const response = await fetch(`${origin}/billing${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `session=${customer}`,
        // Same-origin, as the host app's page is.
        origin,
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, body: JSON.parse(text) as Record<string, unknown> };
  }

  const states = [
    // customer, feature, change, refusal code
    ['starter-plan', 'seats', { increment: 1 }, 'Error.Api.Usage.NoneMatching'],
    ['no-payment-method', 'seats', { increment: 1 }, 'Error.Customer.PaymentSettings.Missing'],
    ['capping-reached', 'seats', { increment: 1 }, 'Error.Customer.Billing.CappingReached'],
    [
      'capping-reached',
      'priority-support',
      { enabled: true },
      'Error.Customer.Billing.CappingReached',
    ],
    // Suspended for a payment method that no longer works (suspension-cause.test.ts).
    ['suspended', 'seats', { increment: 1 }, 'payment-method-invalid'],
    ['suspended', 'priority-support', { enabled: true }, 'payment-method-invalid'],
    ['pending', 'seats', { increment: 1 }, 'subscription-pending'],
    ['pending', 'priority-support', { enabled: true }, 'subscription-pending'],
    ['no-subscription', 'seats', { increment: 1 }, 'no-subscription'],
  ] as const;

  for (const [customer, feature, change, code] of states) {
    it(`answers ${customer}'s ${feature} with 200 and the refusal ${code}`, async () => {
      const { status, body, text } = await post('/pricing', customer, { feature, ...change });
      assert.equal(status, 200, text);
      assert.deepEqual(Object.keys(body), ['refusal']);
      const refusal = body.refusal as { code: string; message: string };
      assert.equal(refusal.code, code);
      assert.ok((PRICING_REFUSAL_CODES as readonly string[]).includes(refusal.code));
      assert.match(refusal.message, /^[A-Z][^{}]+\.$/);
      // The service's own words never reach the browser, only the proxy's.
      assert.doesNotMatch(text, /NotActive|PendingSubscription|Stella|Sam |Paula/);
    });
  }

  it('tells a subscription waiting for its checkout from a suspended one', async () => {
    const pending = await post('/pricing', 'pending', { feature: 'seats', increment: 1 });
    const suspended = await post('/pricing', 'suspended', { feature: 'seats', increment: 1 });
    assert.equal((pending.body.refusal as { code: string }).code, 'subscription-pending');
    assert.equal((suspended.body.refusal as { code: string }).code, 'payment-method-invalid');
  });

  it('keeps the refusal of a confirmed change an HTTP error, and applies nothing', async () => {
    const before = await control(sandbox).customer('capping-reached');
    const { status, body } = await post('/usage', 'capping-reached', {
      feature: 'seats',
      increment: 1,
      idempotencyKey: 'refused-purchase-key-0001',
      confirmedAmountTotal: 0,
    });
    assert.equal(status, 403);
    assert.equal(body.code, 'Error.Customer.Billing.CappingReached');
    const after = await control(sandbox).customer('capping-reached');
    assert.deepEqual(after.usageLog, before.usageLog);
  });

  it('keeps a price for a customer who can buy, and failures as errors', async () => {
    const priced = await post('/pricing', 'healthy', { feature: 'seats', increment: 1 });
    assert.equal(priced.status, 200);
    assert.equal(typeof priced.body.AmountTotal, 'number');
    assert.equal('refusal' in priced.body, false);
    // A quantity the service will not sell is the customer's input, not a state: 422.
    const tooMany = await post('/pricing', 'healthy', { feature: 'seats', increment: 9000 });
    assert.equal(tooMany.status, 422, tooMany.text);
    assert.equal(tooMany.body.code, 'validation');
    // The service down is a failure (after the proxy's retries), never a refusal.
    await control(sandbox).fault({ route: 'POST /v1/Pricing/Usage', mode: 'status-500', times: 5 });
    const down = await post('/pricing', 'healthy', { feature: 'seats', increment: 1 });
    assert.equal(down.status, 503);
    assert.equal(down.body.code, 'upstream-unavailable');
  });
});

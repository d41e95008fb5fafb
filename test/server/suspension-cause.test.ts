// Why a subscription is suspended, over real HTTP (the Node adapter on a port, the real sandbox
// behind it): every answer the elements read names the cause that still stands, so that a
// customer whose payment method no longer works is asked for a new one, not for a restart that
// would be refused.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createBillingProxy, toNodeHandler } from '../../src/server/index.js';
import { control, listen, proxyOptions, startSandbox, type RunningSandbox } from './helpers.js';

/**
 * The sandbox's answers as the live service words a card suspension: it documents only
 * SuspendedPaymentDue, "the value shown with a payment-caused suspension".
 */
const liveServiceFetch: typeof fetch = async (input, init) => {
  const answer = await fetch(input, init);
  const text = await answer.text();
  return new Response(text.replaceAll('SuspendedPaymentMethodInvalid', 'SuspendedPaymentDue'), {
    status: answer.status,
    headers: { 'content-type': answer.headers.get('content-type') ?? 'application/json' },
  });
};

describe('the cause of a suspension, in what the elements read', () => {
  let sandbox: RunningSandbox;
  const servers: Server[] = [];
  let origin: string;
  let liveOrigin: string;

  before(async () => {
    sandbox = await startSandbox();
    const serve = async (fetchImpl?: typeof fetch) => {
      const options = proxyOptions(sandbox, fetchImpl ? { fetch: fetchImpl } : {});
      const server = createServer(toNodeHandler(createBillingProxy(options)));
      servers.push(server);
      return listen(server);
    };
    origin = await serve();
    liveOrigin = await serve(liveServiceFetch);
  });
  after(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await sandbox.close();
  });
  beforeEach(async () => {
    await control(sandbox).reset();
  });

  async function read(at: string, path: string, customer: string, body?: object) {
    const response = await fetch(`${at}/billing${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'content-type': 'application/json', cookie: `session=${customer}`, origin: at },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return JSON.parse(text) as any;
  }

  /** What each route says of the customer's suspension: usages, subscription, a price preview. */
  async function causes(at: string, customer: string) {
    const usages = await read(at, '/usages', customer);
    const subscription = await read(at, '/subscription', customer);
    const seats = await read(at, '/pricing', customer, { feature: 'seats', increment: 1 });
    const addOn = await read(at, '/pricing', customer, {
      feature: 'priority-support',
      enabled: true,
    });
    return {
      usages: usages.suspended,
      subscription: [subscription.status, subscription.suspensionReason],
      refusals: [seats.refusal?.code, addOn.refusal?.code],
    };
  }

  it('names a payment method that no longer works, and asks for a new one first', async () => {
    assert.deepEqual(await causes(origin, 'suspended'), {
      usages: { paymentCappingReached: false, reason: 'payment-method-invalid' },
      subscription: ['suspended', 'payment-method-invalid'],
      refusals: ['payment-method-invalid', 'payment-method-invalid'],
    });
  });

  it('leaves only the restart once a valid payment method is on file', async () => {
    await control(sandbox).paymentMethod('suspended', 'valid');
    assert.deepEqual(await causes(origin, 'suspended'), {
      usages: { paymentCappingReached: false, reason: 'other' },
      subscription: ['suspended', 'other'],
      refusals: ['subscription-suspended', 'subscription-suspended'],
    });
  });

  it('names overdue invoices, whatever the payment method', async () => {
    await control(sandbox).paymentMethod('capping-reached', 'invalid');
    assert.deepEqual(await causes(origin, 'capping-reached'), {
      usages: { paymentCappingReached: true, reason: 'payment-due' },
      subscription: ['suspended', 'payment-due'],
      refusals: ['Error.Customer.Billing.CappingReached', 'Error.Customer.Billing.CappingReached'],
    });
  });

  it('tells the cause from the payment method when the service says only SuspendedPaymentDue', async () => {
    const live = await causes(liveOrigin, 'suspended');
    assert.equal(
      (await read(liveOrigin, '/subscription', 'suspended')).state,
      'SuspendedPaymentDue',
    );
    assert.deepEqual(live, {
      usages: { paymentCappingReached: false, reason: 'payment-method-invalid' },
      subscription: ['suspended', 'payment-method-invalid'],
      refusals: ['payment-method-invalid', 'payment-method-invalid'],
    });
    await control(sandbox).paymentMethod('suspended', 'valid');
    const fixed = await causes(liveOrigin, 'suspended');
    // Without overdue invoices or a dead card, what is left is to restart.
    assert.deepEqual(fixed.refusals, ['subscription-suspended', 'subscription-suspended']);
    assert.equal(fixed.usages.reason, 'payment-due');
  });

  it('says nothing of a suspension for a running subscription', async () => {
    const usages = await read(origin, '/usages', 'healthy');
    const subscription = await read(origin, '/subscription', 'healthy');
    assert.equal(usages.suspended, undefined);
    assert.equal(subscription.suspensionReason, null);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBillingProxy, type BillingProxy } from '../../src/server/index.js';
import { call, control, countedProxy, proxyOptions, useSandbox } from './helpers.js';

// On/off add-ons ("Priority support", sold apart on Starter and Pro) switched on and off through
// POST /pricing and POST /usage with `enabled`, against the real sandbox.
describe('add-ons: priced, confirmed and switched exactly once', () => {
  const sandbox = useSandbox();
  const FEATURE = 'priority-support';

  async function price(proxy: BillingProxy, enabled: boolean, customer = 'healthy') {
    const answer = await call(proxy, '/pricing', {
      customer,
      body: { feature: FEATURE, enabled },
    });
    assert.equal(answer.status, 200, answer.text);
    return answer.body as { AmountTotal: number; NextTerm: { AmountTotal: number } };
  }

  function change(
    key: string,
    enabled: boolean,
    pricing: { AmountTotal: number; NextTerm: { AmountTotal: number } },
  ) {
    return {
      feature: FEATURE,
      enabled,
      idempotencyKey: key,
      confirmedAmountTotal: pricing.AmountTotal,
      confirmedNextTermAmountTotal: pricing.NextTerm.AmountTotal,
    };
  }

  async function switchedOn(customer = 'healthy'): Promise<boolean> {
    const state = await control(sandbox).customer(customer);
    const running = state.subscriptions.find(
      (subscription: { StateSubscription: string }) =>
        subscription.StateSubscription !== 'PendingSubscription',
    );
    const feature = running.Features.find(
      (candidate: { ReferenceFeature: string }) => candidate.ReferenceFeature === FEATURE,
    );
    return feature.IsEnabled === true;
  }

  const applied = async (customer = 'healthy') =>
    (await control(sandbox).stats()).appliedUsageChangesByCustomer[customer] ?? 0;

  it('prices switching on (prorated now, 9.00 more per period) and asks for confirmation', async () => {
    const proxy = createBillingProxy(proxyOptions(sandbox));
    const off = await price(proxy, false);
    const on = (await call(proxy, '/pricing', { body: { feature: FEATURE, enabled: true } })).body;
    assert.ok(on.AmountTotal > 0 && on.AmountTotal <= 900, String(on.AmountTotal));
    assert.equal(on.NextTerm.AmountTotal - off.NextTerm.AmountTotal, 900);
    assert.equal(on.confirmationRequired, true);
    assert.equal(await applied(), 0);
  });

  it('switches on 20 concurrent identical confirmations exactly once, with one invoice', async () => {
    const { counter, proxy } = countedProxy(sandbox);
    const pricing = await price(proxy, true);
    const body = change('twenty-concurrent-add-on', true, pricing);
    const invoicesBefore = (await control(sandbox).customer('healthy')).invoices.length;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call(proxy, '/usage', { body })),
    );
    assert.ok(
      answers.every((answer) => answer.status === 200),
      JSON.stringify(answers.find((answer) => answer.status !== 200)?.body),
    );
    assert.equal(answers.filter((answer) => !answer.body.replayed).length, 1);
    for (const { body: answer } of answers) {
      assert.equal(answer.usage.IsEnabled, true);
      assert.equal(answer.amountTotal, pricing.AmountTotal);
      assert.equal(answer.nextTermAmountTotal, pricing.NextTerm.AmountTotal);
    }
    assert.equal(counter.calls['POST /v1/Usage'], 1);
    assert.equal(await applied(), 1);
    assert.equal(await switchedOn(), true);
    const invoicesAfter = (await control(sandbox).customer('healthy')).invoices.length;
    assert.equal(invoicesAfter - invoicesBefore, 1);
  });

  it('refuses a second confirmation under another key: the add-on is already on', async () => {
    const proxy = createBillingProxy(proxyOptions(sandbox));
    const pricing = await price(proxy, true);
    const answers = await Promise.all(
      ['first-tab-add-on-key', 'other-tab-add-on-key'].map((key) =>
        call(proxy, '/usage', { body: change(key, true, pricing) }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    assert.deepEqual(statuses, [200, 409]);
    const refused = answers.find((answer) => answer.status === 409)!;
    assert.equal(refused.body.code, 'add-on-already-on');
    assert.equal(await applied(), 1);
  });

  it('refuses a stale price now or next term with 409 price-changed and the current price', async () => {
    const proxy = createBillingProxy(proxyOptions(sandbox));
    const pricing = await price(proxy, true);
    const stale = [
      { ...change('stale-now-add-on-key', true, pricing), confirmedAmountTotal: 0 },
      {
        ...change('stale-next-add-on-key', true, pricing),
        confirmedNextTermAmountTotal: pricing.NextTerm.AmountTotal - 900,
      },
    ];
    for (const body of stale) {
      const answer = await call(proxy, '/usage', { body });
      assert.equal(answer.status, 409, answer.text);
      assert.equal(answer.body.code, 'price-changed');
      assert.equal(answer.body.pricing.AmountTotal, pricing.AmountTotal);
      assert.equal(answer.body.pricing.NextTerm.AmountTotal, pricing.NextTerm.AmountTotal);
    }
    assert.equal(await applied(), 0);
    assert.equal(await switchedOn(), false);
  });

  it('removes the add-on: nothing due now, the recurring price back down, once', async () => {
    const proxy = createBillingProxy(proxyOptions(sandbox));
    const on = await price(proxy, true);
    assert.equal(
      (await call(proxy, '/usage', { body: change('on-before-off-key', true, on) })).status,
      200,
    );
    const off = await price(proxy, false);
    assert.equal(off.AmountTotal, 0);
    assert.equal(on.NextTerm.AmountTotal - off.NextTerm.AmountTotal, 900);
    const body = change('remove-add-on-key-01', false, off);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call(proxy, '/usage', { body })),
    );
    assert.ok(answers.every((answer) => answer.status === 200));
    assert.equal(answers.filter((answer) => !answer.body.replayed).length, 1);
    assert.equal(answers[0]!.body.usage.IsEnabled, false);
    assert.equal(await switchedOn(), false);
    const again = await call(proxy, '/usage', { body: change('remove-again-key-01', false, off) });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'add-on-already-off');
    assert.equal(await applied(), 2);
  });

  it('passes on the refusals the elements have remedies for, applying nothing', async () => {
    const proxy = createBillingProxy(proxyOptions(sandbox));
    const cases = [
      // No payment method: register one first.
      {
        customer: 'no-payment-method',
        feature: FEATURE,
        code: 'Error.Customer.PaymentSettings.Missing',
      },
      // Suspended for a payment method that no longer works: the preview names the cause (its
      // remedy is a new payment method); the service's refusal of a confirmed change does not.
      {
        customer: 'suspended',
        feature: FEATURE,
        previewCode: 'payment-method-invalid',
        code: 'subscription-suspended',
      },
      { customer: 'no-subscription', feature: FEATURE, code: 'no-subscription' },
      // Single sign-on is part of Pro, not sold apart: it cannot be switched.
      { customer: 'healthy', feature: 'sso', enabled: false, code: 'validation' },
      // Starter has no single sign-on at all: only another plan brings it.
      { customer: 'starter-plan', feature: 'sso', code: 'Error.Api.Usage.NoneMatching' },
    ];
    for (const { customer, feature, code, enabled = true, ...rest } of cases) {
      const previewCode = 'previewCode' in rest ? rest.previewCode : code;
      const answer = await call(proxy, '/pricing', { customer, body: { feature, enabled } });
      // A preview of what the customer cannot do yet is a state (200 with its refusal); a switch
      // the service never sells apart stays an error of the request.
      const previewed = code === 'validation' ? answer.body.code : answer.body.refusal?.code;
      assert.equal(previewed, previewCode, `${customer} ${feature}: ${answer.text}`);
      const confirmed = await call(proxy, '/usage', {
        customer,
        body: {
          feature,
          enabled,
          idempotencyKey: `refused-${customer}-key`,
          confirmedAmountTotal: 900,
          confirmedNextTermAmountTotal: 5800,
        },
      });
      assert.equal(confirmed.body.code, code, `${customer} ${feature}: ${confirmed.text}`);
    }
    assert.equal((await control(sandbox).stats()).appliedUsageChanges, 0);
  });

  it('validates the body: a switch or a quantity, never both, every field checked', async () => {
    const proxy = createBillingProxy(proxyOptions(sandbox));
    const valid = {
      feature: FEATURE,
      enabled: true,
      idempotencyKey: 'validation-add-on-key',
      confirmedAmountTotal: 100,
      confirmedNextTermAmountTotal: 5800,
    };
    const cases: [string, unknown, string][] = [
      ['/pricing', { feature: FEATURE, enabled: true, increment: 1 }, 'enabled'],
      ['/pricing', { feature: FEATURE, enabled: 'yes' }, 'enabled'],
      ['/pricing', { feature: 'not a feature', enabled: true }, 'feature'],
      ['/usage', { ...valid, increment: 1 }, 'enabled'],
      [
        '/usage',
        { ...valid, confirmedNextTermAmountTotal: undefined },
        'confirmedNextTermAmountTotal',
      ],
      ['/usage', { ...valid, confirmedNextTermAmountTotal: -1 }, 'confirmedNextTermAmountTotal'],
      ['/usage', { ...valid, confirmedAmountTotal: 1.5 }, 'confirmedAmountTotal'],
      ['/usage', { ...valid, idempotencyKey: 'short' }, 'idempotencyKey'],
      ['/usage', { ...valid, extra: 1 }, 'extra'],
    ];
    for (const [path, body, field] of cases) {
      const answer = await call(proxy, path, { body });
      assert.equal(answer.status, 400, `${path} ${JSON.stringify(body)}: ${answer.text}`);
      assert.equal(answer.body.code, 'validation');
      assert.equal(answer.body.field, field, answer.text);
    }
    const both = await call(proxy, '/usage', { body: { ...valid, increment: 1 } });
    assert.match(both.body.message, /one of increment .* or enabled .*not several/);
    assert.equal((await control(sandbox).stats()).appliedUsageChanges, 0);
  });

  it('refuses a cross-site confirmation and an anonymous one, and rate limits switches', async () => {
    const proxy = createBillingProxy(proxyOptions(sandbox));
    const pricing = await price(proxy, true);
    const body = change('cross-site-add-on-key', true, pricing);
    const crossSite = await call(proxy, '/usage', { body, origin: 'https://evil.example' });
    assert.equal(crossSite.status, 403);
    assert.equal(crossSite.body.code, 'forbidden-origin');
    const anonymous = await call(proxy, '/usage', { body, customer: null });
    assert.equal(anonymous.status, 401);
    assert.equal(await applied(), 0);

    const limited = createBillingProxy(
      proxyOptions(sandbox, { limits: { rateLimit: { capacity: 2, refillPerSecond: 0.01 } } }),
    );
    const statuses: number[] = [];
    for (let index = 0; index < 3; index += 1) {
      const answer = await call(limited, '/pricing', { body: { feature: FEATURE, enabled: true } });
      statuses.push(answer.status);
    }
    assert.deepEqual(statuses, [200, 200, 429]);
  });
});

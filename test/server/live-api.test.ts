import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBillingProxy } from '../../src/server/index.js';
import { call, control, proxyOptions, useSandbox } from './helpers.js';

/** A fetch that shows each pricing call to `inspect` and may rewrite the service's answer. */
function pricingFetch(
  inspect: (url: URL, body: Record<string, unknown>) => Record<string, unknown> | void,
  rewriteAnswer?: (answer: Record<string, unknown>) => Record<string, unknown>,
): typeof fetch {
  return async (input, init) => {
    const url = new URL(String(input));
    if (!url.pathname.endsWith('/Usage') || init?.method !== 'POST' || url.pathname === '/v1/Usage')
      return fetch(input, init);
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    const sent = inspect(url, body) ?? body;
    const response = await fetch(input, { ...init, body: JSON.stringify(sent) });
    if (rewriteAnswer === undefined || !response.ok) return response;
    const rewritten = rewriteAnswer((await response.json()) as Record<string, unknown>);
    return new Response(JSON.stringify(rewritten), {
      status: response.status,
      headers: response.headers,
    });
  };
}

// The proxy speaks what the live service reads, and reads what it answers (live-service-notes.md).
describe('proxy: the live service’s API', () => {
  const sandbox = useSandbox();

  it('asks for the next-term price in the query, where the live service reads it', async () => {
    const seen: URL[] = [];
    // The live service does not read a body NextTerm: leave only the query's.
    const proxy = createBillingProxy(
      proxyOptions(sandbox, {
        fetch: pricingFetch((url, body) => {
          seen.push(url);
          const { NextTerm: _ignored, ...rest } = body;
          return rest;
        }),
      }),
    );
    const { status, body } = await call(proxy, '/pricing', {
      body: { feature: 'seats', increment: 3 },
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(seen[0]?.searchParams.get('NextTerm'), 'true');
    assert.equal(seen[0]?.searchParams.has('EnsureBillable'), false, 'not sent unless configured');
    assert.equal(typeof body.NextTerm?.AmountTotal, 'number', 'the next-term price is there');
  });

  it('sends EnsureBillable in the query when configured', async () => {
    const seen: URL[] = [];
    const proxy = createBillingProxy(
      proxyOptions(sandbox, {
        ensureBillable: true,
        fetch: pricingFetch((url) => void seen.push(url)),
      }),
    );
    const { status } = await call(proxy, '/pricing', { body: { feature: 'seats', increment: 1 } });
    assert.equal(status, 200);
    assert.equal(seen[0]?.searchParams.get('EnsureBillable'), 'true');
  });

  it('reads a quote in the live reference’s form into the seed’s names', async () => {
    // The live form: AmountTotalDue and DatePeriodEnd instead of AmountTotal and DatePeriodTerm,
    // no localized labels.
    const liveForm = (answer: Record<string, unknown>) => {
      const {
        AmountTotal,
        AmountSubtotal: _subtotal,
        DatePeriodTerm,
        LabelLocalized: _label,
        PricingLocalized: _pricing,
        NextTerm,
        ...rest
      } = answer;
      const next = NextTerm as Record<string, unknown>;
      return {
        ...rest,
        AmountTotalDue: AmountTotal,
        DatePeriodEnd: DatePeriodTerm,
        NextTerm: { AmountTotalDue: next.AmountTotal },
        Details: [{ LabelLocalized: '1 × Seats', AmountTotalDue: AmountTotal, QuantityBilled: 1 }],
      };
    };
    const seed = createBillingProxy(proxyOptions(sandbox));
    const live = createBillingProxy(
      proxyOptions(sandbox, { fetch: pricingFetch(() => {}, liveForm) }),
    );
    const expected = (await call(seed, '/pricing', { body: { feature: 'seats', increment: 3 } }))
      .body;
    const { status, body } = await call(live, '/pricing', {
      body: { feature: 'seats', increment: 3 },
      headers: { 'accept-language': 'fr-FR' },
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.AmountTotal, expected.AmountTotal);
    assert.equal(body.AmountSubtotal, expected.AmountTotal);
    assert.equal(body.DatePeriodTerm, expected.DatePeriodTerm);
    assert.equal(body.NextTerm.AmountTotal, expected.NextTerm.AmountTotal);
    assert.equal(body.AmountTotalDue, undefined, 'one form reaches the browser');
    assert.equal(body.LabelLocalized, 'À payer maintenant');
    const euros = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: body.Currency });
    assert.equal(body.PricingLocalized, euros.format(expected.AmountTotal / 100));
    assert.equal(body.Details[0].QuantityBilled, 1);
    assert.equal(body.confirmationRequired, expected.confirmationRequired);

    // A quote with no amount in either form is an invalid answer, not a price of 0.
    const broken = createBillingProxy(
      proxyOptions(sandbox, {
        fetch: pricingFetch(
          () => {},
          (answer) => ({ ...liveForm(answer), AmountTotalDue: undefined }),
        ),
      }),
    );
    const refused = await call(broken, '/pricing', { body: { feature: 'seats', increment: 3 } });
    assert.equal(refused.status, 502);
    assert.equal(refused.body.code, 'upstream-error');
  });

  it('calls the paths it is given: the live reference’s /v1/Quoting/Usage', async () => {
    const seen: URL[] = [];
    const proxy = createBillingProxy(
      proxyOptions(sandbox, {
        paths: { pricing: '/v1/Quoting/Usage' },
        fetch: pricingFetch((url) => void seen.push(url)),
      }),
    );
    const { status, body } = await call(proxy, '/pricing', {
      body: { feature: 'seats', increment: 3 },
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(seen[0]?.pathname, '/v1/Quoting/Usage');
    assert.throws(
      () => createBillingProxy(proxyOptions(sandbox, { paths: { pricing: 'v1/Quoting?x=1' } })),
      /paths\.pricing: must be a path starting with "\/"/,
    );
  });

  it('sends the customer’s language with the customer upsert', async () => {
    const proxy = createBillingProxy(
      proxyOptions(sandbox, {
        identify: () => ({
          reference: 'newcomer-fr',
          name: 'Nouvelle Cliente',
          email: 'nouvelle@example.test',
          language: 'fr-FR',
        }),
      }),
    );
    const { status } = await call(proxy, '/usages');
    assert.equal(status, 200);
    const state = await control(sandbox).customer('newcomer-fr');
    assert.equal(state.customer.Language, 'fr');
  });
});

// GET /invoices against the real sandbox: one page of the signed-in customer's invoices, newest
// first, in the customer's words (due, overdue, paid, credit note), the suspension beside them,
// the live service's 204 for no invoice, and the customer always the identified one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InvoiceSummary, InvoicesResponse } from '../../src/contract/index.js';
import { createBillingProxy, type BillingProxy } from '../../src/server/index.js';
import { call, control, proxyOptions, type RunningSandbox, useSandbox } from './helpers.js';

const byDateDescending = (invoices: InvoiceSummary[]) =>
  invoices.every(
    (invoice, index) => index === 0 || invoices[index - 1]!.dateIssue >= invoice.dateIssue,
  );

/** A fetch that rewrites the sandbox's invoices list answers with `rewrite`. */
function rewritingInvoices(rewrite: (answer: Response) => Promise<Response>): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    return url.pathname === '/v1/Invoices' ? rewrite(response) : response;
  };
}

describe('GET /invoices', () => {
  let sandbox: RunningSandbox;
  let proxy: BillingProxy;
  useSandbox((started) => {
    sandbox = started;
    proxy = createBillingProxy(proxyOptions(sandbox));
  });

  it('pages the customer’s invoices newest first, each in the customer’s words', async () => {
    const first = await call(proxy, '/invoices', { customer: 'discounted' });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.headers.get('cache-control'), 'no-store');
    const page1 = first.body as InvoicesResponse;
    assert.deepEqual([page1.page, page1.size, page1.total], [1, 10, 13]);
    assert.equal(page1.invoices.length, 10);
    assert.ok(byDateDescending(page1.invoices));
    const [due, credit, paid] = page1.invoices;
    assert.deepEqual(
      [due!.status, due!.state, due!.payable, due!.amountTotal, due!.amountSubtotal],
      ['due', 'PaymentDue', true, 3920, 3267],
    );
    assert.equal(due!.datePaid, null);
    assert.ok(due!.datePaymentLimit! > due!.dateIssue);
    assert.deepEqual(
      [credit!.status, credit!.payable, credit!.amountTotal],
      ['credit-note', false, -980],
    );
    assert.deepEqual([paid!.status, paid!.payable], ['paid', false]);
    assert.ok(paid!.datePaid);
    assert.equal(paid!.currency, 'USD');
    // The document is the service's own page, on the hosted origin the answer names.
    assert.ok(page1.hostedOrigin);
    for (const invoice of page1.invoices)
      assert.equal(new URL(invoice.documentUrl!).origin, page1.hostedOrigin);
    assert.equal(page1.suspended, undefined);

    const second = (await call(proxy, '/invoices?page=2', { customer: 'discounted' }))
      .body as InvoicesResponse;
    assert.deepEqual([second.page, second.total, second.invoices.length], [2, 13, 3]);
    const ids = new Set([...page1.invoices, ...second.invoices].map((invoice) => invoice.id));
    assert.equal(ids.size, 13, 'no invoice on two pages');
    assert.ok(page1.invoices.at(-1)!.dateIssue >= second.invoices[0]!.dateIssue);
    const small = (await call(proxy, '/invoices?page=3&size=5', { customer: 'discounted' }))
      .body as InvoicesResponse;
    assert.deepEqual(
      small.invoices.map((invoice) => invoice.id),
      second.invoices.map((invoice) => invoice.id),
    );
    const beyond = (await call(proxy, '/invoices?page=9', { customer: 'discounted' }))
      .body as InvoicesResponse;
    assert.deepEqual([beyond.invoices, beyond.total], [[], 13]);
  });

  it('says overdue past the payment limit, with the suspension it caused', async () => {
    const { body, status } = await call(proxy, '/invoices', { customer: 'capping-reached' });
    assert.equal(status, 200);
    const answer = body as InvoicesResponse;
    assert.deepEqual(
      answer.invoices.map((invoice) => [invoice.status, invoice.payable]),
      [
        ['overdue', true],
        ['overdue', true],
      ],
    );
    assert.deepEqual(answer.suspended, { paymentCappingReached: true, reason: 'payment-due' });
  });

  it('shows a paid invoice as paid, no longer payable', async () => {
    const before = (await call(proxy, '/invoices', { customer: 'capping-reached' }))
      .body as InvoicesResponse;
    const oldest = before.invoices.at(-1)!;
    // The hosted charge page's form, as the customer submits it.
    const portal = await call(proxy, `/portal?page=pay-invoice&invoice=${oldest.id}`, {
      customer: 'capping-reached',
    });
    assert.equal(portal.status, 200, portal.text);
    await control(sandbox).payInvoice(oldest.id);
    const after = (await call(proxy, '/invoices', { customer: 'capping-reached' }))
      .body as InvoicesResponse;
    const paid = after.invoices.find((invoice) => invoice.id === oldest.id)!;
    assert.deepEqual([paid.status, paid.payable], ['paid', false]);
    assert.ok(paid.datePaid);
  });

  it('answers an empty page for a customer without invoices, and for the live 204', async () => {
    const empty = await call(proxy, '/invoices', { customer: 'healthy' });
    assert.equal(empty.status, 200);
    assert.deepEqual(
      { ...empty.body, hostedOrigin: undefined },
      { invoices: [], page: 1, size: 10, total: 0, hostedOrigin: undefined },
    );
    // The live service answers a list with no invoice 204, without a body.
    let rewritten = 0;
    const live = createBillingProxy(
      proxyOptions(sandbox, {
        fetch: rewritingInvoices(async (response) => {
          const list = (await response.json()) as { TotalItems: number };
          if (list.TotalItems > 0) return Response.json(list);
          rewritten += 1;
          return new Response(null, { status: 204 });
        }),
      }),
    );
    const noContent = await call(live, '/invoices', { customer: 'healthy' });
    assert.equal(noContent.status, 200, noContent.text);
    assert.equal(rewritten, 1);
    assert.deepEqual([noContent.body.invoices, noContent.body.total], [[], 0]);
    // An unknown customer is created (ensureCustomer) and has none.
    const created = await call(proxy, '/invoices', { customer: 'brand-new-customer' });
    assert.deepEqual([created.status, created.body.invoices], [200, []]);
  });

  it('lists only the identified customer’s invoices, whatever the browser sends', async () => {
    const healthy = (await call(proxy, '/invoices')).body as InvoicesResponse;
    assert.deepEqual(healthy.invoices, []);
    for (const query of [
      'ReferenceCustomer=capping-reached',
      'customer=capping-reached',
      'IdCustomer=502',
    ]) {
      const refused = await call(proxy, `/invoices?${query}`);
      assert.equal(refused.status, 400, query);
      assert.equal(refused.body.code, 'validation');
      assert.doesNotMatch(refused.text, /INV-/);
    }
    // An item the service attributes to someone else never leaves the proxy.
    const carl = (await call(proxy, '/invoices', { customer: 'capping-reached' }))
      .body as InvoicesResponse;
    const mixing = createBillingProxy(
      proxyOptions(sandbox, {
        fetch: async (input, init) => {
          const url = new URL(input instanceof Request ? input.url : String(input));
          if (url.pathname !== '/v1/Invoices') return fetch(input, init);
          const own = (await (await fetch(input, init)).json()) as { Items: unknown[] };
          url.searchParams.set('ReferenceCustomer', 'capping-reached');
          const other = (await (await fetch(url, init)).json()) as { Items: unknown[] };
          return Response.json({ ...own, Items: [...own.Items, ...other.Items] });
        },
      }),
    );
    const mixed = (await call(mixing, '/invoices', { customer: 'discounted' }))
      .body as InvoicesResponse;
    assert.equal(mixed.invoices.length, 10);
    const carlIds = new Set(carl.invoices.map((invoice) => invoice.id));
    assert.ok(mixed.invoices.every((invoice) => !carlIds.has(invoice.id)));
    // Nor can another's invoice be paid or opened through the portal routes.
    for (const route of ['/portal', '/links']) {
      const other = await call(proxy, `${route}?page=pay-invoice&invoice=${carl.invoices[0]!.id}`);
      assert.equal(other.status, 404, route);
      assert.equal(other.body.code, 'not-found');
      assert.doesNotMatch(other.text, /capping|Carl|4900/i);
    }
  });

  it('refuses the signed-out, bad pages and other methods', async () => {
    const signedOut = await call(proxy, '/invoices', { customer: null });
    assert.equal(signedOut.status, 401);
    assert.equal(signedOut.body.code, 'unauthenticated');
    for (const [query, field] of [
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=abc', 'page'],
      ['page=1.5', 'page'],
      ['page=100001', 'page'],
      ['size=0', 'size'],
      ['size=51', 'size'],
      ['page=1&page=2', 'page'],
      ['sort=asc', 'sort'],
    ] as const) {
      const refused = await call(proxy, `/invoices?${query}`, { customer: 'discounted' });
      assert.equal(refused.status, 400, query);
      assert.equal(refused.body.code, 'validation', query);
      assert.equal(refused.body.field, field, query);
    }
    const post = await call(proxy, '/invoices', { method: 'POST', body: {} });
    assert.equal(post.status, 405);
  });
});

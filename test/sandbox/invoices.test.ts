import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvoiceSchema } from '../../src/contract/index.js';
import { assertRefused, link, rels, useTestSandbox } from './helpers.js';
import { openPage } from './hosted-pages.js';

describe('GET /v1/Invoice/{id} (endpoint 12)', () => {
  const t = useTestSandbox();

  it('answers a due invoice with its charge, document and list links', async () => {
    const [first] = (await t.customer('capping-reached')).invoices;
    const res = await t.api('GET', `/v1/Invoice/${first.Id}`);
    assert.equal(res.status, 200);
    const invoice = InvoiceSchema.parse(res.body);
    assert.equal(invoice.StateInvoice, 'PaymentDue');
    assert.equal(invoice.ReferenceCustomer, 'capping-reached');
    assert.equal(invoice.ReferenceSegment, 'main');
    assert.equal(invoice.AmountTotal, 4900);
    // Issued 45 days before 2026-11-16, due 14 days later.
    assert.equal(invoice.DateIssue, '2026-10-02T00:00:00.000Z');
    assert.equal(invoice.DatePaymentLimit, '2026-10-16T00:00:00.000Z');
    assert.deepEqual(rels(res.body), [
      'hosted-charge',
      'hosted-collection-invoice',
      'hosted-related-invoice',
      'insite-charge',
      'self',
    ]);
    for (const [rel, page] of [
      ['hosted-charge', 'charge'],
      ['hosted-related-invoice', 'invoice'],
      ['hosted-collection-invoice', 'invoices'],
    ] as const) {
      const href = link(res.body, rel).href ?? '';
      assert.ok(href.startsWith(`${t.sandbox.hostedUrl}/${page}/`), rel);
      assert.equal((await openPage(href)).status, 200, rel);
    }
  });

  it('drops the charge links once the invoice is paid', async () => {
    const [, second] = (await t.customer('capping-reached')).invoices;
    await t.control('POST', `/invoices/${second.Id}/pay`);
    const res = await t.api('GET', `/v1/Invoice/${second.Id}`);
    assert.equal(res.body.StateInvoice, 'Paid');
    assert.equal(res.body.DatePaid, '2026-11-16T00:00:00.000Z');
    assert.deepEqual(rels(res.body), [
      'hosted-collection-invoice',
      'hosted-related-invoice',
      'self',
    ]);
  });

  it('answers 404 for an unknown invoice and 422 for a malformed id', async () => {
    const unknown = await t.api('GET', '/v1/Invoice/123456');
    assertRefused(unknown, 404, 'Error.Invoice.NotFound');
    const malformed = await t.api('GET', '/v1/Invoice/abc');
    assert.equal(malformed.status, 422);
    assert.equal(malformed.body[0].Target, 'IdInvoice');
    const pay = await t.control('POST', '/invoices/123456/pay');
    assert.equal(pay.status, 404);
  });
});

describe('invoice numbers', () => {
  const t = useTestSandbox();

  it('follow the issue dates: an older invoice has a lower number, across customers', async () => {
    const invoices: { FullNumber: string; DateIssue: string }[] = [];
    for (const reference of ['capping-reached', 'discounted']) {
      for (const { Id } of (await t.customer(reference)).invoices)
        invoices.push((await t.api('GET', `/v1/Invoice/${Id}`)).body);
    }
    // A year of the discounted customer's history and the capped customer's two invoices.
    assert.ok(invoices.length >= 15, `${invoices.length} invoices`);
    const byDate = [...invoices].sort((a, b) => a.DateIssue.localeCompare(b.DateIssue));
    const byNumber = [...invoices].sort((a, b) => a.FullNumber.localeCompare(b.FullNumber));
    assert.deepEqual(
      byNumber.map((invoice) => `${invoice.DateIssue.slice(0, 10)} ${invoice.FullNumber}`),
      byDate.map((invoice) => `${invoice.DateIssue.slice(0, 10)} ${invoice.FullNumber}`),
    );
  });

  it('read newest first on the hosted list, whatever order the fixtures list them in', async () => {
    const [any] = (await t.customer('discounted')).invoices;
    const invoice = (await t.api('GET', `/v1/Invoice/${any.Id}`)).body;
    const list = await openPage(link(invoice, 'hosted-collection-invoice').href ?? '');
    const numbers = [...list.html.matchAll(/INV-\d{4}-\d{6}/g)].map((match) => match[0]);
    assert.equal(new Set(numbers).size, 13, 'the year of invoices and the credit note');
    assert.deepEqual(numbers, [...numbers].sort().reverse());
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestSandbox } from './helpers.js';
import { findLink, openPage, type HostedPageView } from './hosted-pages.js';

// The hosted invoice document, read over HTTP: its lines (a discount named, with its amount),
// the total before tax, the tax with its rate and the total, each right and adding up, in
// English and French, in the business's colours.

interface Row {
  label: string;
  amount: string;
}

/** The rows of the document's table of lines (body then footer): label and amount cells. */
function rows(page: HostedPageView): Row[] {
  const table = /<table class="invoice-lines">[\s\S]*?<\/thead>([\s\S]*?)<\/table>/.exec(
    page.html,
  )?.[1];
  assert.ok(table, `no table of lines on ${page.url}`);
  const text = (cell: string) =>
    cell
      .replace(/<[^>]+>/g, '')
      .replace(/&nbsp;/g, '\u00a0')
      .replace(/[ \t\n\r]+/g, ' ')
      .trim();
  return [
    ...table.matchAll(
      /<tr[^>]*>\s*<(?:td|th)[^>]*>([\s\S]*?)<\/(?:td|th)>\s*<td[^>]*>([\s\S]*?)<\/td>/g,
    ),
  ].map((m) => ({ label: text(m[1] as string), amount: text(m[2] as string) }));
}

/** Hundredths from "$39.20", "−$9.80", "39,20 $US", "-9,80 $US". */
function cents(amount: string): number {
  const negative = /^[−-]/.test(amount);
  const digits = amount.replace(/[^\d]/g, '');
  return (negative ? -1 : 1) * Number(digits);
}

describe('hosted invoice document', () => {
  const t = useTestSandbox();

  const documentOf = async (reference: string, index: number, lang: string) => {
    const customer = await t.customer(reference);
    const invoice = customer.invoices[index] as {
      FullNumber: string;
      AmountTotal: number;
      AmountSubtotal: number;
      Links: { rel: string; href: string }[];
    };
    const href = invoice.Links.find((l) => l.rel === 'hosted-related-invoice')?.href;
    assert.ok(href, 'the invoice links its document');
    return { invoice, page: await openPage(`${href}?lang=${lang}`) };
  };

  it('shows the discounted price, the discount, the tax and the total, adding up (English)', async () => {
    const customer = await t.customer('discounted');
    const last = customer.invoices.length - 1;
    const { invoice, page } = await documentOf('discounted', last, 'en');
    assert.equal(page.status, 200);
    assert.deepEqual(rows(page), [
      { label: 'Pro', amount: '$49.00' },
      { label: 'Discount: 20% off everything', amount: '-$9.80' },
      { label: 'Total before tax', amount: '$32.67' },
      { label: 'Tax (20%)', amount: '$6.53' },
      { label: 'Total', amount: '$39.20' },
    ]);
    assert.match(page.html, /Amount, tax included/);
    assert.doesNotMatch(page.html, />\s*Subtotal\s*</);
    const [list, discount, beforeTax, tax, total] = rows(page).map((row) => cents(row.amount));
    assert.equal(list! + discount!, total, 'the lines add up to the total');
    assert.equal(beforeTax! + tax!, total, 'before tax and tax add up to the total');
    assert.equal(total, invoice.AmountTotal);
    assert.equal(beforeTax, invoice.AmountSubtotal);
  });

  it('says the same in French, and the credit note adds up too', async () => {
    const customer = await t.customer('discounted');
    const last = customer.invoices.length - 1;
    const { page } = await documentOf('discounted', last, 'fr');
    assert.deepEqual(
      rows(page).map((row) => row.label),
      [
        'Pro',
        'Remise\u00a0: 20\u00a0% de remise sur tout',
        'Total hors taxes',
        'Taxes (20\u00a0%)',
        'Total',
      ],
    );
    assert.deepEqual(
      rows(page).map((row) => cents(row.amount)),
      [4900, -980, 3267, 653, 3920],
    );
    const credit = customer.invoices.findIndex((i: { AmountTotal: number }) => i.AmountTotal < 0);
    const note = await documentOf('discounted', credit, 'en');
    const [list, discount, beforeTax, tax, total] = rows(note.page).map((row) => cents(row.amount));
    assert.equal(total, -980);
    assert.equal(list! + discount!, total);
    assert.equal(beforeTax! + tax!, total);
    assert.ok(discount! > 0, 'a credit note gives back the price less its discount');
  });

  it('says the tax on an invoice it issues to a taxed customer, as on the invoices before', async () => {
    // Dario's prices include 20 % tax: three seats more than his three, one beyond the five
    // included, charged now.
    const applied = await t.api('POST', '/v1/Usage', {
      ReferenceCustomer: 'discounted',
      ReferenceFeature: 'seats',
      Increment: 3,
      DateStamp: new Date().toISOString(),
    });
    assert.equal(applied.status, 200);
    const customer = await t.customer('discounted');
    const issued = customer.invoices.length - 1;
    const { invoice, page } = await documentOf('discounted', issued, 'en');
    assert.ok(invoice.AmountTotal > 0, 'the extra seat is invoiced');
    assert.equal(invoice.AmountSubtotal, Math.round(invoice.AmountTotal / 1.2));
    const labels = rows(page).map((row) => row.label);
    assert.deepEqual(labels.slice(-3), ['Total before tax', 'Tax (20%)', 'Total']);
    const [beforeTax, tax, total] = rows(page)
      .slice(-3)
      .map((row) => cents(row.amount));
    assert.equal(beforeTax! + tax!, total);
    assert.equal(total, invoice.AmountTotal);
  });

  it('shows no tax rows on an invoice without tax', async () => {
    const { page } = await documentOf('capping-reached', 0, 'en');
    assert.deepEqual(rows(page), [
      { label: 'Pro', amount: '$49.00' },
      { label: 'Total', amount: '$49.00' },
    ]);
  });

  it('wears the business’s accent, and the embedding page’s when it gives one', async () => {
    const { page } = await documentOf('discounted', 0, 'en');
    assert.match(page.html, /:root \{ --accent: #0f766e;/);
    assert.match(page.html, /:root\[data-theme="dark"\] \{ --accent: #3ec7b5;/);
    const list = await openPage(`${findLink(page, 'Invoices')}&accent=%23aa3355`);
    const ownAccent = list.html.indexOf(':root[lang] { --accent: #aa3355;');
    assert.ok(ownAccent > list.html.indexOf('--accent: #3ec7b5;'), 'the given accent comes last');
  });
});

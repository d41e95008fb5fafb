import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/elements/billing-history/define.js';
import { BillingHistory } from '../../src/elements/billing-history/billing-history.js';
import type { BillingPortal } from '../../src/elements/billing-portal/billing-portal.js';
import { configureBilling } from '../../src/client/config.js';
import { loadLanguage } from '../../src/client/i18n.js';
import {
  addFault,
  sandbox,
  freshStart,
  nextEvent,
  serviceApi,
  signOut,
  testEnv,
  until,
} from '../browser/billing.js';
import { canHoldKeys } from '../browser/engine.js';
import { openFrame } from '../browser/frames.js';

// <billing-history> against the real proxy and sandbox: every state (loading, a year of
// invoices to page through, none yet, overdue with the account suspended, a failure and its
// retry, signed out), a due invoice paid through the service's own workflow in the page and
// shown paid without a reload, a live update, French, and a 360 px page.

const parts = (el: Element, name: string) => [
  ...el.shadowRoot!.querySelectorAll<HTMLElement>(`[part~="${name}"]`),
];
const part = (el: Element, name: string) => parts(el, name)[0] ?? null;
const text = (node: Element | null | undefined) =>
  (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
const rows = (el: BillingHistory) =>
  [...el.shadowRoot!.querySelectorAll<HTMLTableRowElement>('tbody tr')].filter(
    (row) => !row.classList.contains('skeleton-row'),
  );
const settled = (el: BillingHistory) =>
  until(() => el.state !== 'loading', `<billing-history> to load (state ${el.state})`, 8000);

describe('<billing-history>', () => {
  beforeEach(() => freshStart('discounted'));

  it('keeps each tax figure with its word, in a table no wider than its host', async () => {
    // From 560 px, where the invoices are cards, to 900 px, where they are a table, in English
    // and French: the table once ran past a host of 560 to 700 px (777 px in French), and the
    // credit note's "tax" was left alone on a line.
    const el = await fixture<BillingHistory>(
      html`<billing-history style="display: block"></billing-history>`,
    );
    await settled(el);
    const table = el.shadowRoot!.querySelector('table')!;
    const taxes = [...el.shadowRoot!.querySelectorAll<HTMLElement>('.tax')];
    expect(taxes.length).to.be.greaterThan(1);
    for (const [lang, width] of ['en', 'fr'].flatMap((lang) =>
      Array.from({ length: 18 }, (_, step) => [lang, 560 + step * 20] as const),
    )) {
      if (document.documentElement.lang !== lang) {
        document.documentElement.lang = lang;
        await until(
          () =>
            el
              .shadowRoot!.querySelector('caption')!
              .textContent!.includes(lang === 'fr' ? 'Factures' : 'Invoices'),
          `${lang} texts`,
        );
      }
      el.style.width = `${width}px`;
      // Within a pixel: the table's borders round to fractions.
      expect(table.getBoundingClientRect().width, `${width} px`).to.be.at.most(width + 1);
      for (const tax of taxes) {
        const node = [...tax.childNodes].find((child) => /tax/.test(child.textContent!))!;
        const content = node.textContent!;
        const top = (start: number, end: number) => {
          const range = document.createRange();
          range.setStart(node, start);
          range.setEnd(node, end);
          return range.getBoundingClientRect().top;
        };
        const word = content.lastIndexOf('tax');
        const figure = content.search(/\d/);
        expect(top(word, word + 3), `${text(tax)} at ${width} px`).to.equal(
          top(figure, figure + 1),
        );
      }
    }
    document.documentElement.lang = 'en';
  });

  it('shows a skeleton of the table, then the invoices newest first in a real table', async () => {
    const el = await fixture<BillingHistory>(html`<billing-history></billing-history>`);
    expect(el.state).to.equal('loading');
    const table = el.shadowRoot!.querySelector('table')!;
    expect(table.getAttribute('aria-busy')).to.equal('true');
    expect(el.shadowRoot!.querySelectorAll('tbody tr.skeleton-row').length).to.equal(3);
    const skeletonHeight = table.getBoundingClientRect().height;
    await settled(el);
    expect(el.state).to.equal('ready');
    expect(table.getAttribute('aria-busy')).to.equal('false');
    expect(table.getBoundingClientRect().height).to.be.greaterThan(skeletonHeight);
    expect(text(el.shadowRoot!.querySelector('caption'))).to.equal('Invoices');
    expect(
      [...el.shadowRoot!.querySelectorAll('thead th')].map((th) => th.getAttribute('role')),
    ).to.deep.equal(Array(5).fill('columnheader'));
    expect([...el.shadowRoot!.querySelectorAll('thead th')].map(text)).to.deep.equal([
      'Date',
      'Number',
      'Amount',
      'Status',
      'Actions',
    ]);
    expect(el.total).to.equal(13);
    expect(rows(el).length).to.equal(10);
    const dates = el.invoices.map((invoice) => invoice.dateIssue);
    expect([...dates].sort().reverse()).to.deep.equal(dates);
    // The due invoice: its amount with the tax it includes, the state, the date to pay by.
    const [due, credit, paid] = rows(el);
    expect(due!.querySelector('th')!.getAttribute('role')).to.equal('rowheader');
    expect(text(due!.querySelector('[part~="amount"]'))).to.equal('$39.20 incl. $6.53 tax');
    expect(text(due!.querySelector('[part~="badge"]'))).to.equal('Due');
    expect(text(due!.querySelector('.when'))).to.match(/^by [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    const pay = due!.querySelector<HTMLButtonElement>('[part~="pay"]')!;
    expect(text(pay)).to.equal('Pay $39.20');
    const number = el.invoices[0]!.number;
    expect(pay.getAttribute('aria-label')).to.equal(`Pay $39.20 for invoice ${number}`);
    // A credit note: its amount with a real minus sign, no payment.
    expect(text(credit!.querySelector('[part~="badge"]'))).to.equal('Credit note');
    expect(text(credit!.querySelector('.total'))).to.equal('\u2212$9.80');
    expect(credit!.querySelector('[part~="pay"]')).to.equal(null);
    expect(credit!.querySelector('[part~="view"]')!.getAttribute('aria-label')).to.match(
      /^View credit note INV-\d{4}-\d{6} \(opens in a new tab\)$/,
    );
    expect(text(paid!.querySelector('[part~="badge"]'))).to.equal('Paid');
    expect(text(paid!.querySelector('.when'))).to.match(/^on /);
    // The document: the service's own page, in a new tab.
    const { sandboxUrl } = await testEnv();
    const view = paid!.querySelector<HTMLAnchorElement>('[part~="view"]')!;
    expect(new URL(view.href).origin).to.equal(new URL(sandboxUrl).origin);
    expect([view.target, view.rel]).to.deep.equal(['_blank', 'noopener']);
    expect(view.getAttribute('aria-label')).to.equal(
      `View invoice ${el.invoices[2]!.number} (opens in a new tab)`,
    );
    expect(text(part(el, 'footer'))).to.equal('10 of 13 invoices shown Show 3 more invoices');
    await expect(el).to.be.accessible();
  });

  it('shows the next page from the keyboard and moves the focus to its first invoice', async () => {
    const el = await fixture<BillingHistory>(html`<billing-history></billing-history>`);
    await settled(el);
    const firstTen = el.invoices.map((invoice) => invoice.id);
    part(el, 'more')!.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => rows(el).length === 13, 'the second page');
    expect(el.invoices.slice(0, 10).map((invoice) => invoice.id)).to.deep.equal(firstTen);
    expect(new Set(el.invoices.map((invoice) => invoice.id)).size).to.equal(13);
    await until(
      () => el.shadowRoot!.activeElement === rows(el)[10]!.querySelector('th'),
      'the focus on the first invoice added',
    );
    expect(part(el, 'more')).to.equal(null);
    expect(text(part(el, 'footer'))).to.equal('13 of 13 invoices shown');
    expect(text(el.shadowRoot!.querySelector('[role="status"]'))).to.equal(
      '13 of 13 invoices shown',
    );
    await expect(el).to.be.accessible();
  });

  it('pages by page-size', async () => {
    const el = await fixture<BillingHistory>(
      html`<billing-history page-size="5"></billing-history>`,
    );
    await settled(el);
    expect(rows(el).length).to.equal(5);
    expect(text(part(el, 'more'))).to.equal('Show 5 more invoices');
    await el.showMore();
    await el.showMore();
    expect(rows(el).length).to.equal(13);
  });

  it('says when there is no invoice yet, calmly', async () => {
    await freshStart('healthy');
    const el = await fixture<BillingHistory>(html`<billing-history></billing-history>`);
    await settled(el);
    expect(el.state).to.equal('empty');
    expect(el.shadowRoot!.querySelector('table')).to.equal(null);
    const box = part(el, 'message')!;
    expect(text(box)).to.equal('No invoices yet. Each invoice appears here once it is issued.');
    expect(box.getAttribute('role')).to.equal(null);
    expect(box.dataset.kind).to.equal('calm');
    await expect(el).to.be.accessible();
  });

  it('counts a single invoice in the singular', async () => {
    await freshStart('healthy');
    // Three seats more than her 3 of 5: two are included, the third is invoiced now.
    await serviceApi('Usage', {
      ReferenceCustomer: 'healthy',
      ReferenceFeature: 'seats',
      Increment: 3,
      DateStamp: new Date().toISOString(),
    });
    const el = await fixture<BillingHistory>(html`<billing-history></billing-history>`);
    await settled(el);
    expect(rows(el).length).to.equal(1);
    expect(text(part(el, 'footer'))).to.equal('1 invoice');
  });

  it('shows overdue invoices and the suspension they caused, the oldest Pay as the remedy', async () => {
    await freshStart('capping-reached');
    const el = await fixture<BillingHistory>(html`<billing-history></billing-history>`);
    await settled(el);
    expect(text(part(el, 'notice'))).to.equal(
      'Your subscription is suspended because invoices are overdue: pay them, then restart it.',
    );
    expect(rows(el).map((row) => text(row.querySelector('[part~="badge"]')))).to.deep.equal([
      'Overdue',
      'Overdue',
    ]);
    expect(text(rows(el)[0]!.querySelector('.when'))).to.match(/^since /);
    const pays = parts(el, 'pay');
    expect(pays.length).to.equal(2);
    expect(pays[1]!.getAttribute('part')).to.equal('button pay remedy');
    expect(pays[0]!.getAttribute('part')).to.equal('button pay');
    await expect(el).to.be.accessible();
  });

  it('pays an invoice through the service’s workflow in the page, then shows it paid', async function () {
    // A payment in the service's page, then two live re-reads: longer than one step.
    this.timeout(25_000);
    await freshStart('capping-reached');
    const el = await fixture<BillingHistory>(html`<billing-history></billing-history>`);
    await settled(el);
    const oldest = el.invoices.at(-1)!;
    const asked = nextEvent<CustomEvent>(el, 'billing-remedy');
    const ready = nextEvent(document, 'billing-portal-ready');
    parts(el, 'pay')[1]!.click();
    expect((await asked).detail).to.deep.equal({ page: 'pay-invoice', invoice: oldest.id });
    await ready;
    // No <billing-portal> on the page: a modal one, on the hosted charge page of that invoice.
    const portal = document.querySelector<BillingPortal>('billing-portal')!;
    const iframe = portal.querySelector('iframe')!;
    expect(iframe.src).to.contain('/hosted/charge/');
    const completed = nextEvent<CustomEvent>(document, 'billing-portal-complete');
    // The saved card is chosen; Tab into the form and submit it with Enter, as a keyboard user
    // does, once the modal shows the page and the focus is in its frame. The key goes up only
    // once the frame has shown its next page: Enter submits on key down, and a key up sent to a
    // frame in the middle of its navigation could stay unacknowledged by Chromium on a loaded
    // machine (the command then never returned).
    await until(() => portal.state === 'open', 'the portal open', 8000);
    iframe.focus();
    await until(() => document.activeElement === iframe, 'the frame focused');
    await sendKeys({ press: 'Tab' });
    await sendKeys({ press: 'Tab' });
    await sendKeys(canHoldKeys ? { down: 'Enter' } : { press: 'Enter' });
    expect((await completed).detail.workflow).to.equal('charge');
    if (canHoldKeys) await sendKeys({ up: 'Enter' });
    await until(
      () => el.invoices.find((invoice) => invoice.id === oldest.id)?.status === 'paid',
      'the invoice shown paid',
      8000,
    );
    const row = rows(el).at(-1)!;
    expect(text(row.querySelector('[part~="badge"]'))).to.equal('Paid');
    expect(row.querySelector('[part~="pay"]')).to.equal(null);
    expect(parts(el, 'pay').length).to.equal(1);
    expect(text(el.shadowRoot!.querySelector('[role="status"]'))).to.equal(
      `Invoice ${oldest.number} is paid.`,
    );
    // One overdue invoice is below the business's threshold: the restart is open now, as the
    // other elements say, and the invoice left stays listed to pay.
    await until(
      () => text(part(el, 'notice')).startsWith('Your subscription is suspended. You can'),
      'the notice that the restart is open',
      8000,
    );
    expect(text(part(el, 'notice'))).to.equal(
      'Your subscription is suspended. You can restart it now; what is still overdue is listed below.',
    );
    portal.shadowRoot!.querySelector('dialog')!.close();
  });

  it('follows a live update: an invoice issued elsewhere appears at the top', async () => {
    const el = await fixture<BillingHistory>(html`<billing-history></billing-history>`);
    await settled(el);
    // Three seats more than the five included: two are free, the third is invoiced now.
    await serviceApi('Usage', {
      ReferenceCustomer: 'discounted',
      ReferenceFeature: 'seats',
      Increment: 3,
      DateStamp: new Date().toISOString(),
    });
    await until(() => el.total === 14, 'the new invoice, live', 10_000);
    expect(rows(el).length).to.equal(10);
    expect(el.invoices[0]!.status).to.equal('paid');
    expect(el.invoices[1]!.status).to.equal('due');
  });

  it('says a failure and reads again on retry', async () => {
    // Every read fails (each of the proxy's tries) until the faults are cleared: the element may
    // read more than once (a live update of the previous test, the usage store it follows).
    await addFault({ route: 'GET /v1/Invoices', mode: 'status-500', times: 1000 });
    const failed = nextEvent<CustomEvent>(document, 'billing-error');
    const el = await fixture<BillingHistory>(html`<billing-history></billing-history>`);
    await settled(el);
    expect(el.state).to.equal('error');
    expect((await failed).detail.code).to.equal('upstream-unavailable');
    const box = part(el, 'message')!;
    expect(box.getAttribute('role')).to.equal('alert');
    expect(text(box)).to.match(/^Your invoices could not be loaded\. .+ Try again$/);
    await expect(el).to.be.accessible();
    await sandbox('faults', undefined, 'DELETE');
    part(el, 'retry')!.click();
    await until(() => el.state === 'ready', 'the invoices after the retry');
    expect(rows(el).length).to.equal(10);
  });

  it('asks a signed-out customer to sign in', async () => {
    signOut();
    configureBilling({ signInUrl: '/login' });
    const el = await fixture<BillingHistory>(html`<billing-history></billing-history>`);
    await settled(el);
    expect(el.state).to.equal('signed-out');
    expect(text(part(el, 'message'))).to.equal('Sign in to see your invoices. Sign in');
    expect(new URL((part(el, 'sign-in') as HTMLAnchorElement).href).pathname).to.equal('/login');
    await expect(el).to.be.accessible();
  });

  it('speaks French under a French lang, with its typography', async () => {
    const wrapper = await fixture<HTMLElement>(
      html`<div lang="fr"><billing-history></billing-history></div>`,
    );
    const el = wrapper.querySelector('billing-history')!;
    await settled(el);
    // The French texts come on demand, once the page shows French: then the element renders again.
    await loadLanguage('fr');
    await el.updateComplete;
    expect([...el.shadowRoot!.querySelectorAll('thead th')].map(text)).to.deep.equal([
      'Date',
      'Numéro',
      'Montant',
      'État',
      'Actions',
    ]);
    const [due] = rows(el);
    expect(text(due!.querySelector('[part~="badge"]'))).to.equal('À payer');
    expect(text(due!.querySelector('[part~="pay"]'))).to.match(/^Payer 39,20\s\$US$/);
    expect(text(due!.querySelector('.tax'))).to.match(/^dont 6,53\s\$US de taxes$/);
    expect(text(part(el, 'more'))).to.equal('Afficher 3 factures de plus');
    await freshStart('capping-reached');
    el.refresh();
    await until(() => el.total === 2, 'the other customer');
    // The no-break space before the colon, as written (text() would fold it).
    expect(part(el, 'notice')!.textContent).to.equal(
      'Votre abonnement est suspendu car des factures sont en retard\u00a0: payez-les, puis réactivez-le.',
    );
  });

  it('fits a 360 px page: each invoice a small card, nothing wider than the page', async () => {
    const tab = await openFrame({ width: 360, height: 640 });
    try {
      tab.document.body.style.margin = '16px';
      const el = tab.document.createElement('billing-history') as BillingHistory;
      tab.document.body.append(el);
      await until(() => el.state === 'ready', 'the invoices in the frame', 8000);
      await el.updateComplete;
      expect(tab.document.documentElement.scrollWidth).to.be.at.most(360);
      const row = rows(el)[0]!;
      expect(getComputedStyle(row).display).to.equal('grid');
      const pay = row.querySelector('[part~="pay"]')!.getBoundingClientRect();
      expect(pay.right).to.be.at.most(360 - 16 + 0.5);
      expect(pay.height).to.be.at.least(32);
    } finally {
      tab.remove();
    }
  });

  it('can be defined twice under the same tag without throwing', () => {
    expect(() => BillingHistory.define()).to.not.throw();
    expect(customElements.get('billing-history')).to.equal(BillingHistory);
  });
});

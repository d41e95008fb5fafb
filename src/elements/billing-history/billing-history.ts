import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { InvoiceSummary, InvoicesResponse } from '../../contract/proxy-api.js';
import { getBillingConfig } from '../../client/config.js';
import { toBillingError, type BillingError } from '../../client/errors.js';
import { BillingErrorEvent, BillingRemedyEvent } from '../../client/events.js';
import {
  errorMessage,
  followLang,
  formatDate,
  formatMoney,
  message,
  registerTexts,
} from '../../client/i18n.js';
import { getInvoices } from '../../client/invoices-client.js';
import { followableUrl, httpUrl } from '../../client/safe-url.js';
import { registerSharedTexts } from '../../client/shared-texts.js';
import { UsageStoreController } from '../../client/usage-store-controller.js';
import { CallToAction, failureRemedy, type Remedy } from '../shared/call-to-action.js';
import { defineElement } from '../shared/define.js';
import { remedyPointer } from '../shared/remedy-pointer.js';
import { openPortalOnDemand, reloadButton } from '../shared/remedy.js';
import { historyTexts } from './messages.js';
import { billingHistoryStyles } from './styles.js';

export type HistoryState = 'loading' | 'ready' | 'empty' | 'signed-out' | 'error';

/** Invoices per page unless `page-size` says otherwise (the proxy allows 1 to 50). */
const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 50;
/** Rows of the loading skeleton: the table's final shape, before its figures. */
const SKELETON_ROWS = 3;

const MINUS_SIGN = '\u2212';

const OPEN_STATUSES: ReadonlySet<string> = new Set(['due', 'overdue']);

/**
 * The signed-in customer's invoices, newest first, a page at a time: date, number, amount (tax
 * as the service gives it), state in words, and for each the action that fits: pay a due or
 * overdue invoice through the service's own payment workflow in the page (the page's
 * `<billing-portal>`, else a modal one), and open the invoice document, a page of the service.
 * The list follows the page's live updates (an invoice issued or paid elsewhere) and reads
 * itself again when a portal workflow completes, so a payment shows as paid without a reload.
 *
 * @tag billing-history
 * @summary The customer's invoices, with their payment and documents, in the page.
 *
 * @event billing-remedy - The customer asked to pay an invoice; cancel it to open the payment yourself. `detail`: `{ page: 'pay-invoice', invoice }`.
 * @event billing-error - The invoices could not be loaded, or the payment workflow could not open. `detail`: `{ error }`.
 *
 * @csspart base - The wrapper of the element.
 * @csspart notice - The sentence above the table when the subscription is suspended for overdue invoices.
 * @csspart table - The table of invoices.
 * @csspart row - Each invoice's row (`data-status`: paid, due, overdue, credit-note, cancelled, other).
 * @csspart number - The invoice number, the row's header.
 * @csspart amount - The amount cell (total, and the tax it includes).
 * @csspart status - The state cell: the state in words and its date.
 * @csspart badge - The state in words.
 * @csspart button - Every button and button-like link.
 * @csspart pay - The Pay button of a due or overdue invoice (also `button`; the oldest overdue one is also `remedy`).
 * @csspart remedy - The Pay button of the oldest overdue invoice, which another element's "See what to do" focuses (also `button` and `pay`).
 * @csspart view - The link to the invoice document (also `button`).
 * @csspart more - The Show more button (also `button`).
 * @csspart footer - The count of invoices shown and the Show more button.
 * @csspart message - The empty, signed-out and failure states.
 * @csspart retry - The retry button of the failure state (also `button`).
 * @csspart sign-in - The sign-in link of the signed-out state (also `button`).
 * @csspart pointer - The link to the element of the page that offers the retry or sign-in.
 *
 * @cssproperty --billing-accent - Buttons, the due state and focus ring. Default #4f46e5 (#8b87f7 dark).
 * @cssproperty --billing-on-accent - Text on the accent. Default #fff.
 * @cssproperty --billing-critical - The overdue state and the failure's border. Default #b42318 (#f97066 dark).
 * @cssproperty --billing-success - The paid state. Default #067647 (#47cd89 dark).
 * @cssproperty --billing-radius - Corner radius. Default 8px.
 * @cssproperty --billing-space - Spacing unit (a 4px grid). Default 4px.
 * @cssproperty --billing-font-size - Base font size. Default 1em (inherited).
 * @cssproperty --billing-muted-color - Secondary text. Default currentColor at 68%.
 * @cssproperty --billing-border-color - Hairlines between rows. Default currentColor at 16%.
 * @cssproperty --billing-focus-color - The focus ring's colour (a 2px outline, 2px away). Default the accent.
 * @cssproperty --billing-focus-ring - A box-shadow added to the focus ring. Default none.
 * @cssproperty --billing-color-scheme - `light` or `dark` forces a color scheme, as `theme` does.
 * @cssproperty --billing-duration - Length of the buttons' transitions. Default 180ms (none under reduced motion).
 *
 * @example
 * ```html
 * <billing-history page-size="10"></billing-history>
 * ```
 */
export class BillingHistory extends LitElement {
  static override styles = billingHistoryStyles;

  static {
    registerSharedTexts();
    registerTexts(historyTexts, { fr: () => import('./messages.fr.js') });
  }

  // String is Lit's default type: only Number properties name theirs.
  static override properties = {
    theme: { reflect: true },
    endpoint: {},
    pageSize: { type: Number, attribute: 'page-size' },
    signInUrl: { attribute: 'sign-in-url' },
    state: { reflect: true },
    invoices: { attribute: false },
    total: { attribute: false },
    error: { attribute: false },
  };

  /** Registers the element as `tag`; does nothing when this class already holds the tag. */
  static define(tag = 'billing-history', registry: CustomElementRegistry = customElements): void {
    defineElement(tag, this, registry);
  }

  /** Location of the billing proxy; defaults to the page's (`configureBilling`), else `/billing`. */
  endpoint: string | undefined;
  /** Invoices per page, 1 to 50 (default 10): Show more adds as many. */
  pageSize: number = DEFAULT_PAGE_SIZE;
  /** Where a signed-out customer signs in; defaults to the page's (`configureBilling({ signInUrl })`). */
  signInUrl: string | undefined;
  /** `light` or `dark` forces a color scheme; unset, the page's `color-scheme` (see Theming). */
  theme: 'light' | 'dark' | undefined;
  /** Read-only: `loading`, `ready`, `empty`, `signed-out` or `error`, reflected for styling. */
  state: HistoryState = 'loading';
  /** Read-only: the invoices shown, newest first. */
  invoices: readonly InvoiceSummary[] = [];
  /** Read-only: how many invoices the customer has, all pages together. */
  total = 0;
  /** Read-only: the last failure, in the `error` state. */
  error: BillingError | null = null;

  /** Offers the payment of overdue invoices, a retry or the sign-in once per page region. */
  readonly #callToAction = new CallToAction(this);
  /** Pages of `pageSize` shown. */
  #pages = 1;
  /** Aborted when another read starts, or the element leaves the document. */
  #reading: AbortController | null = null;
  /** Show more is reading the next page. */
  #loadingMore = false;
  #suspended: InvoicesResponse['suspended'];
  #hostedOrigin: string | undefined;
  /** Said to assistive technology: invoices added, an invoice paid. */
  #announcement = '';

  constructor() {
    super();
    followLang(this);
    // Follows the page's usage store while connected: the proxy's event stream is open while
    // anyone follows it, and a notification (an invoice issued, paid, a suspension) refreshes it
    // and the page hears `billing-updated`. Cleared (sign-out), the store goes idle: the list is
    // read again, for the new customer.
    new UsageStoreController(this, ({ status }) => {
      if (status === 'idle') this.refresh();
    });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('billing-updated', this.#onUpdated);
    // A payment made in the page: its workflow's completion bubbles up from the portal.
    document.addEventListener('billing-portal-complete', this.#onUpdated);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('billing-updated', this.#onUpdated);
    document.removeEventListener('billing-portal-complete', this.#onUpdated);
    this.#reading?.abort();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // A new proxy or page size is another list: from its first page.
    if (changed.has('endpoint') || changed.has('pageSize')) {
      this.#pages = 1;
      this.refresh();
    }
  }

  /** Reads the invoices shown again (the retry button does this; live updates too). */
  refresh(): void {
    void this.#read();
  }

  /** Shows the next page of invoices below those shown, and moves the focus to the first of them. */
  async showMore(): Promise<void> {
    if (this.#loadingMore || this.invoices.length >= this.total) return;
    this.#loadingMore = true;
    this.requestUpdate();
    const firstNew = this.invoices.length;
    this.#pages += 1;
    await this.#read();
    this.#loadingMore = false;
    await this.updateComplete;
    const numbers = this.renderRoot.querySelectorAll<HTMLElement>('[part~="number"]');
    numbers[firstNew]?.focus();
  }

  get #size(): number {
    const size = Math.trunc(this.pageSize);
    return size >= 1 ? Math.min(size, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
  }

  readonly #onUpdated = (): void => {
    // An element that has not answered yet reads anyway: the newest state wins.
    this.refresh();
  };

  /** Reads the pages shown (all at once), keeping the list on screen until they come. */
  async #read(): Promise<void> {
    this.#reading?.abort();
    const reading = new AbortController();
    this.#reading = reading;
    const { signal } = reading;
    const shown = this.state === 'ready' || this.state === 'empty';
    if (!shown) this.state = 'loading';
    try {
      const pages = await Promise.all(
        Array.from({ length: this.#pages }, (_, index) =>
          getInvoices(index + 1, this.#size, this.endpoint, signal),
        ),
      );
      if (signal.aborted) return;
      this.#accept(pages);
    } catch (reason) {
      if (signal.aborted) return;
      const error = toBillingError(reason);
      // A failed refresh keeps the invoices it had, unless the customer signed out meanwhile.
      if (shown && error.code !== 'unauthenticated') {
        this.#dispatchError(error);
        return;
      }
      this.error = error;
      this.invoices = [];
      this.state = error.code === 'unauthenticated' ? 'signed-out' : 'error';
      if (this.state === 'error') this.#dispatchError(error);
    }
  }

  #accept(pages: InvoicesResponse[]): void {
    const before = new Map(this.invoices.map((invoice) => [invoice.id, invoice.status]));
    // An invoice issued meanwhile moves every later one a row down: one met twice is kept once.
    const seen = new Set<number>();
    const invoices = pages
      .flatMap((page) => page.invoices)
      .filter((invoice) => !seen.has(invoice.id) && seen.add(invoice.id));
    const first = pages[0];
    this.total = pages.at(-1)?.total ?? 0;
    this.#suspended = first?.suspended;
    this.#hostedOrigin = first?.hostedOrigin;
    this.error = null;
    const paid = invoices.find(
      (invoice) => invoice.status === 'paid' && OPEN_STATUSES.has(before.get(invoice.id) ?? ''),
    );
    const added = invoices.length - this.invoices.length;
    this.invoices = invoices;
    this.state = invoices.length ? 'ready' : 'empty';
    if (paid) this.#announcement = message(this, 'history.paid-now', { number: paid.number });
    else if (this.#loadingMore && added > 0)
      this.#announcement = message(this, 'history.shown', {
        shown: invoices.length,
        total: this.total,
      });
  }

  #dispatchError(error: BillingError): void {
    // Built apart: the manifest analyzer reads `dispatchEvent(new X(arg))` as an event named by `arg`.
    const event = new BillingErrorEvent({ error });
    this.dispatchEvent(event);
  }

  /** The service's payment workflow of the invoice, in the page's portal or a modal one. */
  async #pay(invoice: InvoiceSummary, button: HTMLElement): Promise<void> {
    const request = { page: 'pay-invoice' as const, invoice: invoice.id };
    const remedy = new BillingRemedyEvent(request);
    if (!this.dispatchEvent(remedy)) return;
    try {
      await openPortalOnDemand(request, { endpoint: this.endpoint, from: button });
    } catch (error) {
      // openPortalPage only ever rejects with a BillingError; the portal shows its own retry.
      this.#dispatchError(error as BillingError);
    }
  }

  /** The remedy this element would offer now, once per page region (call-to-action.ts). */
  #claimRemedies(): boolean {
    if (this.state === 'error') return this.#callToAction.offer(failureRemedy(this.error?.code));
    if (this.state === 'signed-out') return this.#callToAction.offer('sign-in');
    const overdue = this.invoices.some(
      (invoice) => invoice.status === 'overdue' && invoice.payable,
    );
    if (overdue) this.#callToAction.owns(['pay-invoice']);
    else this.#callToAction.offer(undefined);
    return true;
  }

  /** Hundredths of `currency` in the element's locale; a credit with a real minus sign. */
  #money(amount: number, currency: string): string {
    const formatted = formatMoney(this, amount, currency);
    // Intl writes the sign as a hyphen-minus, which no currency code or symbol holds.
    return amount < 0 ? formatted.replace('-', MINUS_SIGN) : formatted;
  }

  #date(iso: string | null): string {
    return iso ? formatDate(this, iso, { dateStyle: 'medium' }) : '';
  }

  #renderRow(invoice: InvoiceSummary, remedyId: number | undefined): TemplateResult {
    const { status, number, currency } = invoice;
    const amount = this.#money(invoice.amountTotal, currency);
    const tax = invoice.amountTotal - invoice.amountSubtotal;
    const when =
      status === 'paid'
        ? this.#date(invoice.datePaid)
        : OPEN_STATUSES.has(status)
          ? this.#date(invoice.datePaymentLimit)
          : '';
    const document = invoice.documentUrl
      ? followableUrl(invoice.documentUrl, this.#hostedOrigin ? [this.#hostedOrigin] : [])
      : null;
    const payable = invoice.payable && OPEN_STATUSES.has(status);
    return html`<tr role="row" part="row" data-status=${status}>
      <td role="cell" class="date">${this.#date(invoice.dateIssue)}</td>
      <th role="rowheader" scope="row" part="number" class="number" tabindex="-1">${number}</th>
      <td role="cell" part="amount" class="amount">
        <span class="total">${amount}</span>
        ${
          tax !== 0 && invoice.amountSubtotal !== 0
            ? html`<span class="tax">
                ${message(this, 'history.tax', { tax: this.#money(tax, currency) })}
              </span>`
            : nothing
        }
      </td>
      <td role="cell" part="status" class="status">
        <span class="badge" part="badge" data-status=${status}
          >${message(this, `history.status.${status}`)}</span
        >
        ${
          when
            ? html`<span class="when"
                >${message(this, `history.when.${status as 'paid' | 'due' | 'overdue'}`, {
                  date: when,
                })}</span
              >`
            : nothing
        }
      </td>
      <td role="cell" class="actions">
        ${
          payable
            ? html`<button
                type="button"
                class="primary"
                part=${invoice.id === remedyId ? 'button pay remedy' : 'button pay'}
                aria-label=${message(this, 'history.pay.label', { amount, number })}
                @click=${(event: Event) => void this.#pay(invoice, event.currentTarget as HTMLElement)}
              >
                ${message(this, 'history.pay', { amount })}
              </button>`
            : nothing
        }
        ${
          document
            ? html`<a
                class="secondary"
                part="button view"
                href=${document.href}
                target="_blank"
                rel="noopener"
                aria-label=${message(
                  this,
                  status === 'credit-note'
                    ? 'history.view.credit-note.label'
                    : 'history.view.label',
                  { number },
                )}
                >${message(this, 'history.view')}</a
              >`
            : nothing
        }
      </td>
    </tr>`;
  }

  #renderSkeletonRows(): TemplateResult[] {
    return Array.from(
      { length: SKELETON_ROWS },
      () =>
        // The cells of a row, classed alike, so that the narrow layout places them as it will.
        html`<tr role="row" part="row" class="skeleton-row" aria-hidden="true">
          <td role="cell" class="date"><span class="skeleton"></span></td>
          <td role="cell" class="number"><span class="skeleton"></span></td>
          <td role="cell" class="amount"><span class="skeleton"></span></td>
          <td role="cell" class="status"><span class="skeleton"></span></td>
          <td role="cell" class="actions"><span class="skeleton"></span></td>
        </tr>`,
    );
  }

  #renderTable(): TemplateResult {
    const loading = this.state === 'loading';
    // The oldest overdue invoice is the one another element's "See what to do" brings forward.
    const remedyId = [...this.invoices]
      .reverse()
      .find((invoice) => invoice.status === 'overdue' && invoice.payable)?.id;
    return html`<table role="table" part="table" aria-busy=${loading ? 'true' : 'false'}>
      <caption class="visually-hidden">
        ${message(this, 'history.caption')}
      </caption>
      <thead role="rowgroup">
        <tr role="row">
          <th role="columnheader" scope="col">${message(this, 'history.column.date')}</th>
          <th role="columnheader" scope="col">${message(this, 'history.column.number')}</th>
          <th role="columnheader" scope="col" class="amount">
            ${message(this, 'history.column.amount')}
          </th>
          <th role="columnheader" scope="col">${message(this, 'history.column.status')}</th>
          <th role="columnheader" scope="col" class="actions">
            <span class="visually-hidden">${message(this, 'history.column.actions')}</span>
          </th>
        </tr>
      </thead>
      <tbody role="rowgroup">
        ${
          loading
            ? this.#renderSkeletonRows()
            : // Not the repeat directive: the lit-html internals it needs would be kept for every
              // element's page. Rows are only appended, or updated in place, by position.
              this.invoices.map((invoice) => this.#renderRow(invoice, remedyId))
        }
      </tbody>
    </table>`;
  }

  #renderFooter(): TemplateResult | typeof nothing {
    if (this.state !== 'ready') return nothing;
    const left = this.total - this.invoices.length;
    const next = Math.min(left, this.#size);
    return html`<div class="footer" part="footer">
      <span class="count"
        >${
          this.total === 1
            ? message(this, 'history.shown.one')
            : message(this, 'history.shown', { shown: this.invoices.length, total: this.total })
        }</span
      >
      ${
        left > 0
          ? html`<button
              type="button"
              class="secondary"
              part="button more"
              aria-disabled=${this.#loadingMore ? 'true' : 'false'}
              @click=${() => void this.showMore()}
            >
              ${
                this.#loadingMore
                  ? message(this, 'loading')
                  : next === 1
                    ? message(this, 'history.more.one')
                    : message(this, 'history.more.other', { count: next })
              }
            </button>`
          : nothing
      }
    </div>`;
  }

  #renderSignIn(): TemplateResult | typeof nothing {
    const configured = this.signInUrl || getBillingConfig().signInUrl;
    // An empty address would resolve to this very page: no link then.
    const address = configured ? httpUrl(configured, location.href) : null;
    if (!address) return nothing;
    return html`<a class="primary" part="button sign-in" href=${address.href}
      >${message(this, 'state.sign-in')}</a
    >`;
  }

  /** The empty, signed-out and failure states: a sentence and what to do. */
  #renderMessage(speaks: boolean): TemplateResult {
    const remedy: Remedy | undefined =
      this.state === 'error'
        ? failureRemedy(this.error?.code)
        : this.state === 'signed-out'
          ? 'sign-in'
          : undefined;
    const failed = this.state === 'error';
    const text =
      this.state === 'empty'
        ? message(this, 'history.empty')
        : this.state === 'signed-out'
          ? message(this, 'history.signed-out')
          : `${message(this, 'history.error')} ${errorMessage(this, this.error?.code ?? '', 'error.generic')}`;
    const action = !remedy
      ? nothing
      : !speaks
        ? remedyPointer(this, this.#callToAction, remedy)
        : remedy === 'retry'
          ? html`<button type="button" class="primary" part="button retry" @click=${this.refresh}>
              ${message(this, 'retry')}
            </button>`
          : remedy === 'reload'
            ? reloadButton(this)
            : this.#renderSignIn();
    // A failure this element reports is told as one; the other states are calm.
    return html`<div
      class="message"
      part="message"
      data-kind=${failed && speaks ? 'error' : 'calm'}
      role=${failed ? 'alert' : nothing}
    >
      <p>${text}</p>
      ${action}
    </div>`;
  }

  override render(): TemplateResult {
    const speaks = this.#claimRemedies();
    // A suspension the overdue invoices explain: while they reach the business's threshold,
    // they are paid before the restart; below it (one of two paid), the restart is open and
    // what is still overdue stays to pay.
    const suspended =
      this.state === 'ready' &&
      this.#suspended !== undefined &&
      (this.#suspended.paymentCappingReached || this.#suspended.reason === 'payment-due') &&
      this.invoices.some((invoice) => invoice.status === 'overdue');
    const notice = this.#suspended?.paymentCappingReached
      ? 'history.suspended'
      : 'history.suspended-restartable';
    const table = this.state === 'ready' || this.state === 'loading';
    return html`<div class="history" part="base" data-state=${this.state}>
      ${suspended ? html`<p class="notice" part="notice">${message(this, notice)}</p>` : nothing}
      ${table ? this.#renderTable() : this.#renderMessage(speaks)} ${this.#renderFooter()}
      <div class="visually-hidden" role="status">
        ${this.state === 'loading' ? message(this, 'loading') : this.#announcement}
      </div>
    </div>`;
  }
}

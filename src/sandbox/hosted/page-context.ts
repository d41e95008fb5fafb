import { hostedHref, type SandboxContext } from '../context.js';
import type { Language } from '../../contract/enums.js';
import { ApiError } from '../http/errors.js';
import { htmlReply, type Reply } from '../http/io.js';
import type { RequestContext } from '../http/router.js';
import { formatDate, formatMoney } from '../i18n.js';
import type { CustomerRecord } from '../state/types.js';
import type { HostedTarget } from '../tokens.js';
import { html, type SafeHtml } from './html.js';
import { page, type Workflow } from './layout.js';
import { lookParams, readLook } from './look.js';
import { MESSAGES } from './messages.js';

/** What a hosted page handler gets: the opened target, its customer and rendering helpers. */
export class PageContext {
  readonly texts: (typeof MESSAGES)[Language];

  constructor(
    readonly ctx: SandboxContext,
    readonly request: RequestContext,
    readonly target: HostedTarget,
    readonly customer: CustomerRecord,
    readonly lang: Language,
  ) {
    this.texts = MESSAGES[lang];
  }

  /** What a link of the page carries on: an explicit language, the embedding page's look. */
  get #carried(): string {
    const params = lookParams(this.request.query);
    const lang = this.request.query.get('lang');
    if (lang) params.set('lang', lang);
    return params.size > 0 ? `?${params}` : '';
  }

  /** A hosted page of the same customer, keeping the language and the look. */
  link(target: Omit<HostedTarget, 'c'>): string {
    const href = hostedHref(this.ctx, { ...target, c: this.customer.id } as HostedTarget);
    return `${href}${this.#carried}`;
  }

  /** Where this page's forms post: the page itself. */
  get action(): string {
    return `${this.request.path}${this.#carried}`;
  }

  money(amount: number): string {
    return formatMoney(amount, this.ctx.catalog.business.currency, this.lang);
  }

  date(iso: string): string {
    return formatDate(iso, this.lang);
  }

  render(
    title: string,
    body: SafeHtml,
    options: { status?: number; complete?: Workflow; recheck?: boolean } = {},
  ): Reply {
    return htmlReply(
      options.status ?? 200,
      page({
        lang: this.lang,
        title,
        businessName: this.ctx.catalog.business.name,
        customerName: this.customer.name,
        body,
        look: readLook(this.request.query),
        brand: this.ctx.catalog.business.accent,
        ...(options.complete ? { complete: options.complete } : {}),
        ...(options.recheck ? { recheck: true } : {}),
      }),
    );
  }

  /** A friendly sentence for an error of an operation, with the link that resolves it. */
  explain(error: unknown): SafeHtml {
    if (!(error instanceof ApiError)) throw error;
    const texts = this.texts;
    if (error.code === 'Error.Customer.Billing.CappingReached') {
      return html`${texts.payInvoicesFirst}
        <a href="${this.link({ page: 'invoices' })}">${texts.invoices}</a>`;
    }
    if (error.code === 'Error.Customer.PaymentSettings.Missing') {
      return html`${texts.paymentMethodNeeded}
        <a href="${this.link({ page: 'register' })}">${texts.addPaymentMethod}</a>`;
    }
    return html`${error.message}`;
  }
}

export function errorAlert(message: SafeHtml): SafeHtml {
  return html`<div class="alert error" role="alert" tabindex="-1" data-focus>
    <p>${message}</p>
  </div>`;
}

export function successAlert(message: string | SafeHtml): SafeHtml {
  return html`<div class="alert success" role="status" tabindex="-1" data-focus>
    <p><strong>${message}</strong></p>
  </div>`;
}

export function notFoundPage(lang: Language, businessName: string): Reply {
  const texts = MESSAGES[lang];
  return htmlReply(
    404,
    page({
      lang,
      title: texts.errorTitle,
      businessName,
      body: html`<h1>${texts.errorTitle}</h1>
        <div class="alert error" role="alert"><p>${texts.errorLead}</p></div>`,
    }),
  );
}

import { hostedHref, type SandboxContext } from '../context.js';
import type { Language } from '../fixtures/schema.js';
import { ApiError } from '../http/errors.js';
import { html, type Reply } from '../http/io.js';
import type { RequestContext } from '../http/router.js';
import { formatDate, formatMoney } from '../i18n.js';
import type { CustomerRecord } from '../state/types.js';
import type { HostedTarget } from '../tokens.js';
import { html as tpl, type SafeHtml } from './html.js';
import { page, type Workflow } from './layout.js';
import { lookParams, readLook } from './look.js';
import { MESSAGES } from './messages.js';

/** What a hosted page handler gets: the opened target, its customer and rendering helpers. */
export class PageContext {
  readonly t: (typeof MESSAGES)[Language];

  constructor(
    readonly ctx: SandboxContext,
    readonly rc: RequestContext,
    readonly target: HostedTarget,
    readonly customer: CustomerRecord,
    readonly lang: Language,
  ) {
    this.t = MESSAGES[lang];
  }

  /** What a link of the page carries on: an explicit language, the embedding page's look. */
  get #carried(): string {
    const params = lookParams(this.rc.query);
    const lang = this.rc.query.get('lang');
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
    return `${this.rc.path}${this.#carried}`;
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
    options: { status?: number; complete?: Workflow } = {},
  ): Reply {
    return html(
      options.status ?? 200,
      page({
        lang: this.lang,
        title,
        businessName: this.ctx.catalog.business.name,
        customerName: this.customer.name,
        body,
        look: readLook(this.rc.query),
        ...(options.complete ? { complete: options.complete } : {}),
      }),
    );
  }

  /** A friendly sentence for an error of an operation, with the link that resolves it. */
  explain(error: unknown): SafeHtml {
    if (!(error instanceof ApiError)) throw error;
    const t = this.t;
    if (error.code === 'Error.Customer.Billing.CappingReached') {
      return tpl`${t.payInvoicesFirst} <a href="${this.link({ page: 'invoices' })}">${t.invoices}</a>`;
    }
    if (error.code === 'Error.Customer.PaymentSettings.Missing') {
      return tpl`${t.paymentMethodNeeded} <a href="${this.link({ page: 'register' })}">${t.addPaymentMethod}</a>`;
    }
    return tpl`${error.message}`;
  }
}

export function errorAlert(message: SafeHtml): SafeHtml {
  return tpl`<div class="alert error" role="alert" tabindex="-1" data-focus><p>${message}</p></div>`;
}

export function successAlert(message: string | SafeHtml): SafeHtml {
  return tpl`<div class="alert success" role="status" tabindex="-1" data-focus><p><strong>${message}</strong></p></div>`;
}

export function notFoundPage(lang: Language, businessName: string): Reply {
  const t = MESSAGES[lang];
  return html(
    404,
    page({
      lang,
      title: t.errorTitle,
      businessName,
      body: tpl`<h1>${t.errorTitle}</h1><div class="alert error" role="alert"><p>${t.errorLead}</p></div>`,
    }),
  );
}

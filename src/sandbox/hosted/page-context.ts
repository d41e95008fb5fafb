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

  /** A hosted page of the same customer, keeping an explicit language choice. */
  link(target: Omit<HostedTarget, 'c'>): string {
    const href = hostedHref(this.ctx, { ...target, c: this.customer.id } as HostedTarget);
    const lang = this.rc.query.get('lang');
    return lang ? `${href}?lang=${encodeURIComponent(lang)}` : href;
  }

  /** Where this page's forms post: the page itself. */
  get action(): string {
    const lang = this.rc.query.get('lang');
    return `${this.rc.path}${lang ? `?lang=${encodeURIComponent(lang)}` : ''}`;
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
      return tpl`${t.restartBlockedMethod} <a href="${this.link({ page: 'register' })}">${t.addPaymentMethod}</a>`;
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

import { html, type TemplateResult } from 'lit';
import type { PortalPage, PortalRequest } from '../../contract/proxy-api.js';
import type { BillingError } from '../../client/errors.js';
import { BillingErrorEvent, BillingRemedyEvent } from '../../client/events.js';
import { message, type MessageKey } from '../../client/i18n.js';

/** How a portal workflow opens: see `openPortalPage` (billing-portal/open.ts). */
export interface OpenPortalPageOptions {
  endpoint?: string | null;
  /**
   * The element that asked: the modal portal takes its language, color scheme and accent, and
   * the focus returns to it (or to the element holding it, if it left meanwhile) after.
   */
  from?: Element;
  /** The modal portal's title; default: the task's ("Restart your subscription"). */
  title?: string;
}

/**
 * `openPortalPage`, with its code and the portal element's imported on first use: an element
 * that offers a remedy (a meter, a gate, a purchase) costs its page nothing of the portal
 * until the customer asks for one. This dynamic import is the one place where code shared by the
 * elements reaches an element (see docs/architecture.md).
 */
export async function openPortalOnDemand(
  request: PortalRequest,
  options: OpenPortalPageOptions,
): Promise<void> {
  const { openPortalPage } = await import('../billing-portal/open.js');
  await openPortalPage(request, options);
}

/** A remedy's words: a payment method that stopped working is updated, a missing one added. */
export function remedyLabel(host: Element, page: PortalPage, code?: string): string {
  return message(
    host,
    code === 'payment-method-invalid' ? 'remedy.register.update' : (`remedy.${page}` as MessageKey),
  );
}

/** An element that opens portal workflows: its proxy and, when it has one, its feature. */
export interface PortalOpener extends HTMLElement {
  endpoint: string | undefined;
  feature?: string;
}

/** An element that offers the remedies of a feature's refusals. */
export interface RemedyHost extends PortalOpener {
  feature: string;
}

/**
 * The user asked for a portal workflow (the remedy of a refusal, a plan to subscribe to or move
 * to: `offer`): `billing-remedy` first (the host app may cancel it and open the workflow
 * itself), then the page's `<billing-portal>` or the modal portal. A portal that cannot open is
 * reported as `billing-error` (the portal shows its own error and retry), and resolves to that
 * error. The focus goes back to `from` (default: the host) when a modal closes.
 */
export async function openRemedy(
  host: PortalOpener,
  page: PortalPage,
  code: string | undefined,
  from: Element = host,
  offer?: string,
): Promise<BillingError | undefined> {
  const feature = host.feature ? { feature: host.feature } : {};
  // Events are built before being dispatched: the manifest analyzer would read
  // `dispatchEvent(new X(arg))` as an event named after `arg`.
  const remedy = new BillingRemedyEvent({
    page,
    ...(code ? { code } : {}),
    ...feature,
    ...(offer ? { offer } : {}),
  });
  if (!host.dispatchEvent(remedy)) return undefined;
  try {
    // The modal is titled as the button that opened it ("Update payment method").
    const title = code === 'payment-method-invalid' ? { title: remedyLabel(host, page, code) } : {};
    await openPortalOnDemand(
      { page, ...(offer ? { offer } : {}) },
      { endpoint: host.endpoint, from, ...title },
    );
    return undefined;
  } catch (error) {
    // openPortalPage only ever rejects with a BillingError.
    const failure = new BillingErrorEvent({ error: error as BillingError, ...feature });
    host.dispatchEvent(failure);
    return error as BillingError;
  }
}

/** "Reload the page": the remedy once another account has signed in since the page opened. */
export function reloadButton(host: Element): TemplateResult {
  return html`<button
    type="button"
    class="primary"
    part="button remedy"
    @click=${() => location.reload()}
  >
    ${message(host, 'remedy.reload')}
  </button>`;
}

import { html, render } from 'lit';
import type { PortalRequest } from '../../contract/proxy-api.js';
import { resolveEndpoint } from '../../client/config.js';
import { toBillingError } from '../../client/errors.js';
import { localeOf, messageFor } from '../../client/i18n.js';
import { DEFAULT_PORTAL_CONTAINER_ID, portalHostFor } from '../../client/portal.js';
import { BillingPortal } from './billing-portal.js';

export interface OpenPortalPageOptions {
  endpoint?: string | null;
  /** The element that asked (its language is used, focus returns to it after the dialog). */
  from?: Element;
}

/**
 * Opens a portal workflow: in the `<billing-portal>` on the page when there is one (it scrolls
 * into view), otherwise in a modal dialog holding a `<billing-portal>` of its own. The usages
 * refresh when it completes.
 */
export async function openPortalPage(
  request: PortalRequest,
  options: OpenPortalPageOptions = {},
): Promise<void> {
  const endpoint = resolveEndpoint(options.endpoint);
  try {
    await (portalHostFor(endpoint) ?? openModalPortal(endpoint, options.from)).openPage(request);
  } catch (error) {
    throw toBillingError(error);
  }
}

let sequence = 0;

// Written as the elements' own (minified) stylesheets are, with their tokens and defaults:
// gzip then finds this text there.
const SPACE = 'var(--billing-space,4px)';
const HAIRLINE =
  '1px solid var(--billing-border-color,color-mix(in srgb,currentColor 16%,transparent))';

/**
 * The portal of last resort: a modal dialog in the light tree (the portal script finds its
 * container by id) whose `<billing-portal>` shows the loading, error and retry states. While
 * open, that element is the page's portal host, so a second request switches its page. Closing
 * the dialog removes it and gives the focus back to `from` (else what had it).
 */
function openModalPortal(endpoint: string, from: Element | undefined): BillingPortal {
  const id = ++sequence;
  const locale = localeOf(from ?? document.documentElement);
  const titleId = `billing-portal-dialog-title-${id}`;
  const returnFocus = from ?? document.activeElement;
  const portal = new (portalClass())();
  portal.endpoint = endpoint;
  portal.containerId = document.getElementById(DEFAULT_PORTAL_CONTAINER_ID)
    ? `${DEFAULT_PORTAL_CONTAINER_ID}_dialog_${id}`
    : DEFAULT_PORTAL_CONTAINER_ID;
  portal.style.cssText = `display:block;padding:calc(${SPACE}*5)`;
  const holder = document.createElement('div');
  // Styles go through `.style` property bindings: the CSSOM, which a strict CSP (no
  // 'unsafe-inline' styles) still allows, where a style attribute would be blocked.
  // Compact markup (no whitespace text nodes): kept as written.
  // prettier-ignore
  render(
    html`<dialog class="billing-portal-dialog" lang=${locale} aria-labelledby=${titleId} .style=${
      'background:var(--billing-surface,Canvas);color:var(--billing-on-surface,CanvasText);' +
      `border:${HAIRLINE};border-radius:calc(var(--billing-radius,8px)*1.5);padding:0;` +
      // The UA's modal max-width and max-height keep it inside small viewports.
      'width:52rem;' +
      'box-shadow:0 24px 48px -12px rgb(0 0 0 / .3);font:inherit'
    } @close=${() => {
      dialog.remove();
      // Focusing an element no longer in the document does nothing.
      (returnFocus as HTMLElement | null)?.focus?.();
    }}><div class="billing-portal-dialog__header" .style=${
      `display:flex;align-items:center;justify-content:space-between;gap:calc(${SPACE}*3);` +
      `padding:calc(${SPACE}*3) calc(${SPACE}*5);border-bottom:${HAIRLINE}`
    }><h2 id=${titleId} .style=${'margin:0;font-size:1.125em;font-weight:600'}>${messageFor(locale, 'portal.title')}</h2><button type="button" class="billing-portal-dialog__close" .style=${
      `font:inherit;padding:calc(${SPACE}*1.5) calc(${SPACE}*3);border:${HAIRLINE};` +
      'border-radius:var(--billing-radius,8px);cursor:pointer;background:none;color:inherit'
    } @click=${() => dialog.close()}>${messageFor(locale, 'close')}</button></div>${portal}</dialog>`,
    holder,
  );
  const dialog = holder.firstElementChild as HTMLDialogElement;
  document.body.append(dialog);
  dialog.showModal();
  return portal;
}

/**
 * The class to build the modal's portal from: whichever holds `<billing-portal>` (this copy's,
 * or another copy's with the same API), else this class, registered under the host app's own
 * tag or, failing that, as `<billing-portal>`.
 */
function portalClass(): typeof BillingPortal {
  const holder = customElements.get('billing-portal') as typeof BillingPortal | undefined;
  if (holder) return holder;
  if (!customElements.getName(BillingPortal)) BillingPortal.define();
  return BillingPortal;
}

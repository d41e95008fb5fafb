import { html, nothing, render } from 'lit';
import type { PortalRequest } from '../contract/proxy-api.js';
import { toBillingError } from './errors.js';
import { localeOf, messageFor, type Locale, type MessageKey } from './i18n.js';
import { DEFAULT_PORTAL_CONTAINER_ID, embedPortal } from './portal-embed.js';

// The portal of last resort: when no <billing-portal> is on the page, a remedy opens here.
// Plain DOM in the light tree, because the portal script finds its container by id.

export interface PortalDialogOptions {
  endpoint: string;
  from?: Element;
}

interface OpenDialog {
  dialog: HTMLDialogElement;
  status: HTMLElement;
  container: HTMLElement;
  locale: Locale;
  controller: AbortController;
  returnFocus: Element | null;
}

let current: OpenDialog | null = null;
let sequence = 0;

const SPACE = 'var(--billing-space, 4px)';
const HAIRLINE = '1px solid color-mix(in srgb, currentColor 14%, transparent)';
const BUTTON = 'font:inherit;cursor:pointer;border-radius:var(--billing-radius, 8px);padding:calc(';

// Styles go through `.style` property bindings: the CSSOM, which a strict CSP (no
// 'unsafe-inline' styles) still allows, where a style attribute would be blocked.
function build(locale: Locale, from: Element | undefined): OpenDialog {
  const id = ++sequence;
  const text = (key: MessageKey) => messageFor(locale, key);
  const titleId = `billing-portal-dialog-title-${id}`;
  const containerId = document.getElementById(DEFAULT_PORTAL_CONTAINER_ID)
    ? `${DEFAULT_PORTAL_CONTAINER_ID}_dialog_${id}`
    : DEFAULT_PORTAL_CONTAINER_ID;
  const holder = document.createElement('div');
  // Compact markup (no whitespace text nodes): kept as written.
  // prettier-ignore
  render(
    html`<dialog class="billing-portal-dialog" lang=${locale} aria-labelledby=${titleId} .style=${
      `width:min(52rem,calc(100vw - 2rem));max-height:calc(100vh - 2rem);padding:0;border:${HAIRLINE};` +
      'border-radius:calc(var(--billing-radius, 8px) * 1.5);background:var(--billing-surface, Canvas);' +
      'color:var(--billing-on-surface, CanvasText);box-shadow:0 24px 64px rgb(0 0 0 / 0.25);font:inherit'
    }><div class="billing-portal-dialog__header" .style=${
      `display:flex;align-items:center;justify-content:space-between;gap:calc(${SPACE} * 3);` +
      `padding:calc(${SPACE} * 3) calc(${SPACE} * 5);border-bottom:${HAIRLINE}`
    }><h2 id=${titleId} .style=${'margin:0;font-size:1.125em;font-weight:600'}>${text('portal.title')}</h2><button type="button" class="billing-portal-dialog__close" .style=${
      `${BUTTON}${SPACE} * 1.5) calc(${SPACE} * 3);color:inherit;background:transparent;border:${HAIRLINE}`
    } @click=${() => dialog.close()}>${text('close')}</button></div><div .style=${
      `padding:calc(${SPACE} * 5)`
    }><div class="billing-portal-dialog__status" role="status"></div><div class="billing-portal-dialog__container" id=${containerId} .style=${
      'min-height:24rem'
    }></div></div></dialog>`,
    holder,
  );
  const dialog = holder.querySelector('dialog')!;
  const opened: OpenDialog = {
    dialog,
    status: dialog.querySelector('[role=status]')!,
    container: dialog.querySelector('.billing-portal-dialog__container')!,
    locale,
    controller: new AbortController(),
    returnFocus: from ?? document.activeElement,
  };
  dialog.addEventListener('close', () => {
    opened.controller.abort();
    dialog.remove();
    if (current === opened) current = null;
    const back = opened.returnFocus;
    if (back instanceof HTMLElement && back.isConnected) back.focus();
  });
  return opened;
}

function showStatus(opened: OpenDialog, content: unknown): void {
  render(content, opened.status);
}

function showError(opened: OpenDialog, retry: () => void): void {
  // prettier-ignore
  showStatus(
    opened,
    html`<p role="alert" .style=${`margin:0 0 calc(${SPACE} * 2)`}>${messageFor(opened.locale, 'portal.error')}</p><button type="button" .style=${
      `${BUTTON}${SPACE} * 2) calc(${SPACE} * 4);font-weight:600;border:0;` +
      'color:var(--billing-on-accent, #fff);background:var(--billing-accent, #4f46e5)'
    } @click=${retry}>${messageFor(opened.locale, 'retry')}</button>`,
  );
  opened.status.querySelector('button')!.focus();
}

/** Opens (or switches) the modal portal dialog on a page. Resolves once the page is opened. */
export async function openPortalDialog(
  request: PortalRequest,
  options: PortalDialogOptions,
): Promise<void> {
  const locale = options.from ? localeOf(options.from) : localeOf(document.documentElement);
  let opened = current;
  if (opened) {
    opened.controller.abort();
    opened.controller = new AbortController();
  } else {
    opened = build(locale, options.from);
    current = opened;
    document.body.append(opened.dialog);
    opened.dialog.showModal();
  }
  const target = opened;
  const attempt = async (): Promise<void> => {
    showStatus(target, messageFor(target.locale, 'portal.loading'));
    try {
      await embedPortal({
        container: target.container,
        request,
        endpoint: options.endpoint,
        signal: target.controller.signal,
        eventTarget: target.dialog,
      });
      showStatus(target, nothing);
    } catch (error) {
      const failure = toBillingError(error);
      if (failure.code === 'aborted') return;
      showError(target, () => void attempt());
      throw failure;
    }
  };
  await attempt();
}

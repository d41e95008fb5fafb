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

function css(element: HTMLElement, text: string): void {
  // CSSOM, not a style attribute: a strict CSP (no 'unsafe-inline' styles) still allows it.
  element.style.cssText = text;
}

function build(locale: Locale, from: Element | undefined): OpenDialog {
  const id = ++sequence;
  const text = (key: MessageKey) => messageFor(locale, key);
  const dialog = document.createElement('dialog');
  dialog.className = 'billing-portal-dialog';
  dialog.lang = locale;
  dialog.setAttribute('aria-labelledby', `billing-portal-dialog-title-${id}`);
  css(
    dialog,
    `width:min(52rem,calc(100vw - 2rem));max-height:calc(100vh - 2rem);padding:0;border:${HAIRLINE};` +
      'border-radius:calc(var(--billing-radius, 8px) * 1.5);background:var(--billing-surface, Canvas);' +
      'color:var(--billing-on-surface, CanvasText);box-shadow:0 24px 64px rgb(0 0 0 / 0.25);font:inherit',
  );

  const header = document.createElement('div');
  header.className = 'billing-portal-dialog__header';
  css(
    header,
    `display:flex;align-items:center;justify-content:space-between;gap:calc(${SPACE} * 3);` +
      `padding:calc(${SPACE} * 3) calc(${SPACE} * 5);border-bottom:${HAIRLINE}`,
  );
  const title = document.createElement('h2');
  title.id = `billing-portal-dialog-title-${id}`;
  title.textContent = text('portal.title');
  css(title, 'margin:0;font-size:1.125em;font-weight:600');
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'billing-portal-dialog__close';
  close.textContent = text('close');
  css(
    close,
    `font:inherit;color:inherit;background:transparent;border:${HAIRLINE};cursor:pointer;` +
      `border-radius:var(--billing-radius, 8px);padding:calc(${SPACE} * 1.5) calc(${SPACE} * 3)`,
  );
  close.addEventListener('click', () => dialog.close());
  header.append(title, close);

  const body = document.createElement('div');
  css(body, `padding:calc(${SPACE} * 5)`);
  const status = document.createElement('div');
  status.className = 'billing-portal-dialog__status';
  status.setAttribute('role', 'status');
  const container = document.createElement('div');
  container.className = 'billing-portal-dialog__container';
  container.id = document.getElementById(DEFAULT_PORTAL_CONTAINER_ID)
    ? `${DEFAULT_PORTAL_CONTAINER_ID}_dialog_${id}`
    : DEFAULT_PORTAL_CONTAINER_ID;
  css(container, 'min-height:24rem');
  body.append(status, container);
  dialog.append(header, body);

  const opened: OpenDialog = {
    dialog,
    status,
    container,
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

function showLoading(opened: OpenDialog): void {
  opened.status.replaceChildren(messageFor(opened.locale, 'portal.loading'));
}

function showError(opened: OpenDialog, retry: () => void): void {
  const alert = document.createElement('p');
  alert.setAttribute('role', 'alert');
  alert.textContent = messageFor(opened.locale, 'portal.error');
  css(alert, `margin:0 0 calc(${SPACE} * 2)`);
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = messageFor(opened.locale, 'retry');
  css(
    button,
    'font:inherit;font-weight:600;border:0;cursor:pointer;border-radius:var(--billing-radius, 8px);' +
      'color:var(--billing-on-accent, #fff);background:var(--billing-accent, #4f46e5);' +
      `padding:calc(${SPACE} * 2) calc(${SPACE} * 4)`,
  );
  button.addEventListener('click', retry);
  opened.status.replaceChildren(alert, button);
  button.focus();
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
    showLoading(target);
    try {
      await embedPortal({
        container: target.container,
        request,
        endpoint: options.endpoint,
        signal: target.controller.signal,
        eventTarget: target.dialog,
      });
      target.status.replaceChildren();
    } catch (error) {
      const failure = toBillingError(error);
      if (failure.code === 'aborted') return;
      showError(target, () => void attempt());
      throw failure;
    }
  };
  await attempt();
}

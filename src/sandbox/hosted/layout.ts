import type { Language } from '../../contract/enums.js';
import { html, SafeHtml } from './html.js';
import { brandCss, lookCss, type PageLook } from './look.js';
import { HOSTED_CSS, HOSTED_CSS_EXTRA } from './styles.js';

export const WORKFLOWS = ['register', 'charge', 'restart', 'upgrade', 'subscribe'] as const;
export type Workflow = (typeof WORKFLOWS)[number];

export interface PageOptions {
  lang: Language;
  title: string;
  businessName: string;
  customerName?: string;
  body: SafeHtml;
  /** Set on the page shown after a workflow completed: tells the embedding page. */
  complete?: Workflow;
  /** The embedding page's scheme, accent and font; without, the system's scheme, our accent and font. */
  look?: PageLook;
  /** The business's brand accent (checked #rrggbb colours), under the embedding page's. */
  brand?: { light: string; dark: string } | undefined;
  /**
   * A form that a change made elsewhere can make moot (a checkout, once a subscription started
   * in another tab): the page asks for itself again whenever it is seen again (FRAME_SCRIPT).
   */
  recheck?: boolean;
}

// Tells the embedding page (portal script) the content height, the page's title (its task: the
// embed names its frame, or its dialog, after the page shown now), that a workflow completed, and
// Escape pressed inside the frame.
// The height is the body's (the content's): the root's scrollHeight is never less than the frame,
// so a frame sized by it could grow and never shrink back to a shorter page.
const FRAME_SCRIPT = `
(function () {
  var embedded = window.parent && window.parent !== window;
  if (embedded) document.documentElement.setAttribute('data-embedded', '');
  function post(message) { if (embedded) window.parent.postMessage(Object.assign({ source: 'service-portal' }, message), '*'); }
  function size() { post({ type: 'resize', height: Math.ceil(document.body.getBoundingClientRect().height) }); }
  if (window.ResizeObserver) new ResizeObserver(size).observe(document.body);
  window.addEventListener('load', size);
  function announce() { post({ type: 'page', title: document.body.getAttribute('data-title') || '', frameTitle: document.title }); }
  size();
  announce();
  var done = document.body.getAttribute('data-complete');
  if (done) post({ type: 'workflow-complete', workflow: done });
  var alert = document.querySelector('[data-focus]');
  if (alert) alert.focus();
  // Escape inside the frame never reaches the embedding page's keyboard handlers: it is told, so
  // that a portal shown in a dialog closes as the page's own dialogs do.
  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape' && !event.defaultPrevented) post({ type: 'escape' });
  });
  // A page marked data-recheck (a checkout) is read again when it is seen again (its tab shown,
  // its frame focused): when the service no longer offers its form (a subscription started in
  // another tab), the refusal replaces it before the customer types a card. The form, and what
  // is typed in it, stays while the service still offers it.
  if (!document.body.hasAttribute('data-recheck') || !window.fetch || !window.DOMParser) return;
  var checking = false;
  function recheck() {
    if (checking || document.visibilityState !== 'visible') return;
    checking = true;
    fetch(location.href, { cache: 'no-store', credentials: 'same-origin' })
      .then(function (response) { return response.ok ? response.text() : ''; })
      .then(function (text) {
        var fresh = text && new DOMParser().parseFromString(text, 'text/html');
        var main = fresh && fresh.querySelector('main');
        if (!main || fresh.body.hasAttribute('data-recheck')) return;
        document.querySelector('main').replaceWith(document.importNode(main, true));
        document.body.removeAttribute('data-recheck');
        document.body.setAttribute('data-title', fresh.body.getAttribute('data-title') || '');
        document.title = fresh.title;
        announce();
        size();
        var notice = document.querySelector('main [role="status"], main [data-focus]');
        if (notice) { notice.setAttribute('tabindex', '-1'); notice.focus(); }
      })
      .catch(function () {})
      .then(function () { checking = false; });
  }
  document.addEventListener('visibilitychange', recheck);
  window.addEventListener('focus', recheck);
})();
`;

const FRAME_SCRIPT_HTML = new SafeHtml(FRAME_SCRIPT);
const CSS_HTML = new SafeHtml(HOSTED_CSS + HOSTED_CSS_EXTRA);

export function page(options: PageOptions): string {
  const {
    lang,
    title,
    businessName,
    customerName,
    body,
    complete,
    look = {},
    brand,
    recheck,
  } = options;
  // The accent is a checked #rrggbb and the font a rebuilt list of names (look.ts): safe in
  // the stylesheet.
  const accent = new SafeHtml(brandCss(brand) + lookCss(look));
  // The page's title goes to the portal script (FRAME_SCRIPT), a completed workflow too.
  const bodyAttributes = html` data-title="${title}"${complete ? html` data-complete="${complete}"` : ''}${recheck ? html` data-recheck` : ''}`;
  return html`<!doctype html>
<html lang="${lang}"${look.theme ? html` data-theme="${look.theme}"` : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · ${businessName}</title>
<style>${CSS_HTML}${accent}</style>
</head>
<body${bodyAttributes}>
<main>
<header class="brand"><strong>${businessName}</strong>${customerName ? html`<span>${customerName}</span>` : ''}</header>
${body}
</main>
<script>${FRAME_SCRIPT_HTML}</script>
</body>
</html>`.value;
}

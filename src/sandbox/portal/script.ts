import { WORKFLOWS } from '../hosted/layout.js';

/**
 * Source of `${url}/portal.js`.
 * `ServicePortal.open(params, { containerId, colorScheme, accent, fontFamily })` asks the sandbox
 * to check the hash and the query (the secret never reaches the browser), then shows the hosted
 * page in an iframe that follows its content's height, drawn in the embedding page's color
 * scheme, accent and font: the options' when given, else those the container resolves (its
 * `color-scheme`, `accent-color` and `font-family`). Messages from the iframe are accepted only
 * from that iframe and the sandbox origin; a completed workflow is re-dispatched on the container
 * as `service-portal:complete`, each page shown as `service-portal:page` (its title, and
 * `opened`: true for the page asked for, false for one the customer went on to). A page
 * opened from inside the frame (a link, a form) is brought into view when its top is above it.
 */
export function portalScriptSource(origin: string): string {
  return `/* billing-elements sandbox: ServicePortal */
(function () {
  'use strict';
  var ORIGIN = ${JSON.stringify(origin)};
  var WORKFLOWS = ${JSON.stringify(WORKFLOWS)};
  if (window.ServicePortal && window.ServicePortal.__sandbox === ORIGIN) return;
  var cleanups = new WeakMap();

  function emit(container, type, detail) {
    container.dispatchEvent(new CustomEvent(type, { bubbles: true, composed: true, detail: detail }));
  }

  function showError(container, message, code) {
    container.textContent = '';
    var box = document.createElement('div');
    box.setAttribute('role', 'alert');
    box.className = 'service-portal-error';
    box.style.cssText = 'padding:12px 16px;border:1px solid #f3b4b4;background:#fdecec;color:#7d1a1a;border-radius:8px;font:inherit;';
    box.textContent = message;
    container.appendChild(box);
    emit(container, 'service-portal:error', { code: code, message: message });
    return { opened: false, error: { code: code, message: message } };
  }

  // The scheme an element is drawn in: its color-scheme (else the page's meta), the system's
  // preference between two, light when none is declared.
  function schemeOf(element) {
    function named(value) {
      return String(value || '').split(/\\s+/).filter(function (word) { return word === 'light' || word === 'dark'; });
    }
    var schemes = named(getComputedStyle(element).colorScheme);
    if (!schemes.length) {
      var meta = document.querySelector('meta[name="color-scheme"]');
      schemes = named(meta && meta.content);
    }
    if (schemes.length > 1) {
      var dark = window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches;
      return dark && schemes.indexOf('dark') >= 0 ? 'dark' : 'light';
    }
    return schemes[0] || 'light';
  }

  // A colour as #rrggbb (the hosted pages take nothing else): from #rgb, #rrggbb or rgb().
  function hexColor(value) {
    var text = String(value || '').trim().toLowerCase();
    if (/^#[0-9a-f]{6}$/.test(text)) return text;
    if (/^#[0-9a-f]{3}$/.test(text)) return '#' + text.slice(1).replace(/./g, '$&$&');
    var rgb = /^rgba?\\(\\s*(\\d+)[\\s,]+(\\d+)[\\s,]+(\\d+)\\s*(?:[,/]\\s*([\\d.]+%?)\\s*)?\\)$/.exec(text);
    if (!rgb || (rgb[4] !== undefined && parseFloat(rgb[4]) === 0)) return '';
    return '#' + [rgb[1], rgb[2], rgb[3]].map(function (channel) {
      return ('0' + Math.min(255, Number(channel)).toString(16)).slice(-2);
    }).join('');
  }

  // The top of what shows of an element: its closest scrolling box's (through slots and shadow
  // roots: a modal dialog holding the container), else the viewport's.
  function visibleTop(element) {
    var node = element;
    while (node) {
      node = node.assignedSlot || node.parentElement || (node.getRootNode && node.getRootNode().host) || null;
      if (node && node !== document.documentElement && node !== document.body) {
        var overflow = getComputedStyle(node).overflowY;
        if (overflow === 'auto' || overflow === 'scroll') return Math.max(0, node.getBoundingClientRect().top);
      }
    }
    return 0;
  }

  function close(containerId) {
    var container = document.getElementById(containerId || 'service_portal');
    if (!container) return;
    var cleanup = cleanups.get(container);
    if (cleanup) cleanup();
    cleanups.delete(container);
    container.textContent = '';
  }

  function open(params, options) {
    var containerId = (options && options.containerId) || 'service_portal';
    var container = document.getElementById(containerId);
    if (!container) return Promise.reject(new Error('ServicePortal: no element with id "' + containerId + '"'));
    var previous = cleanups.get(container);
    if (previous) previous();
    cleanups.delete(container);
    var p = params || {};
    if (typeof p.business_id !== 'number' || typeof p.segment_ref !== 'string' || typeof p.customer_ref !== 'string' ||
        typeof p.query !== 'string' || typeof p.hash !== 'string') {
      return Promise.resolve(showError(container, 'The customer portal could not be opened: incomplete parameters.', 'invalid-params'));
    }
    var search = new URLSearchParams({
      business_id: String(p.business_id), segment_ref: p.segment_ref, customer_ref: p.customer_ref, query: p.query, hash: p.hash
    });
    var lang = (document.documentElement.getAttribute('lang') || '').slice(0, 2);
    if (lang) search.set('lang', lang);
    var theme = options && (options.colorScheme === 'light' || options.colorScheme === 'dark')
      ? options.colorScheme
      : schemeOf(container);
    search.set('theme', theme);
    var accent = hexColor((options && options.accent) || getComputedStyle(container).accentColor);
    if (accent) search.set('accent', accent);
    // The hosted page checks the names and keeps only a list it can rebuild safely.
    var font = String((options && options.fontFamily) || getComputedStyle(container).fontFamily || '');
    if (font && font.length <= 300) search.set('font', font);
    return fetch(ORIGIN + '/portal/open?' + search.toString(), { credentials: 'omit', cache: 'no-store' })
      .then(function (response) {
        return response.json().then(function (body) { return { ok: response.ok, body: body }; });
      })
      .then(function (result) {
        if (!result.ok) return showError(container, result.body.message, result.body.code);
        var iframe = document.createElement('iframe');
        iframe.title = result.body.title;
        iframe.src = result.body.url;
        iframe.setAttribute('allow', 'payment');
        iframe.style.cssText = 'display:block;width:100%;border:0;height:560px;min-height:200px;';
        // The frame in the page's scheme too: no opaque backdrop behind a page of another one.
        iframe.style.colorScheme = theme;
        var ready = false;
        var pages = 0;
        function onMessage(event) {
          if (event.source !== iframe.contentWindow || event.origin !== ORIGIN) return;
          var data = event.data;
          if (!data || data.source !== 'service-portal') return;
          if (data.type === 'resize' && typeof data.height === 'number' && isFinite(data.height)) {
            iframe.style.height = Math.max(200, Math.min(Math.ceil(data.height), 10000)) + 'px';
          } else if (data.type === 'escape') {
            emit(container, 'service-portal:escape', null);
          } else if (data.type === 'workflow-complete' && WORKFLOWS.indexOf(data.workflow) >= 0) {
            emit(container, 'service-portal:complete', { workflow: data.workflow });
          } else if (data.type === 'page' && typeof data.title === 'string' && data.title.length <= 200) {
            if (typeof data.frameTitle === 'string' && data.frameTitle) iframe.title = data.frameTitle.slice(0, 200);
            // The first page is the one asked for; a later one, where the customer went from it.
            // Counted by messages (in the frame's order), not by load events, which some engines
            // deliver before the message the same page posted while it loaded.
            pages += 1;
            emit(container, 'service-portal:page', { title: data.title, opened: pages === 1 });
          }
        }
        window.addEventListener('message', onMessage);
        iframe.addEventListener('load', function () {
          if (ready) {
            // A page the customer opened inside the frame starts at its top: on a phone the
            // form they sent may have been far below it, and its outcome would be out of view.
            if (iframe.getBoundingClientRect().top < visibleTop(iframe)) iframe.scrollIntoView({ block: 'start' });
            return;
          }
          ready = true;
          emit(container, 'service-portal:ready', { page: result.body.page });
        });
        cleanups.set(container, function () { window.removeEventListener('message', onMessage); });
        container.textContent = '';
        container.appendChild(iframe);
        return { opened: true, page: result.body.page, iframe: iframe };
      }, function () {
        return showError(container, 'The customer portal could not be reached.', 'unreachable');
      });
  }

  window.ServicePortal = { open: open, close: close, __sandbox: ORIGIN };
})();
`;
}

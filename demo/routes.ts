import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Connect, ViteDevServer } from 'vite';
import type { Directory } from './directory.js';
import { escapeHtml, fill, raw } from './html.js';
import { SEATS_IN_USE } from './customers.js';
import { FEATURE_LABELS } from './labels.js';
import { textSlots } from './texts.js';
import { sitePage } from './site/texts.js';
import {
  LOGO,
  initials,
  isDemoLanguage,
  renderAppPage,
  type AppPage,
  type DemoLanguage,
} from './layout.js';
import { parseCookies, type SessionCodec } from './session.js';

// The host app's own routes: sign-in and sign-out, the signed-in pages (rendered on the
// server, then through Vite for its module scripts), and the plain script-tag page.

interface AppRoute {
  page: AppPage;
  file: string;
  script: string;
}

const APP_ROUTES = new Map<string, AppRoute>([
  ['/app/', { page: 'overview', file: 'overview.html', script: '/demo/src/overview.ts' }],
  ['/app/plans', { page: 'plans', file: 'plans.html', script: '/demo/src/plans.ts' }],
  ['/app/billing', { page: 'billing', file: 'billing.html', script: '/demo/src/billing.ts' }],
  ['/app/portal', { page: 'portal', file: 'portal.html', script: '/demo/src/portal.ts' }],
  ['/app/embed', { page: 'embed', file: 'embed.html', script: '/demo/src/embed.ts' }],
]);

/** Where sign-in may send the browser next: one of our own pages, never another site. */
function safeNext(next: string | null): string {
  return next !== null && (APP_ROUTES.has(next) || next === '/site/') ? next : '/app/';
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  type = 'text/html; charset=utf-8',
): void {
  res.statusCode = status;
  res.setHeader('content-type', type);
  res.setHeader('cache-control', 'no-store');
  res.setHeader('x-content-type-options', 'nosniff');
  res.end(body);
}

function redirect(res: ServerResponse, location: string, cookie?: string): void {
  res.statusCode = 303;
  res.setHeader('location', location);
  res.setHeader('cache-control', 'no-store');
  if (cookie) res.setHeader('set-cookie', cookie);
  res.end();
}

const LANGUAGE_COOKIE = 'demo-lang';

/**
 * The language an app page is shown in: `?lang=fr` or `?lang=en` chooses it and is remembered
 * in a cookie for the next pages; otherwise the cookie's, else English.
 */
function pageLanguage(req: IncomingMessage, url: URL, res: ServerResponse): DemoLanguage {
  const asked = url.searchParams.get('lang');
  if (isDemoLanguage(asked)) {
    res.setHeader('set-cookie', `${LANGUAGE_COOKIE}=${asked}; Path=/; SameSite=Lax`);
    return asked;
  }
  const remembered = parseCookies(req.headers.cookie).get(LANGUAGE_COOKIE);
  return isDemoLanguage(remembered) ? remembered : 'en';
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > 4096) throw new Error('Form too large');
  }
  return new URLSearchParams(body);
}

/** A form post from another site is refused: the sessions are this app's own. */
function isSameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

export interface DemoRoutesOptions {
  root: string;
  vite: ViteDevServer;
  sessions: SessionCodec;
  directory: Directory;
  /** Serves the script-tag file and the modules (GET /billing-elements.js, /cdn/...); false: not one. */
  scriptBundle: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;
  /**
   * What the host app's back end does when its customer uses the product: reports the usage to
   * the billing service (the demo's "simulate back-end usage" button).
   */
  reportUsage: (customer: string) => Promise<void>;
}

export function demoRoutes(options: DemoRoutesOptions): Connect.NextHandleFunction {
  const { root, vite, sessions, directory } = options;
  const demoDir = join(root, 'demo');

  async function signInPage(req: IncomingMessage, url: URL): Promise<string> {
    const current = directory.get(sessions.read(req.headers.cookie) ?? '');
    const notices: string[] = [];
    if (url.searchParams.has('signed-out')) notices.push('You are signed out.');
    if (url.searchParams.has('next')) notices.push('Sign in to continue.');
    let notice = notices
      .map((text) => `<p class="notice" role="status">${escapeHtml(text)}</p>`)
      .join('');
    if (current) {
      notice += `<p class="notice" role="status">Signed in as ${escapeHtml(current.name)}. <a href="/app/">Back to the dashboard</a> or pick another account.</p>`;
    }
    const customers = [...directory.values()]
      .map(
        (customer) =>
          `<li><button class="account" type="submit" name="customer" value="${escapeHtml(customer.reference)}">` +
          `<span class="avatar" aria-hidden="true">${escapeHtml(initials(customer.name))}</span>` +
          `<span class="account-text"><span class="account-name">${escapeHtml(customer.name)}</span>` +
          `<span class="account-situation">${escapeHtml(customer.situation)}</span></span>` +
          `<span class="tag tone-${customer.tone}">${escapeHtml(customer.label)}</span></button></li>`,
      )
      .join('\n');
    const template = await readFile(join(root, 'index.html'), 'utf8');
    return fill(template, {
      logo: raw(LOGO),
      notice: raw(notice),
      next: safeNext(url.searchParams.get('next')),
      customers: raw(customers),
    });
  }

  return (req, res, next) => {
    const url = new URL(req.url ?? '/', 'http://demo.invalid');
    const path = url.pathname;
    const method = req.method ?? 'GET';

    const handle = async (): Promise<boolean> => {
      if ((path === '/' || path === '/index.html') && (method === 'GET' || method === 'HEAD')) {
        const html = await vite.transformIndexHtml(req.url ?? '/', await signInPage(req, url));
        send(res, 200, html);
        return true;
      }
      if (path === '/session/sign-in' && method === 'POST') {
        if (!isSameOrigin(req)) {
          send(res, 403, 'Cross-site sign-in refused.', 'text/plain; charset=utf-8');
          return true;
        }
        const form = await readForm(req).catch(() => null);
        if (!form) {
          send(res, 413, 'Form too large.', 'text/plain; charset=utf-8');
          return true;
        }
        const customer = directory.get(form.get('customer') ?? '');
        if (customer)
          redirect(res, safeNext(form.get('next')), sessions.signIn(customer.reference));
        else redirect(res, '/');
        return true;
      }
      if (path === '/session/sign-out' && method === 'POST') {
        if (isSameOrigin(req)) redirect(res, '/?signed-out', sessions.signOut());
        else send(res, 403, 'Cross-site sign-out refused.', 'text/plain; charset=utf-8');
        return true;
      }
      if (path === '/demo/report-usage' && method === 'POST') {
        const customer = directory.get(sessions.read(req.headers.cookie) ?? '');
        if (!isSameOrigin(req) || !customer) {
          send(res, 403, 'Sign in on this site first.', 'text/plain; charset=utf-8');
          return true;
        }
        await options.reportUsage(customer.reference);
        send(res, 204, '');
        return true;
      }
      if (path === '/app' || path === '/app/index.html') {
        redirect(res, '/app/');
        return true;
      }
      const route = APP_ROUTES.get(path);
      if (route && (method === 'GET' || method === 'HEAD')) {
        const customer = directory.get(sessions.read(req.headers.cookie) ?? '');
        if (!customer) {
          redirect(res, `/?next=${encodeURIComponent(path)}`);
          return true;
        }
        const language = pageLanguage(req, url, res);
        const template = await readFile(join(demoDir, 'pages', route.file), 'utf8');
        // The seats the customer's team uses, as the app counts them (the same the proxy's
        // inUse option says): an `in-use` attribute, none when the app counts none.
        const seatsInUse = SEATS_IN_USE[customer.reference];
        const content = fill(template, {
          ...FEATURE_LABELS[language],
          ...textSlots(language),
          seatsInUse: raw(seatsInUse === undefined ? '' : `in-use="${seatsInUse}"`),
        });
        const page = renderAppPage({ ...route, customer, content, language });
        send(res, 200, await vite.transformIndexHtml(req.url ?? path, page));
        return true;
      }
      if (path === '/site') {
        redirect(res, '/site/');
        return true;
      }
      if (path === '/site/' && (method === 'GET' || method === 'HEAD')) {
        // As a plain website serves it: no dev-server transform, only the script tag; in the
        // language the app's switch chose (its cookie) or this page's own link asks for.
        const template = await readFile(join(demoDir, 'site', 'index.html'), 'utf8');
        send(res, 200, sitePage(template, pageLanguage(req, url, res)));
        return true;
      }
      if (method === 'GET' || method === 'HEAD') return options.scriptBundle(req, res, path);
      return false;
    };

    handle().then(
      (handled) => {
        if (!handled) next();
      },
      (error: unknown) => next(error),
    );
  };
}

import { SESSION_CUSTOMER_HEADER } from '../contract/constants.js';
import { ProxyError } from './errors.js';

/**
 * Who may call the proxy from a browser, and with which CORS headers.
 *
 * - Same-origin requests are always allowed: an `Origin` equal to the request's own origin, or
 *   `Sec-Fetch-Site: same-origin` whatever the `Origin` (browsers omit `Origin` on some
 *   same-origin requests but always send `Sec-Fetch-Site`). The browser's own word counts
 *   because the origin the proxy sees is often not the page's: a development proxy (Vite's
 *   `server.proxy`, which rewrites `Host`), `next start` (whose route handlers see
 *   `localhost:PORT`) or a reverse proxy stands between them. A page cannot set
 *   `Sec-Fetch-Site`, and a cross-site request (redirects included) is never `same-origin`;
 *   a client that forges it is not a browser, so it carries no visitor's cookies.
 * - Other origins are allowed only when listed in `allowedOrigins`; they get CORS headers with
 *   credentials (exact origin echoed, never `*`).
 * - Everything else is refused before `identify` runs, for every method: a cross-site page
 *   cannot make the proxy act (or create a customer upstream) with the visitor's cookies.
 *   A request with neither `Origin` nor `Sec-Fetch-Site: same-origin` cannot be told apart
 *   from a forged one, so state-changing requests need one of them; reads without either
 *   (non-browser clients, old browsers) are allowed, as CORS keeps their answers from
 *   cross-site pages and they change nothing but the customer's creation upstream.
 */
export function checkOrigin(
  request: Request,
  url: URL,
  allowedOrigins: ReadonlySet<string>,
  stateChanging: boolean,
): string | null {
  const origin = request.headers.get('origin');
  const fetchSite = request.headers.get('sec-fetch-site');
  if (origin !== null) {
    if (origin === url.origin || fetchSite === 'same-origin') return null;
    if (allowedOrigins.has(origin)) return origin;
    throw forbiddenOrigin(origin);
  }
  if (fetchSite === 'same-origin' || fetchSite === 'none') return null;
  if (fetchSite === 'cross-site' || fetchSite === 'same-site' || stateChanging) {
    throw new ProxyError(403, 'forbidden-origin', 'Cross-site requests need an allowed Origin.');
  }
  return null;
}

/**
 * The refusal of an origin that is not allowed. The page may read it, without credentials: it
 * says only that this origin is not allowed (nothing of any customer), and it lets the elements
 * tell the integrator what to fix instead of "billing could not be reached".
 */
export function forbiddenOrigin(origin: string): ProxyError {
  return new ProxyError(
    403,
    'forbidden-origin',
    `The origin ${origin} is not in the allowedOrigins of this billing proxy.`,
    { headers: { 'access-control-allow-origin': origin, vary: 'Origin' } },
  );
}

/** Headers that let an allowed other origin read the answer with credentials. */
export function corsHeaders(allowedOrigin: string | null): Record<string, string> {
  if (allowedOrigin === null) return { vary: 'Origin' };
  return {
    'access-control-allow-origin': allowedOrigin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': `Retry-After, ${SESSION_CUSTOMER_HEADER}`,
    vary: 'Origin',
  };
}

const ALLOWED_REQUEST_HEADERS = new Set([
  'content-type',
  'accept',
  'accept-language',
  'content-language',
  // A page identified by a token (see token.ts) sends it as `Authorization: Bearer`.
  'authorization',
  // The customer the page shows, sent with its changes (SESSION_CUSTOMER_HEADER).
  SESSION_CUSTOMER_HEADER,
]);

/** The answer to a CORS preflight (OPTIONS with Access-Control-Request-Method). */
export function preflightResponse(
  request: Request,
  allowedOrigins: ReadonlySet<string>,
  methods: readonly string[],
): Response {
  const origin = request.headers.get('origin');
  const allow = [...methods, 'OPTIONS'].join(', ');
  const requestedMethod = request.headers.get('access-control-request-method');
  if (origin === null || requestedMethod === null) {
    // A plain OPTIONS: say what the route accepts.
    return new Response(null, { status: 204, headers: { allow, vary: 'Origin' } });
  }
  const sameOrigin =
    origin === new URL(request.url).origin ||
    request.headers.get('sec-fetch-site') === 'same-origin';
  if (!sameOrigin && !allowedOrigins.has(origin)) throw forbiddenOrigin(origin);
  if (!methods.includes(requestedMethod)) {
    throw new ProxyError(405, 'method-not-allowed', `Use ${methods.join(' or ')}.`, {
      headers: { allow },
    });
  }
  const requestedHeaders = (request.headers.get('access-control-request-headers') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  const refused = requestedHeaders.find((name) => !ALLOWED_REQUEST_HEADERS.has(name));
  if (refused !== undefined) {
    throw new ProxyError(
      403,
      'forbidden-origin',
      `The request header "${refused}" is not allowed.`,
    );
  }
  return new Response(null, {
    status: 204,
    headers: {
      allow,
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': allow,
      'access-control-allow-headers': [...ALLOWED_REQUEST_HEADERS].join(', '),
      'access-control-max-age': '600',
      vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
    },
  });
}

function firstValue(header: string | null): string | undefined {
  return header?.split(',')[0]?.trim() || undefined;
}

/**
 * The request's public URL behind a reverse proxy that sets X-Forwarded-Proto and
 * X-Forwarded-Host (and overwrites what the client sent): what `trustProxy` reads.
 */
export function forwardedUrl(url: URL, headers: Headers): URL {
  const proto = firstValue(headers.get('x-forwarded-proto'))?.toLowerCase();
  const host = firstValue(headers.get('x-forwarded-host'));
  if (proto === undefined && host === undefined) return url;
  if (proto !== undefined && proto !== 'http' && proto !== 'https') return url;
  try {
    return new URL(
      `${url.pathname}${url.search}`,
      `${proto ?? url.protocol.slice(0, -1)}://${host ?? url.host}`,
    );
  } catch {
    return url;
  }
}

import type { BillingMessages, Language } from './i18n.js';

/** Page-wide settings of the billing elements. */
export interface BillingConfig {
  /** Where the billing proxy is mounted: a path (`/billing`) or an absolute URL for a proxy on another origin. */
  endpoint: string;
  /** Time limit of each request to the proxy, in milliseconds. */
  timeoutMs: number;
  /** Time limit for loading the service's portal script, in milliseconds. */
  portalScriptTimeoutMs: number;
  /** Name of the global the portal script defines (the live service's script may use another). */
  portalGlobal: string;
  /**
   * Origins (besides the page's own and the hosted origin the proxy announces) whose
   * addresses the elements may follow, e.g. the in-site installation URL on another host.
   */
  trustedOrigins: string[];
  /** Overrides of the built-in texts, per language. */
  messages: Partial<Record<Language, Partial<BillingMessages>>>;
  /**
   * Follow the proxy's event stream ({endpoint}/events) so that what the elements show changes
   * as soon as the customer's billing does. On by default; it stays quiet (one console line)
   * where the proxy has no such route.
   */
  live: boolean;
  /**
   * Where a signed-out customer signs in (the host app's sign-in page). Without it, the elements
   * say "Sign in to see your plan" without a link. An element's `sign-in-url` attribute wins.
   */
  signInUrl: string;
  /**
   * Identify the customer by a token rather than by the proxy's cookies (a page on another site,
   * where those cookies are third-party ones that browsers block): a function returning the
   * customer's current token, or null when signed out. Asked once, then again each time the
   * proxy answers `token-expired` (the request is then sent once more, unchanged). Requests
   * carry `Authorization: Bearer <token>` and no cookies.
   */
  token?: BillingTokenSource | undefined;
}

/** Gives the signed-in customer's token for the proxy (sync or async); null when signed out. */
export type BillingTokenSource = () =>
  string | null | undefined | Promise<string | null | undefined>;

export type BillingConfigOptions = Partial<BillingConfig>;

/** The defaults, made anew each time: no array or object handed out is shared with the next. */
const defaults = (): BillingConfig => ({
  endpoint: '/billing',
  timeoutMs: 15_000,
  portalScriptTimeoutMs: 15_000,
  portalGlobal: 'ServicePortal',
  trustedOrigins: [],
  messages: {},
  live: true,
  signInUrl: '',
});

let current = defaults();

/**
 * Sets the page-wide configuration. Message overrides merge with earlier ones, per language;
 * every other option replaces its previous value. Call it before the elements connect, or
 * at any time: elements read the configuration when they load.
 */
export function configureBilling(options: BillingConfigOptions): BillingConfig {
  const messages = { ...current.messages };
  for (const [language, overrides] of Object.entries(options.messages ?? {})) {
    messages[language as Language] = { ...messages[language as Language], ...overrides };
  }
  current = {
    endpoint: options.endpoint ?? current.endpoint,
    timeoutMs: options.timeoutMs ?? current.timeoutMs,
    portalScriptTimeoutMs: options.portalScriptTimeoutMs ?? current.portalScriptTimeoutMs,
    portalGlobal: options.portalGlobal ?? current.portalGlobal,
    trustedOrigins: options.trustedOrigins ? [...options.trustedOrigins] : current.trustedOrigins,
    messages,
    live: options.live ?? current.live,
    signInUrl: options.signInUrl ?? current.signInUrl,
    token: 'token' in options ? options.token : current.token,
  };
  return current;
}

/** The current page-wide configuration. */
export function getBillingConfig(): Readonly<BillingConfig> {
  return current;
}

/** Puts the configuration back to its defaults (tests, sign-out of a single-page app). */
export function resetBillingConfig(): void {
  current = defaults();
}

/** The proxy location to use: an element's own `endpoint`, else the page's, without a trailing slash. */
export function resolveEndpoint(endpoint?: string | null): string {
  const chosen = endpoint && endpoint.trim() !== '' ? endpoint.trim() : current.endpoint;
  return chosen.length > 1 ? chosen.replace(/\/+$/, '') : chosen;
}

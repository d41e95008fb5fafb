import { getBillingConfig } from './config.js';

/**
 * The address as a URL when the elements may follow it: http(s) only, and on the page's own
 * origin, a configured trusted origin or one of `extraOrigins` (the hosted origin the proxy
 * announced). Anything else (javascript:, data:, another host) gives null.
 */
export function followableUrl(address: string, extraOrigins: readonly string[] = []): URL | null {
  if (typeof location === 'undefined') return null;
  const url = httpUrl(address, location.href);
  const allowed = [location.origin, ...getBillingConfig().trustedOrigins, ...extraOrigins];
  return url && allowed.some((trusted) => httpUrl(trusted)?.origin === url.origin) ? url : null;
}

/** An http(s) address as a URL (relative to `base` when given), else null. */
export function httpUrl(address: string, base?: string): URL | null {
  try {
    const url = new URL(address, base);
    return /^https?:$/.test(url.protocol) ? url : null;
  } catch {
    return null;
  }
}

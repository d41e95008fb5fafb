import { getBillingConfig } from './config.js';

/**
 * The address as a URL when the elements may follow it: http(s) only, and on the page's own
 * origin, a configured trusted origin or one of `extraOrigins` (the hosted origin the proxy
 * announced). Anything else (javascript:, data:, another host) gives null.
 */
export function followableUrl(address: string, extraOrigins: readonly string[] = []): URL | null {
  if (typeof location === 'undefined') return null;
  const origin = originOf(address, location.href);
  const allowed = [location.origin, ...getBillingConfig().trustedOrigins, ...extraOrigins];
  return origin && allowed.some((trusted) => originOf(trusted) === origin)
    ? new URL(address, location.href)
    : null;
}

/** The origin of an http(s) address (relative to `base` when given), else null. */
export function originOf(address: string, base?: string): string | null {
  try {
    const url = new URL(address, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

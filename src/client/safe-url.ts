import { getBillingConfig } from './config.js';

/**
 * The address as a URL when the elements may follow it: http(s) only, and on the page's own
 * origin, a configured trusted origin or one of `extraOrigins` (the hosted origin the proxy
 * announced). Anything else (javascript:, data:, another host) gives null.
 */
export function followableUrl(address: string, extraOrigins: readonly string[] = []): URL | null {
  if (typeof location === 'undefined') return null;
  let url: URL;
  try {
    url = new URL(address, location.href);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const allowed = new Set<string>([location.origin]);
  for (const origin of [...getBillingConfig().trustedOrigins, ...extraOrigins]) {
    const normalized = originOf(origin);
    if (normalized) allowed.add(normalized);
  }
  return allowed.has(url.origin) ? url : null;
}

/** The origin of an address or origin string, or null when it is not an http(s) address. */
export function originOf(address: string): string | null {
  try {
    const url = new URL(address);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

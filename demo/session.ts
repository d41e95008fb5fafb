import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// The demo host app's own sign-in: a signed cookie naming the customer. The billing proxy's
// `identify` reads this cookie, exactly as a real app would read its own session.

export const SESSION_COOKIE = 'nw_session';
const MAX_AGE_SECONDS = 8 * 60 * 60;

export interface SessionCodec {
  /** The Set-Cookie value that signs `reference` in. */
  signIn(reference: string): string;
  /** The Set-Cookie value that signs out. */
  signOut(): string;
  /** The customer reference of a valid session cookie in a Cookie header, or null. */
  read(cookieHeader: string | null | undefined): string | null;
}

/** Customer references the demo accepts: what the fixtures use, and safe in a cookie as is. */
const REFERENCE_PATTERN = /^[A-Za-z0-9_:-]{1,128}$/;

/** Raw cookie values by name (the first of duplicates wins, as browsers send the most specific first). */
export function parseCookies(header: string | null | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index <= 0) continue;
    const name = part.slice(0, index).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(index + 1).trim());
  }
  return cookies;
}

/**
 * Sessions signed with a per-process secret: restarting the demo signs everyone out, which
 * matches the sandbox going back to its fixtures.
 */
export function createSessionCodec(secret: Buffer = randomBytes(32)): SessionCodec {
  const sign = (value: string): string =>
    createHmac('sha256', secret).update(value).digest('base64url');
  const attributes = `Path=/; HttpOnly; SameSite=Lax`;
  return {
    signIn(reference) {
      if (!REFERENCE_PATTERN.test(reference))
        throw new Error(`Not a customer reference: ${reference}`);
      const issued = Math.floor(Date.now() / 1000);
      const value = `${reference}.${issued}`;
      return `${SESSION_COOKIE}=${value}.${sign(value)}; ${attributes}; Max-Age=${MAX_AGE_SECONDS}`;
    },
    signOut() {
      return `${SESSION_COOKIE}=; ${attributes}; Max-Age=0`;
    },
    read(cookieHeader) {
      const cookie = parseCookies(cookieHeader).get(SESSION_COOKIE);
      if (!cookie) return null;
      const [reference, issued, signature, ...rest] = cookie.split('.');
      if (!reference || !issued || !signature || rest.length > 0) return null;
      const expected = Buffer.from(sign(`${reference}.${issued}`));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      if (Date.now() / 1000 - Number(issued) > MAX_AGE_SECONDS) return null;
      return REFERENCE_PATTERN.test(reference) ? reference : null;
    },
  };
}

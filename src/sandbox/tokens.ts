import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

// Hosted-page tokens and in-site queries are AES-256-GCM sealed with a key of this sandbox:
// opaque (the customer id inside is not readable), unguessable (256-bit key, 128-bit tag) and
// tamper-evident (any change fails authentication). The two kinds use different associated data,
// so a query cannot be replayed as a path token or the reverse.

export const HOSTED_PAGES = [
  'portal',
  'offers',
  'subscribe',
  'register',
  'upgrade',
  'conclude',
  'restart',
  'charge',
  'invoice',
  'invoices',
] as const;
export type HostedPage = (typeof HOSTED_PAGES)[number];

/** What a hosted link or an in-site query opens. */
export interface HostedTarget {
  page: HostedPage;
  /** Customer id. */
  c: number;
  /** Subscription id. */
  s?: number;
  /** Invoice id. */
  i?: number;
  /** Offer reference. */
  o?: string;
  /** Targeted (custom) subscription id. */
  t?: number;
}

type Kind = 'hosted' | 'query';

export class TokenSealer {
  readonly #key: Buffer;
  readonly #ivKey: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('The token key must be 32 bytes');
    this.#key = key;
    this.#ivKey = createHmac('sha256', key).update('iv-derivation').digest();
  }

  static generateKey(): Buffer {
    return randomBytes(32);
  }

  /**
   * Deterministic: the IV is derived from the content (synthetic IV), so one target always gives
   * the same token and query; that reveals only that two links open the same thing.
   */
  seal(kind: Kind, target: HostedTarget): string {
    const plain = JSON.stringify(target);
    const iv = createHmac('sha256', this.#ivKey)
      .update(`${kind}\n${plain}`)
      .digest()
      .subarray(0, 12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(kind));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** The target, or null when the token is malformed, forged or altered. */
  open(kind: Kind, token: string): HostedTarget | null {
    if (!/^[A-Za-z0-9_-]{40,2048}$/.test(token)) return null;
    const raw = Buffer.from(token, 'base64url');
    if (raw.length < 12 + 16 + 2) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(kind));
      decipher.setAuthTag(raw.subarray(raw.length - 16));
      const text = Buffer.concat([
        decipher.update(raw.subarray(12, raw.length - 16)),
        decipher.final(),
      ]).toString('utf8');
      return parseTarget(JSON.parse(text));
    } catch {
      return null;
    }
  }
}

function parseTarget(value: unknown): HostedTarget | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (!HOSTED_PAGES.includes(v.page as HostedPage) || !Number.isInteger(v.c)) return null;
  return v as unknown as HostedTarget;
}

/** `hash` of ServicePortal.open: lowercase hex HMAC-SHA256 of the customer reference. */
export function portalHash(customerRef: string, portalSecret: string): string {
  return createHmac('sha256', portalSecret).update(customerRef, 'utf8').digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

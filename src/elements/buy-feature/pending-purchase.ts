import { IDEMPOTENCY_KEY_PATTERN } from '../../contract/constants.js';
import type { PurchaseRequest } from '../../contract/proxy-api.js';
import { getSessionValue, removeSessionValue, setSessionValue } from '../../client/session.js';

// The idempotency key of a confirmed purchase waits in sessionStorage, per proxy endpoint and
// feature, until its outcome is known. A retry, a second click or a reload re-sends the very
// same request with the same key, so the proxy applies the purchase at most once.

/** A purchase the user confirmed whose outcome is not known yet. */
export interface PendingPurchase extends PurchaseRequest {
  /** When it was confirmed (ms since the epoch). */
  confirmedAt: number;
  /** The customer the confirmed price was quoted for, when the proxy said. */
  customer?: string;
}

const PREFIX = 'billing-elements:pending-purchase:';

/**
 * A pending purchase older than this is dropped instead of re-sent: past it the proxy may have
 * forgotten the key, and a re-send could then buy a second time.
 */
export const PENDING_PURCHASE_MAX_AGE_MS = 12 * 60 * 60 * 1000;

const storageKey = (endpoint: string, feature: string) =>
  `${PREFIX}${new URL(endpoint, document.baseURI).href}#${feature}`;

/** A fresh idempotency key: 128 random bits in hex (`randomUUID` would be missing on plain http pages). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The purchase of `feature` on the proxy at `endpoint` still waiting for its outcome, if any. */
export function readPendingPurchase(
  endpoint: string,
  feature: string,
  now = Date.now(),
): PendingPurchase | undefined {
  const key = storageKey(endpoint, feature);
  const stored = getSessionValue(key);
  if (stored === null) return undefined;
  const pending = parseStored(stored);
  if (isPendingPurchase(pending, feature, now)) return pending;
  // Unreadable, tampered with or too old: forgotten, never re-sent.
  removeSessionValue(key);
  return undefined;
}

function parseStored(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A stored purchase of `feature`, well formed, confirmed no longer than the maximum age ago. */
function isPendingPurchase(value: unknown, feature: string, now: number): value is PendingPurchase {
  if (typeof value !== 'object' || value === null) return false;
  const stored = value as Record<string, unknown>;
  return (
    stored.feature === feature &&
    Number.isInteger(stored.increment) &&
    typeof stored.idempotencyKey === 'string' &&
    IDEMPOTENCY_KEY_PATTERN.test(stored.idempotencyKey) &&
    Number.isInteger(stored.confirmedAmountTotal) &&
    (stored.confirmedAmountTotal as number) >= 0 &&
    typeof stored.confirmedAt === 'number' &&
    now - stored.confirmedAt <= PENDING_PURCHASE_MAX_AGE_MS &&
    (stored.customer === undefined || typeof stored.customer === 'string')
  );
}

/** Records a new confirmation with a fresh key, before anything is sent. */
export function createPendingPurchase(
  endpoint: string,
  feature: string,
  increment: number,
  confirmedAmountTotal: number,
  customer?: string,
): PendingPurchase {
  const pending: PendingPurchase = {
    feature,
    increment,
    idempotencyKey: newIdempotencyKey(),
    confirmedAmountTotal,
    confirmedAt: Date.now(),
    ...(customer ? { customer } : {}),
  };
  setSessionValue(storageKey(endpoint, feature), JSON.stringify(pending));
  return pending;
}

/** Forgets a purchase once its outcome is known; a newer confirmation stored since is kept. */
export function settlePendingPurchase(endpoint: string, pending: PendingPurchase): void {
  if (readPendingPurchase(endpoint, pending.feature)?.idempotencyKey === pending.idempotencyKey)
    removeSessionValue(storageKey(endpoint, pending.feature));
}

/** The request body of a pending purchase, exactly as first sent. */
export function purchaseRequestOf(pending: PendingPurchase): PurchaseRequest {
  const { confirmedAt: _confirmedAt, customer: _customer, ...request } = pending;
  return request;
}

import { IDEMPOTENCY_KEY_PATTERN, type PurchaseRequest } from '../../contract/proxy-api.js';

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

/** sessionStorage, or a page-lifetime map where storage is blocked (sandboxed frames, privacy modes). */
function sessionStore(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  try {
    const storage = globalThis.sessionStorage;
    const probe = `${PREFIX}probe`;
    storage.setItem(probe, '1');
    storage.removeItem(probe);
    return storage;
  } catch {
    return memoryStore;
  }
}
const memoryMap = new Map<string, string>();
const memoryStore = {
  getItem: (key: string) => memoryMap.get(key) ?? null,
  setItem: (key: string, value: string) => void memoryMap.set(key, value),
  removeItem: (key: string) => void memoryMap.delete(key),
};

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
  const store = sessionStore();
  const key = storageKey(endpoint, feature);
  try {
    const stored = JSON.parse(store.getItem(key)!) as Record<string, unknown> | null;
    if (
      stored?.feature === feature &&
      Number.isInteger(stored.increment) &&
      typeof stored.idempotencyKey === 'string' &&
      IDEMPOTENCY_KEY_PATTERN.test(stored.idempotencyKey) &&
      Number.isInteger(stored.confirmedAmountTotal) &&
      (stored.confirmedAmountTotal as number) >= 0 &&
      now - (stored.confirmedAt as number) <= PENDING_PURCHASE_MAX_AGE_MS &&
      (stored.customer === undefined || typeof stored.customer === 'string')
    ) {
      return stored as unknown as PendingPurchase;
    }
  } catch {
    // Unreadable: forgotten below.
  }
  // Unreadable, tampered or too old: forget it (nothing happens when there is none).
  store.removeItem(key);
  return undefined;
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
  sessionStore().setItem(storageKey(endpoint, feature), JSON.stringify(pending));
  return pending;
}

/** Forgets a purchase once its outcome is known; a newer confirmation stored since is kept. */
export function settlePendingPurchase(endpoint: string, pending: PendingPurchase): void {
  if (readPendingPurchase(endpoint, pending.feature)?.idempotencyKey === pending.idempotencyKey)
    sessionStore().removeItem(storageKey(endpoint, pending.feature));
}

/** The request body of a pending purchase, exactly as first sent. */
export function purchaseRequestOf(pending: PendingPurchase): PurchaseRequest {
  const { confirmedAt: _confirmedAt, customer: _customer, ...request } = pending;
  return request;
}

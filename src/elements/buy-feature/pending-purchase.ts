import { IDEMPOTENCY_KEY_PATTERN, type PurchaseRequest } from '../../contract/proxy-api.js';

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

/** A fresh idempotency key. `randomUUID` exists only in secure contexts; plain http pages get 128 random bits in hex. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function isPendingPurchase(value: unknown, feature: string): value is PendingPurchase {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    record.feature === feature &&
    Number.isInteger(record.increment) &&
    typeof record.idempotencyKey === 'string' &&
    IDEMPOTENCY_KEY_PATTERN.test(record.idempotencyKey) &&
    Number.isInteger(record.confirmedAmountTotal) &&
    (record.confirmedAmountTotal as number) >= 0 &&
    typeof record.confirmedAt === 'number' &&
    (record.customer === undefined || typeof record.customer === 'string')
  );
}

/**
 * Keeps the idempotency key of a confirmed purchase in sessionStorage, per proxy endpoint and
 * feature, until its outcome is known. A retry, a second click or a reload re-sends the very
 * same request with the same key, so the proxy applies the purchase at most once.
 */
export class PendingPurchaseKeeper {
  readonly #storageKey: string;
  readonly #feature: string;
  readonly #store = sessionStore();

  constructor(endpoint: string, feature: string) {
    this.#feature = feature;
    this.#storageKey = `${PREFIX}${new URL(endpoint, document.baseURI).href}#${feature}`;
  }

  /** The purchase still waiting for its outcome, if any. */
  read(now = Date.now()): PendingPurchase | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(this.#store.getItem(this.#storageKey) ?? 'null');
    } catch {
      parsed = null;
    }
    if (
      isPendingPurchase(parsed, this.#feature) &&
      now - parsed.confirmedAt <= PENDING_PURCHASE_MAX_AGE_MS
    ) {
      return parsed;
    }
    // Unreadable or too old: forget it.
    if (parsed !== null) this.#store.removeItem(this.#storageKey);
    return undefined;
  }

  /** Records a new confirmation with a fresh key, before anything is sent. */
  create(increment: number, confirmedAmountTotal: number, customer?: string): PendingPurchase {
    const pending: PendingPurchase = {
      feature: this.#feature,
      increment,
      idempotencyKey: newIdempotencyKey(),
      confirmedAmountTotal,
      confirmedAt: Date.now(),
      ...(customer ? { customer } : {}),
    };
    this.#store.setItem(this.#storageKey, JSON.stringify(pending));
    return pending;
  }

  /** Forgets the purchase once its outcome is known; a newer confirmation stored since is kept. */
  settle(idempotencyKey: string): void {
    if (this.read()?.idempotencyKey === idempotencyKey) this.#store.removeItem(this.#storageKey);
  }
}

/** The request body of a pending purchase, exactly as first sent. */
export function purchaseRequestOf(pending: PendingPurchase): PurchaseRequest {
  const { feature, increment, idempotencyKey, confirmedAmountTotal } = pending;
  return { feature, increment, idempotencyKey, confirmedAmountTotal };
}

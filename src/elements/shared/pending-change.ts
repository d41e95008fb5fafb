import { IDEMPOTENCY_KEY_PATTERN } from '../../contract/constants.js';
import { getSessionValue, removeSessionValue, setSessionValue } from '../../client/session.js';

// The idempotency key of a confirmed change (a purchase, an add-on switched, a plan change)
// waits in sessionStorage until its outcome is known: a retry, a second click or a reload
// re-sends the very same request with the same key, so the proxy applies it at most once. Each
// kind of change keeps its records under its own prefix, one per proxy endpoint and subject
// (the feature; the plan has one subject).

/** What every confirmed change request carries. */
export interface ChangeRequest {
  idempotencyKey: string;
}

/** A change the user confirmed whose outcome is not known yet: the request, as first sent. */
export type PendingChange<Request extends ChangeRequest> = Request & {
  /** When it was confirmed (ms since the epoch). */
  confirmedAt: number;
  /** The customer the confirmed price was quoted for, when the proxy said. */
  customer?: string;
};

/**
 * A pending change older than this is dropped instead of re-sent: past it the proxy may have
 * forgotten the key, and a re-send could then apply it a second time.
 */
export const PENDING_CHANGE_MAX_AGE_MS = 12 * 60 * 60 * 1000;

/** A fresh idempotency key: 128 random bits in hex (`randomUUID` would be missing on plain http pages). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Whether a stored value is a non-negative whole amount of hundredths. */
export function isAmount(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= 0;
}

function parseStored(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The pending changes of one kind, under `prefix`. `fieldsValid` checks a stored record's own
 * fields (the key, the confirmation time and the customer are checked here).
 */
export class PendingChanges<Request extends ChangeRequest> {
  readonly #prefix: string;
  readonly #fieldsValid: (stored: Record<string, unknown>, subject: string) => boolean;

  constructor(
    prefix: string,
    fieldsValid: (stored: Record<string, unknown>, subject: string) => boolean,
  ) {
    this.#prefix = prefix;
    this.#fieldsValid = fieldsValid;
  }

  #storageKey(endpoint: string, subject: string): string {
    const proxy = new URL(endpoint, document.baseURI).href;
    return subject ? `${this.#prefix}${proxy}#${subject}` : `${this.#prefix}${proxy}`;
  }

  /** The change of `subject` on the proxy at `endpoint` still waiting for its outcome, if any. */
  read(endpoint: string, subject: string, now = Date.now()): PendingChange<Request> | undefined {
    const key = this.#storageKey(endpoint, subject);
    const stored = getSessionValue(key);
    if (stored === null) return undefined;
    const value = parseStored(stored);
    if (this.#isPending(value, subject, now)) return value;
    // Unreadable, tampered with or too old: forgotten, never re-sent.
    removeSessionValue(key);
    return undefined;
  }

  #isPending(value: unknown, subject: string, now: number): value is PendingChange<Request> {
    if (typeof value !== 'object' || value === null) return false;
    const stored = value as Record<string, unknown>;
    return (
      typeof stored.idempotencyKey === 'string' &&
      IDEMPOTENCY_KEY_PATTERN.test(stored.idempotencyKey) &&
      typeof stored.confirmedAt === 'number' &&
      now - stored.confirmedAt <= PENDING_CHANGE_MAX_AGE_MS &&
      (stored.customer === undefined || typeof stored.customer === 'string') &&
      this.#fieldsValid(stored, subject)
    );
  }

  /** Records a new confirmation with a fresh key, before anything is sent. */
  create(
    endpoint: string,
    subject: string,
    request: Omit<Request, 'idempotencyKey'>,
    customer?: string,
  ): PendingChange<Request> {
    const pending = {
      ...request,
      idempotencyKey: newIdempotencyKey(),
      confirmedAt: Date.now(),
      ...(customer ? { customer } : {}),
    } as PendingChange<Request>;
    setSessionValue(this.#storageKey(endpoint, subject), JSON.stringify(pending));
    return pending;
  }

  /** Forgets a change once its outcome is known; a newer confirmation stored since is kept. */
  settle(endpoint: string, subject: string, pending: PendingChange<Request>): void {
    if (this.read(endpoint, subject)?.idempotencyKey === pending.idempotencyKey)
      removeSessionValue(this.#storageKey(endpoint, subject));
  }
}

/** The request body of a pending change, exactly as first sent. */
export function requestOf<Request extends ChangeRequest>(pending: PendingChange<Request>): Request {
  const { confirmedAt: _confirmedAt, customer: _customer, ...request } = pending;
  return request as unknown as Request;
}

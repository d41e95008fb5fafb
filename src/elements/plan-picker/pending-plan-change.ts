import { IDEMPOTENCY_KEY_PATTERN } from '../../contract/constants.js';
import type { PlanChangeRequest } from '../../contract/proxy-api.js';
import { getSessionValue, removeSessionValue, setSessionValue } from '../../client/session.js';
import { newIdempotencyKey, PENDING_PURCHASE_MAX_AGE_MS } from '../buy-feature/pending-purchase.js';

// The idempotency key of a confirmed plan change waits in sessionStorage, per proxy endpoint,
// until its outcome is known (as a purchase's does): a retry, a second click or a reload
// re-sends the very same request with the same key, so the proxy changes the plan at most once.

/** A plan change the user confirmed whose outcome is not known yet. */
export interface PendingPlanChange extends PlanChangeRequest {
  /** When it was confirmed (ms since the epoch). */
  confirmedAt: number;
  /** The customer the confirmed quote was made for, when the proxy said. */
  customer?: string;
}

const PREFIX = 'billing-elements:pending-plan:';

const storageKey = (endpoint: string) => PREFIX + new URL(endpoint, document.baseURI).href;

/** The plan change on the proxy at `endpoint` still waiting for its outcome, if any. */
export function readPendingPlanChange(
  endpoint: string,
  now = Date.now(),
): PendingPlanChange | undefined {
  const stored = getSessionValue(storageKey(endpoint));
  if (stored === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    value = undefined;
  }
  if (isPendingPlanChange(value, now)) return value;
  // Unreadable, tampered with or too old (the proxy may have forgotten the key): never re-sent.
  removeSessionValue(storageKey(endpoint));
  return undefined;
}

function isPendingPlanChange(value: unknown, now: number): value is PendingPlanChange {
  if (typeof value !== 'object' || value === null) return false;
  const stored = value as Record<string, unknown>;
  const amount = (field: unknown) => Number.isInteger(field) && (field as number) >= 0;
  return (
    typeof stored.offer === 'string' &&
    typeof stored.idempotencyKey === 'string' &&
    IDEMPOTENCY_KEY_PATTERN.test(stored.idempotencyKey) &&
    amount(stored.confirmedAmountTotal) &&
    amount(stored.confirmedNextTermAmountTotal) &&
    typeof stored.confirmedAt === 'number' &&
    now - stored.confirmedAt <= PENDING_PURCHASE_MAX_AGE_MS &&
    (stored.customer === undefined || typeof stored.customer === 'string')
  );
}

/** Records a new confirmation with a fresh key, before anything is sent. */
export function createPendingPlanChange(
  endpoint: string,
  request: Omit<PlanChangeRequest, 'idempotencyKey'>,
  customer?: string,
): PendingPlanChange {
  const pending: PendingPlanChange = {
    ...request,
    idempotencyKey: newIdempotencyKey(),
    confirmedAt: Date.now(),
    ...(customer ? { customer } : {}),
  };
  setSessionValue(storageKey(endpoint), JSON.stringify(pending));
  return pending;
}

/** Forgets a plan change once its outcome is known; a newer confirmation stored since is kept. */
export function settlePendingPlanChange(endpoint: string, pending: PendingPlanChange): void {
  if (readPendingPlanChange(endpoint)?.idempotencyKey === pending.idempotencyKey)
    removeSessionValue(storageKey(endpoint));
}

/** The request body of a pending plan change, exactly as first sent. */
export function planChangeRequestOf(pending: PendingPlanChange): PlanChangeRequest {
  const { confirmedAt: _confirmedAt, customer: _customer, ...request } = pending;
  return request;
}

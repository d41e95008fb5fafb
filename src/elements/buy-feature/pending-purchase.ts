import type { PurchaseRequest } from '../../contract/proxy-api.js';
import {
  isAmount,
  PENDING_CHANGE_MAX_AGE_MS,
  PendingChanges,
  requestOf,
  type PendingChange,
} from '../shared/pending-change.js';

// The idempotency key of a confirmed purchase waits in sessionStorage, per proxy endpoint and
// feature, until its outcome is known (shared/pending-change.ts): a retry, a second click or a
// reload re-sends the very same request with the same key, so the proxy applies the purchase at
// most once.

export { newIdempotencyKey } from '../shared/pending-change.js';

/** A purchase the user confirmed whose outcome is not known yet. */
export type PendingPurchase = PendingChange<PurchaseRequest>;

/** See PENDING_CHANGE_MAX_AGE_MS: past it, a pending purchase is dropped, never re-sent. */
export const PENDING_PURCHASE_MAX_AGE_MS = PENDING_CHANGE_MAX_AGE_MS;

const purchases = new PendingChanges<PurchaseRequest>(
  'billing-elements:pending-purchase:',
  (stored, feature) =>
    stored.feature === feature &&
    Number.isInteger(stored.increment) &&
    isAmount(stored.confirmedAmountTotal),
);

/** The purchase of `feature` on the proxy at `endpoint` still waiting for its outcome, if any. */
export function readPendingPurchase(
  endpoint: string,
  feature: string,
  now = Date.now(),
): PendingPurchase | undefined {
  return purchases.read(endpoint, feature, now);
}

/** Records a new confirmation with a fresh key, before anything is sent. */
export function createPendingPurchase(
  endpoint: string,
  feature: string,
  increment: number,
  confirmedAmountTotal: number,
  customer?: string,
  confirmedNextTermAmountTotal?: number,
): PendingPurchase {
  const request: Omit<PurchaseRequest, 'idempotencyKey'> = {
    feature,
    increment,
    confirmedAmountTotal,
  };
  if (confirmedNextTermAmountTotal !== undefined)
    request.confirmedNextTermAmountTotal = confirmedNextTermAmountTotal;
  return purchases.create(endpoint, feature, request, customer);
}

/** Forgets a purchase once its outcome is known; a newer confirmation stored since is kept. */
export function settlePendingPurchase(endpoint: string, pending: PendingPurchase): void {
  purchases.settle(endpoint, pending.feature, pending);
}

/** The request body of a pending purchase, exactly as first sent. */
export function purchaseRequestOf(pending: PendingPurchase): PurchaseRequest {
  return requestOf(pending);
}

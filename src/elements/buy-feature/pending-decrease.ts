import type { DecreaseRequest } from '../../contract/proxy-api.js';
import { PendingChanges, type PendingChange } from '../shared/pending-change.js';

// A decrease the customer confirmed waits in sessionStorage, per proxy endpoint and feature,
// until its outcome is known (shared/pending-change.ts), and is sent to the proxy's POST /usage
// with `quantity` (usage-change.ts): a retry, a second click or a reload re-sends the very same
// request with the same key, so the proxy applies it at most once.

/** A decrease the user confirmed whose outcome is not known yet. */
export type PendingDecrease = PendingChange<DecreaseRequest>;

const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;

const decreases = new PendingChanges<DecreaseRequest>(
  'billing-elements:pending-decrease:',
  (stored, feature) =>
    stored.feature === feature &&
    isCount(stored.quantity) &&
    (stored.inUse === undefined || isCount(stored.inUse)) &&
    Number.isInteger(stored.confirmedAmountTotal) &&
    isCount(stored.confirmedNextTermAmountTotal),
);

/** The decrease of `feature` on the proxy at `endpoint` still waiting for its outcome. */
export function readPendingDecrease(
  endpoint: string,
  feature: string,
): PendingDecrease | undefined {
  return decreases.read(endpoint, feature);
}

/** Records a new confirmation with a fresh key, before anything is sent. */
export function createPendingDecrease(
  endpoint: string,
  request: Omit<DecreaseRequest, 'idempotencyKey'>,
  customer?: string,
): PendingDecrease {
  return decreases.create(endpoint, request.feature, request, customer);
}

/** Forgets a decrease once its outcome is known; a newer confirmation stored since is kept. */
export function settlePendingDecrease(endpoint: string, pending: PendingDecrease): void {
  decreases.settle(endpoint, pending.feature, pending);
}

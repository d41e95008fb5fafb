import type { AddOnChangeRequest } from '../../contract/proxy-api.js';
import { isAmount, PendingChanges, type PendingChange } from '../shared/pending-change.js';

// An add-on switch the customer confirmed waits in sessionStorage, per proxy endpoint and
// feature, until its outcome is known (shared/pending-change.ts), and is sent to the proxy's
// POST /usage with `enabled` (usage-change.ts): a retry, a second click or a reload re-sends the
// very same request with the same key, so the proxy applies it at most once.

/** An add-on change the user confirmed whose outcome is not known yet. */
export type PendingAddOnChange = PendingChange<AddOnChangeRequest>;

const addOnChanges = new PendingChanges<AddOnChangeRequest>(
  'billing-elements:pending-add-on:',
  (stored, feature) =>
    stored.feature === feature &&
    typeof stored.enabled === 'boolean' &&
    isAmount(stored.confirmedAmountTotal) &&
    isAmount(stored.confirmedNextTermAmountTotal),
);

/** The add-on change of `feature` on the proxy at `endpoint` still waiting for its outcome. */
export function readPendingAddOnChange(
  endpoint: string,
  feature: string,
): PendingAddOnChange | undefined {
  return addOnChanges.read(endpoint, feature);
}

/** Records a new confirmation with a fresh key, before anything is sent. */
export function createPendingAddOnChange(
  endpoint: string,
  request: Omit<AddOnChangeRequest, 'idempotencyKey'>,
  customer?: string,
): PendingAddOnChange {
  return addOnChanges.create(endpoint, request.feature, request, customer);
}

/** Forgets a change once its outcome is known; a newer confirmation stored since is kept. */
export function settlePendingAddOnChange(endpoint: string, pending: PendingAddOnChange): void {
  addOnChanges.settle(endpoint, pending.feature, pending);
}

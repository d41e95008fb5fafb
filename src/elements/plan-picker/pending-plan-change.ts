import type { PlanChangeRequest } from '../../contract/proxy-api.js';
import {
  isAmount,
  PendingChanges,
  requestOf,
  type PendingChange,
} from '../shared/pending-change.js';

// The idempotency key of a confirmed plan change waits in sessionStorage, per proxy endpoint,
// until its outcome is known, as a purchase's does (shared/pending-change.ts): a retry, a second
// click or a reload re-sends the very same request with the same key, so the proxy changes the
// plan at most once.

/** A plan change the user confirmed whose outcome is not known yet. */
export type PendingPlanChange = PendingChange<PlanChangeRequest>;

/** A customer has one plan: its pending change has no subject of its own. */
const PLAN = '';

const planChanges = new PendingChanges<PlanChangeRequest>(
  'billing-elements:pending-plan:',
  (stored) =>
    typeof stored.offer === 'string' &&
    isAmount(stored.confirmedAmountTotal) &&
    isAmount(stored.confirmedNextTermAmountTotal),
);

/** The plan change on the proxy at `endpoint` still waiting for its outcome, if any. */
export function readPendingPlanChange(
  endpoint: string,
  now = Date.now(),
): PendingPlanChange | undefined {
  return planChanges.read(endpoint, PLAN, now);
}

/** Records a new confirmation with a fresh key, before anything is sent. */
export function createPendingPlanChange(
  endpoint: string,
  request: Omit<PlanChangeRequest, 'idempotencyKey'>,
  customer?: string,
): PendingPlanChange {
  return planChanges.create(endpoint, PLAN, request, customer);
}

/** Forgets a plan change once its outcome is known; a newer confirmation stored since is kept. */
export function settlePendingPlanChange(endpoint: string, pending: PendingPlanChange): void {
  planChanges.settle(endpoint, PLAN, pending);
}

/** The request body of a pending plan change, exactly as first sent. */
export function planChangeRequestOf(pending: PendingPlanChange): PlanChangeRequest {
  return requestOf(pending);
}

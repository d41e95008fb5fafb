import type { SubscriptionStatusResponse } from 'billing-elements';

// The state of the subscription a sample customer's note describes ("Unpaid invoices reached
// the limit and the subscription is suspended."), in a few words: its status, plan, the cause
// of a suspension, and whether overdue invoices reach the limit. The note is true while the
// live state has the same words; once the customer changes it (subscribes, pays, restarts, in
// this tab or another), the note would tell a past state, and the page hides it.

export type ScenarioState = Pick<
  SubscriptionStatusResponse,
  'status' | 'offer' | 'suspensionReason' | 'paymentCappingReached'
>;

/** The few words of `state` a note is compared on, as `status/offer/reason/capping`. */
export function scenarioState(state: ScenarioState): string {
  return [
    state.status,
    state.offer,
    state.suspensionReason,
    state.paymentCappingReached ? 'capping' : null,
  ]
    .filter((word) => word !== null && word !== '')
    .join('/');
}

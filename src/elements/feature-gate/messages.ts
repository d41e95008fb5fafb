import type { TextTable, TextsOf } from '../../client/i18n.js';

// The texts only <feature-gate> shows, in English (its default fallback prompt); messages.fr.ts
// holds their French.
declare module '../../client/i18n.js' {
  interface BillingMessages extends TextsOf<typeof gateTexts> {}
}

/** The built-in texts of <feature-gate>: registered when its class is defined. */
export const gateTexts = {
  // The meters' wording: the feature's name, a colon, what stands ("Seats: not
  // included in your plan."), never a sentence whose verb must agree with the name.
  'gate.locked': '{label}: not included in your plan.',
  'gate.pending': '{label}: starts once your subscription is complete.',
  'gate.upgrade': 'See plans',
  // A suspended subscription gives no rights: the feature is the plan's, paused, not missing.
  'gate.suspended': '{label}: paused while your subscription is suspended.',
  // Suspended because the payment method no longer works: the cause, whose remedy (a new
  // payment method) comes before the restart.
  'gate.suspended.payment-method':
    '{label}: paused. Your subscription is suspended: your payment method no longer works.',
  // No plan at all: an invitation, not a refusal of a plan the customer does not have.
  'gate.none': '{label}: choose a plan to get started.',
  'gate.none.brief': '{label}: no plan yet.',
  'gate.unknown': 'We could not check your plan for {label}.',
  'gate.session-changed': '{label}: unavailable since another account signed in.',
} as const satisfies TextTable;

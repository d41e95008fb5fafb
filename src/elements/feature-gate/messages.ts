import type { BuiltInTexts } from '../../client/i18n.js';

// The texts only <feature-gate> shows: its default fallback prompt.
declare module '../../client/i18n.js' {
  interface BillingMessages {
    'gate.locked': string;
    'gate.locked.suggest': string;
    'gate.pending': string;
    'gate.upgrade': string;
    'gate.unknown': string;
    'gate.suspended': string;
    'gate.suspended.payment-method': string;
    'gate.none': string;
  }
}

/** The built-in texts of <feature-gate>, `[English, French]`. */
export const gateTexts: BuiltInTexts<
  | 'gate.locked'
  | 'gate.locked.suggest'
  | 'gate.pending'
  | 'gate.upgrade'
  | 'gate.unknown'
  | 'gate.suspended'
  | 'gate.suspended.payment-method'
  | 'gate.none'
> = {
  // The meters' wording: the feature's name, a colon, what stands ("Seats: not
  // included in your plan."), never a sentence whose verb must agree with the name.
  'gate.locked': [
    '{label}: not included in your plan.',
    '{label}\u00a0: non inclus dans votre offre.',
  ],
  // With the least expensive plan that includes it ({plan}: "Pro").
  'gate.locked.suggest': [
    '{label}: not included in your plan; {plan} includes it.',
    '{label}\u00a0: non inclus dans votre offre\u202f; l’offre {plan} l’inclut.',
  ],
  'gate.pending': [
    '{label}: starts when checkout is complete.',
    '{label}\u00a0: commence une fois l’abonnement finalisé.',
  ],
  'gate.upgrade': ['See plans', 'Voir les offres'],
  // A suspended subscription gives no rights: the feature is the plan's, paused, not missing.
  'gate.suspended': [
    '{label}: paused while your subscription is suspended.',
    '{label}\u00a0: en pause tant que votre abonnement est suspendu.',
  ],
  // Suspended because the payment method no longer works: the cause, whose remedy (a new
  // payment method) comes before the restart.
  'gate.suspended.payment-method': [
    '{label}: paused. Your subscription is suspended: your payment method no longer works.',
    '{label}\u00a0: en pause. Votre abonnement est suspendu\u00a0: votre moyen de paiement ne fonctionne plus.',
  ],
  // No plan at all: an invitation, not a refusal of a plan the customer does not have.
  'gate.none': [
    '{label}: choose a plan to get started.',
    '{label}\u00a0: choisissez une offre pour commencer.',
  ],
  'gate.unknown': [
    'We could not check your plan for {label}.',
    'Impossible de vérifier votre offre pour {label}.',
  ],
};

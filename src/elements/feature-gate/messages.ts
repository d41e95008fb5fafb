import type { BuiltInTexts } from '../../client/i18n.js';

// The texts only <feature-gate> shows: its default fallback prompt.
declare module '../../client/i18n.js' {
  interface BillingMessages {
    'gate.locked': string;
    'gate.pending': string;
    'gate.upgrade': string;
    'gate.unknown': string;
  }
}

/** The built-in texts of <feature-gate>, `[English, French]`. */
export const gateTexts: BuiltInTexts<
  'gate.locked' | 'gate.pending' | 'gate.upgrade' | 'gate.unknown'
> = {
  // The meters' wording (issue 12): the feature's name, a colon, what stands ("Seats: not
  // included in your plan."), never a sentence whose verb must agree with the name.
  'gate.locked': ['{label}: not included in your plan.', '{label} : non inclus dans votre offre.'],
  'gate.pending': [
    '{label}: starts when checkout is complete.',
    '{label} : commence une fois la souscription finalisée.',
  ],
  'gate.upgrade': ['See plans', 'Voir les offres'],
  'gate.unknown': [
    'We could not check your plan for {label}.',
    'Impossible de vérifier votre offre pour {label}.',
  ],
};

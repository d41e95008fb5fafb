import type { BuiltInTexts } from '../../client/i18n.js';

// The texts only <feature-gate> shows: its default fallback prompt.
declare module '../../client/i18n.js' {
  interface BillingMessages {
    'gate.locked': string;
    'gate.upgrade': string;
    'gate.unknown': string;
  }
}

/** The built-in texts of <feature-gate>, `[English, French]`. */
export const gateTexts: BuiltInTexts<'gate.locked' | 'gate.upgrade' | 'gate.unknown'> = {
  'gate.locked': [
    '{label} is not part of your plan.',
    '{label} ne fait pas partie de votre offre.',
  ],
  'gate.upgrade': ['See plans', 'Voir les offres'],
  'gate.unknown': [
    'We could not check your plan for {label}.',
    'Impossible de vérifier votre offre pour {label}.',
  ],
};

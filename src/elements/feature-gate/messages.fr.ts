import type { Translation } from '../../client/i18n.js';
import type { gateTexts } from './messages.js';

// The French of <feature-gate>'s texts, loaded when a page first shows one of them in French
// (messages.ts holds the English and says what each text is for).
export default {
  'gate.locked': '{label}\u00a0: non inclus dans votre offre.',
  'gate.pending': '{label}\u00a0: commence une fois l’abonnement finalisé.',
  'gate.upgrade': 'Voir les offres',
  'gate.suspended': '{label}\u00a0: en pause tant que votre abonnement est suspendu.',
  'gate.suspended.payment-method':
    '{label}\u00a0: en pause. Votre abonnement est suspendu\u00a0: votre moyen de paiement ne fonctionne plus.',
  'gate.none': '{label}\u00a0: choisissez une offre pour commencer.',
  'gate.none.brief': '{label}\u00a0: pas encore d’offre.',
  'gate.unknown': 'Impossible de vérifier votre offre pour {label}.',
  'gate.session-changed': '{label}\u00a0: indisponible depuis la connexion d’un autre compte.',
} satisfies Translation<typeof gateTexts>;

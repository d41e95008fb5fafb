import type { Translation } from '../../client/i18n.js';
import type { portalTexts } from './messages.js';

// The French of <billing-portal>'s texts, loaded when a page first shows one of them in French
// (messages.ts holds the English and says what each text is for).
export default {
  'portal.title.subscribe': 'Finaliser votre abonnement',
  'portal.title.register': 'Ajouter un moyen de paiement',
  'portal.title.restart': 'Réactiver votre abonnement',
  'portal.title.pay-invoice': 'Payer les factures en retard',
  'portal.done': 'Terminé',
  'portal.refused.unknown-page': 'Cette page du portail de facturation n’existe pas.',
  'portal.refused.not-found': 'Cette offre ou cette facture est introuvable.',
  'portal.unavailable': 'Ce n’est pas disponible pour votre compte en ce moment.',
  'portal.unavailable.subscribe': 'Choisissez l’offre à laquelle vous abonner.',
  'portal.unavailable.change-plan': 'Vous pourrez changer d’offre une fois votre abonnement actif.',
  'portal.unavailable.restart':
    'Votre abonnement n’est pas suspendu\u00a0: il n’y a rien à réactiver.',
  'portal.unavailable.pay-invoice': 'Vous n’avez aucune facture à payer.',
} satisfies Translation<typeof portalTexts>;

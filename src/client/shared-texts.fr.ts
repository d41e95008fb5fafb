import type { Translation } from './i18n.js';
import type { sharedTexts } from './shared-texts.js';

// The French of the shared texts, loaded when a page first shows one of them in French
// (shared-texts.ts holds the English and says what each text is for).
export default {
  loading: 'Chargement…',
  retry: 'Réessayer',
  close: 'Fermer',
  'error.generic': 'Un problème est survenu. Veuillez réessayer.',
  'error.network': 'La facturation est injoignable. Vérifiez votre connexion et réessayez.',
  'error.upstream-unavailable':
    'La facturation est momentanément indisponible. Veuillez réessayer dans un instant.',
  'error.timeout': 'La facturation met trop de temps à répondre. Veuillez réessayer.',
  'error.unauthenticated': 'Votre session a expiré. Reconnectez-vous pour voir votre offre.',
  'error.rate-limited': 'Trop de demandes. Patientez un instant puis réessayez.',
  'error.session-changed':
    'Un autre compte s’est connecté depuis l’ouverture de cette page. Rechargez la page pour voir sa facturation.',
  'error.no-subscription': 'Pas encore d’offre\u00a0: choisissez-en une d’abord.',
  'error.subscription-suspended': 'Votre abonnement est suspendu. Réactivez-le pour continuer.',
  'error.payment-method-invalid':
    'Votre abonnement est suspendu\u00a0: votre moyen de paiement ne fonctionne plus. Mettez-le à jour, puis réactivez votre abonnement.',
  'error.price-changed': 'Le prix a changé. Vérifiez le nouveau prix.',
  'error.forbidden-origin': 'La facturation n’est pas disponible sur cette page.',
  'error.period-ending': 'Votre période de facturation se termine. Vérifiez à nouveau le prix.',
  'error.Error.Api.Usage.NoneMatching': 'Non inclus dans votre offre.',
  'error.not-in-plan.suggest': 'Non inclus dans votre offre\u202f; inclus dans l’offre {plan}.',
  'error.Error.Customer.PaymentSettings.Missing':
    'Ajoutez un moyen de paiement pour effectuer ce changement.',
  'error.Error.Customer.Billing.CappingReached':
    'Des factures sont en retard. Payez-les pour continuer.',
  'error.Error.Subscription.NotActive':
    'Votre abonnement est suspendu. Réactivez-le pour continuer.',
  'remedy.change-plan': 'Changer d’offre',
  'per.Day': '{price}\u00a0/\u00a0jour',
  'per.Week': '{price}\u00a0/\u00a0semaine',
  'per.Month': '{price}\u00a0/\u00a0mois',
  'per.Year': '{price}\u00a0/\u00a0an',
  'per.every': '{price} tous les {period}',
  'state.not-in-plan.suggest':
    '{label}\u00a0: non inclus dans votre offre\u202f; inclus dans l’offre {plan}.',
  'remedy.change-plan.to': 'Passer à {plan}',
  'remedy.register': 'Ajouter un moyen de paiement',
  'remedy.register.update': 'Mettre à jour le moyen de paiement',
  'remedy.pay-invoice': 'Payer les factures en retard',
  'remedy.restart': 'Réactiver l’abonnement',
  'remedy.offers': 'Voir les offres',
  'remedy.reload': 'Recharger la page',
  'cta.pointer': 'Voir la marche à suivre',
  'portal.title': 'Portail de facturation',
  'portal.loading': 'Ouverture du portail de facturation…',
  'portal.error': 'Le portail de facturation n’a pas pu être chargé.',
  'portal.unsafe': 'Cette adresse de facturation n’est pas autorisée ici.',
  'portal.link.home': 'Gérer la facturation',
  'portal.link.offers': 'Voir les offres',
  'portal.link.subscribe': 'S’abonner',
  'portal.link.register': 'Mettre à jour le moyen de paiement',
  'portal.link.change-plan': 'Changer d’offre',
  'portal.link.restart': 'Réactiver l’abonnement',
  'portal.link.pay-invoice': 'Payer la facture',
  'state.no-subscription': 'Choisissez une offre pour commencer.',
  'state.signed-out': 'Connectez-vous pour voir votre offre.',
  'state.sign-in': 'Se connecter',
  'state.unavailable': 'La facturation n’est pas disponible sur cette page.',
  'state.pending': 'Commence une fois l’abonnement finalisé',
  'error.subscription-pending': 'Votre abonnement démarre une fois finalisé.',
  'remedy.subscribe': 'Finaliser votre abonnement',
  'error.already-subscribed': 'Vous avez déjà un abonnement. Changez plutôt d’offre.',
} satisfies Translation<typeof sharedTexts>;

import { registerTexts, type BuiltInTexts, type CoreMessages } from './i18n.js';

// The built-in wording of the texts several elements share: errors, remedies, the portal and
// the states around a meter's figures. Each element that shows them registers them when its
// class is defined; a meter shows them only in its rare states (usage-meter/notices.ts), so a
// page of meters with figures does not download them.

const SHARED_TEXTS = {
  loading: ['Loading…', 'Chargement…'],
  retry: ['Try again', 'Réessayer'],
  close: ['Close', 'Fermer'],
  'error.generic': [
    'Something went wrong. Please try again.',
    'Un problème est survenu. Veuillez réessayer.',
  ],
  'error.network': [
    'Billing could not be reached. Check your connection and try again.',
    'La facturation est injoignable. Vérifiez votre connexion et réessayez.',
  ],
  'error.upstream-unavailable': [
    'Billing is unavailable right now. Please try again in a moment.',
    'La facturation est momentanément indisponible. Veuillez réessayer dans un instant.',
  ],
  'error.timeout': [
    'Billing took too long to answer. Please try again.',
    'La facturation met trop de temps à répondre. Veuillez réessayer.',
  ],
  'error.unauthenticated': [
    'Your session has ended. Sign in again to see your plan.',
    'Votre session a expiré. Reconnectez-vous pour voir votre offre.',
  ],
  'error.rate-limited': [
    'Too many requests. Wait a moment and try again.',
    'Trop de demandes. Patientez un instant puis réessayez.',
  ],
  'error.no-subscription': [
    'You do not have a subscription yet.',
    'Vous n’avez pas encore d’abonnement.',
  ],
  'error.subscription-suspended': [
    'Your subscription is suspended. Restart it to continue.',
    'Votre abonnement est suspendu. Réactivez-le pour continuer.',
  ],
  // A suspension for a payment method that no longer works: a restart would be refused until a
  // valid one is added (its remedy is `register`), and nothing restarts by itself after that.
  'error.payment-method-invalid': [
    'Your subscription is suspended: your payment method no longer works. Add a valid one, then restart it.',
    'Votre abonnement est suspendu\u00a0: votre moyen de paiement ne fonctionne plus. Ajoutez-en un valide, puis réactivez-le.',
  ],
  'error.price-changed': [
    'The price has changed. Please check the new price.',
    'Le prix a changé. Vérifiez le nouveau prix.',
  ],
  'error.forbidden-origin': [
    'Billing is unavailable on this page.',
    'La facturation n’est pas disponible sur cette page.',
  ],
  'error.period-ending': [
    'Your billing period is ending. Please check the price again.',
    'Votre période de facturation se termine. Vérifiez à nouveau le prix.',
  ],
  'error.Error.Api.Usage.NoneMatching': [
    'Your plan does not include this feature.',
    'Votre offre ne comprend pas cette fonctionnalité.',
  ],
  // The same, with the least expensive plan that includes it ({plan}: "Pro").
  'error.not-in-plan.suggest': [
    'Your plan does not include this feature; {plan} includes it.',
    'Votre offre ne comprend pas cette fonctionnalité\u202f; l’offre {plan} l’inclut.',
  ],
  'error.Error.Customer.PaymentSettings.Missing': [
    'Add a payment method to make this change.',
    'Ajoutez un moyen de paiement pour effectuer ce changement.',
  ],
  'error.Error.Customer.Billing.CappingReached': [
    'Some invoices are overdue. Pay them to continue.',
    'Des factures sont en retard. Payez-les pour continuer.',
  ],
  'error.Error.Subscription.NotActive': [
    'Your subscription is suspended. Restart it to continue.',
    'Votre abonnement est suspendu. Réactivez-le pour continuer.',
  ],
  'remedy.change-plan': ['Change plan', 'Changer d’offre'],
  // The change-plan remedy when one plan is suggested ({plan}: "Pro").
  'remedy.change-plan.to': ['Switch to {plan}', 'Passer à {plan}'],
  'remedy.register': ['Add a payment method', 'Ajouter un moyen de paiement'],
  'remedy.pay-invoice': ['Pay overdue invoices', 'Payer les factures en retard'],
  'remedy.restart': ['Restart subscription', 'Réactiver l’abonnement'],
  'remedy.offers': ['See plans', 'Voir les offres'],
  // Beside a state whose remedy another element of the page offers: brings that one into view.
  'cta.pointer': ['See what to do', 'Voir la marche à suivre'],
  'portal.title': ['Billing portal', 'Portail de facturation'],
  'portal.loading': ['Opening the billing portal…', 'Ouverture du portail de facturation…'],
  'portal.error': [
    'The billing portal could not be loaded.',
    'Le portail de facturation n’a pas pu être chargé.',
  ],
  'portal.unsafe': [
    'This billing address is not allowed here.',
    'Cette adresse de facturation n’est pas autorisée ici.',
  ],
  'portal.link.home': ['Manage billing', 'Gérer la facturation'],
  'portal.link.offers': ['See plans', 'Voir les offres'],
  'portal.link.subscribe': ['Subscribe', 'S’abonner'],
  'portal.link.register': ['Update payment method', 'Mettre à jour le moyen de paiement'],
  'portal.link.change-plan': ['Change plan', 'Changer d’offre'],
  'portal.link.restart': ['Restart subscription', 'Réactiver l’abonnement'],
  'portal.link.pay-invoice': ['Pay invoice', 'Payer la facture'],
  'state.no-subscription': [
    'Choose a plan to get started.',
    'Choisissez une offre pour commencer.',
  ],
  'state.signed-out': ['Sign in to see your plan.', 'Connectez-vous pour voir votre offre.'],
  'state.sign-in': ['Sign in', 'Se connecter'],
  'state.unavailable': [
    'Billing is unavailable on this page.',
    'La facturation n’est pas disponible sur cette page.',
  ],
  'state.pending': ['Starts when checkout is complete', 'Commence une fois l’abonnement finalisé'],
  // A subscription created but whose checkout is not complete (the client tells it from a
  // suspension: see <buy-feature>'s refusal.ts).
  'error.subscription-pending': [
    'Your subscription starts when its checkout is complete.',
    'Votre abonnement démarre une fois finalisé.',
  ],
  'remedy.subscribe': ['Complete your subscription', 'Finaliser votre abonnement'],
  // A subscribe asked while a subscription runs (from a page that had not seen it start): the
  // plan is changed instead, never a second subscription.
  'error.already-subscribed': [
    'You already have a subscription. Change its plan instead.',
    'Vous avez déjà un abonnement. Changez plutôt d’offre.',
  ],
} satisfies BuiltInTexts<keyof CoreMessages>;

let registered = false;

/** Registers the shared texts, once: later registrations and page overrides keep winning. */
export function registerSharedTexts(): void {
  if (registered) return;
  registered = true;
  registerTexts(SHARED_TEXTS);
}

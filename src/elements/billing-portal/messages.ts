import type { BillingMessages, BuiltInTexts } from '../../client/i18n.js';

// The texts only <billing-portal> shows: the modal's title for each task, its Done, and a
// sentence for each reason a page cannot be opened. Shared wording (loading, errors, retry,
// link texts) is the client's.
declare module '../../client/i18n.js' {
  interface BillingMessages {
    'portal.title.subscribe': string;
    'portal.title.register': string;
    'portal.title.restart': string;
    'portal.title.pay-invoice': string;
    'portal.done': string;
    'portal.refused.unknown-page': string;
    'portal.refused.not-found': string;
    'portal.unavailable': string;
    'portal.unavailable.subscribe': string;
    'portal.unavailable.change-plan': string;
    'portal.unavailable.restart': string;
    'portal.unavailable.pay-invoice': string;
  }
}

type PortalMessageKey = Extract<
  keyof BillingMessages,
  `portal.${'title.' | 'done' | 'refused.' | 'unavailable'}${string}`
>;

/** The built-in texts of <billing-portal>, `[English, French]`: registered with its class. */
export const portalTexts: BuiltInTexts<PortalMessageKey> = {
  // The modal portal's title names the task it was opened for (French: the infinitive, as the
  // hosted pages' headings); the pages not named here take their link's text ("Manage billing", "See plans").
  'portal.title.subscribe': ['Complete your subscription', 'Finaliser votre abonnement'],
  'portal.title.register': ['Add a payment method', 'Ajouter un moyen de paiement'],
  'portal.title.restart': ['Restart your subscription', 'Réactiver votre abonnement'],
  'portal.title.pay-invoice': ['Pay overdue invoices', 'Payer les factures en retard'],
  'portal.done': ['Done', 'Terminé'],
  // A page the proxy does not know: the page's setup (the console says which).
  'portal.refused.unknown-page': [
    'This page of the billing portal does not exist.',
    'Cette page du portail de facturation n’existe pas.',
  ],
  'portal.refused.not-found': [
    'This plan or invoice could not be found.',
    'Cette offre ou cette facture est introuvable.',
  ],
  // A page that does not apply to the customer's subscription as it is now.
  'portal.unavailable': [
    'This is not available for your account right now.',
    'Ce n’est pas disponible pour votre compte en ce moment.',
  ],
  'portal.unavailable.subscribe': [
    'Choose a plan to subscribe to.',
    'Choisissez l’offre à laquelle vous abonner.',
  ],
  'portal.unavailable.change-plan': [
    'You can change plan once your subscription is active.',
    'Vous pourrez changer d’offre une fois votre abonnement actif.',
  ],
  'portal.unavailable.restart': [
    'Your subscription is not suspended: there is nothing to restart.',
    'Votre abonnement n’est pas suspendu\u00a0: il n’y a rien à réactiver.',
  ],
  'portal.unavailable.pay-invoice': [
    'You have no invoice to pay.',
    'Vous n’avez aucune facture à payer.',
  ],
};

import type { TextTable, TextsOf } from '../../client/i18n.js';

// The texts only <billing-portal> shows, in English: the modal's title for each task, its Done,
// and a sentence for each reason a page cannot be opened; messages.fr.ts holds their French.
// Shared wording (loading, errors, retry, link texts) is the client's.
declare module '../../client/i18n.js' {
  interface BillingMessages extends TextsOf<typeof portalTexts> {}
}

/** The built-in texts of <billing-portal>: registered with its class. */
export const portalTexts = {
  // The modal portal's title names the task it was opened for (French: the infinitive, as the
  // hosted pages' headings); the pages not named here take their link's text ("Manage billing", "See plans").
  'portal.title.subscribe': 'Complete your subscription',
  'portal.title.register': 'Add a payment method',
  'portal.title.restart': 'Restart your subscription',
  'portal.title.pay-invoice': 'Pay overdue invoices',
  'portal.done': 'Done',
  // A page the proxy does not know: the page's setup (the console says which).
  'portal.refused.unknown-page': 'This page of the billing portal does not exist.',
  'portal.refused.not-found': 'This plan or invoice could not be found.',
  // A page that does not apply to the customer's subscription as it is now.
  'portal.unavailable': 'This is not available for your account right now.',
  'portal.unavailable.subscribe': 'Choose a plan to subscribe to.',
  'portal.unavailable.change-plan': 'You can change plan once your subscription is active.',
  'portal.unavailable.restart': 'Your subscription is not suspended: there is nothing to restart.',
  'portal.unavailable.pay-invoice': 'You have no invoice to pay.',
} as const satisfies TextTable;

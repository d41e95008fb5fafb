import type { BillingMessages, BuiltInTexts } from '../../client/i18n.js';

// The texts only <billing-history> shows: the table's caption and headers, the invoice states in
// words, the actions named after the invoice they act on, and its own empty, signed-out,
// failure and suspension sentences. Loading, retry and error texts are the client's.
declare module '../../client/i18n.js' {
  interface BillingMessages {
    'history.caption': string;
    'history.column.date': string;
    'history.column.number': string;
    'history.column.amount': string;
    'history.column.status': string;
    'history.column.actions': string;
    'history.status.paid': string;
    'history.status.due': string;
    'history.status.overdue': string;
    'history.status.credit-note': string;
    'history.status.cancelled': string;
    'history.status.other': string;
    'history.when.paid': string;
    'history.when.due': string;
    'history.when.overdue': string;
    'history.tax': string;
    'history.pay': string;
    'history.pay.label': string;
    'history.view': string;
    'history.view.label': string;
    'history.view.credit-note.label': string;
    'history.more.one': string;
    'history.more.other': string;
    'history.shown': string;
    'history.empty': string;
    'history.signed-out': string;
    'history.error': string;
    'history.suspended': string;
    'history.paid-now': string;
  }
}

type HistoryMessageKey = Extract<keyof BillingMessages, `history.${string}`>;

/** The built-in texts of <billing-history>, `[English, French]`: registered with its class. */
export const historyTexts: BuiltInTexts<HistoryMessageKey> = {
  'history.caption': ['Invoices', 'Factures'],
  'history.column.date': ['Date', 'Date'],
  'history.column.number': ['Number', 'Numéro'],
  'history.column.amount': ['Amount', 'Montant'],
  'history.column.status': ['Status', 'État'],
  'history.column.actions': ['Actions', 'Actions'],
  'history.status.paid': ['Paid', 'Payée'],
  'history.status.due': ['Due', 'À payer'],
  'history.status.overdue': ['Overdue', 'En retard'],
  'history.status.credit-note': ['Credit note', 'Avoir'],
  'history.status.cancelled': ['Cancelled', 'Annulée'],
  // A state the service added after this version: it is not to pay here.
  'history.status.other': ['Processing', 'En cours de traitement'],
  // Beside the state: when it was paid, by when to pay, since when it is late.
  'history.when.paid': ['on {date}', 'le {date}'],
  'history.when.due': ['by {date}', 'avant le {date}'],
  'history.when.overdue': ['since {date}', 'depuis le {date}'],
  // Under an amount that includes tax, as the service gives it (total and subtotal).
  'history.tax': ['incl. {tax} tax', 'dont {tax} de taxes'],
  'history.pay': ['Pay {amount}', 'Payer {amount}'],
  // The visible text first, as the name starts (a voice command says what it sees).
  'history.pay.label': [
    'Pay {amount} for invoice {number}',
    'Payer {amount} pour la facture {number}',
  ],
  'history.view': ['View', 'Voir'],
  'history.view.label': [
    'View invoice {number} (opens in a new tab)',
    'Voir la facture {number} (nouvel onglet)',
  ],
  'history.view.credit-note.label': [
    'View credit note {number} (opens in a new tab)',
    'Voir l’avoir {number} (nouvel onglet)',
  ],
  'history.more.one': ['Show 1 more invoice', 'Afficher 1 facture de plus'],
  'history.more.other': ['Show {count} more invoices', 'Afficher {count} factures de plus'],
  'history.shown': ['{shown} of {total} invoices shown', '{shown} factures sur {total} affichées'],
  'history.empty': [
    'No invoices yet. Each invoice appears here once it is issued.',
    'Aucune facture pour le moment. Chaque facture apparaîtra ici dès son émission.',
  ],
  'history.signed-out': ['Sign in to see your invoices.', 'Connectez-vous pour voir vos factures.'],
  'history.error': [
    'Your invoices could not be loaded.',
    'Vos factures n’ont pas pu être chargées.',
  ],
  'history.suspended': [
    'Your subscription is suspended because invoices are overdue: pay them, then restart it.',
    'Votre abonnement est suspendu car des factures sont en retard\u00a0: payez-les, puis réactivez-le.',
  ],
  'history.paid-now': ['Invoice {number} is paid.', 'La facture {number} est payée.'],
};

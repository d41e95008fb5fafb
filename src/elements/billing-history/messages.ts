import type { TextTable, TextsOf } from '../../client/i18n.js';

// The texts only <billing-history> shows, in English: the table's caption and headers, the
// invoice states in words, the actions named after the invoice they act on, and its own empty,
// signed-out, failure and suspension sentences; messages.fr.ts holds their French. Loading,
// retry and error texts are the client's.
declare module '../../client/i18n.js' {
  interface BillingMessages extends TextsOf<typeof historyTexts> {}
}

/** The built-in texts of <billing-history>: registered when its class is defined. */
export const historyTexts = {
  'history.caption': 'Invoices',
  'history.column.date': 'Date',
  'history.column.number': 'Number',
  'history.column.amount': 'Amount',
  'history.column.status': 'Status',
  'history.column.actions': 'Actions',
  'history.status.paid': 'Paid',
  'history.status.due': 'Due',
  'history.status.overdue': 'Overdue',
  'history.status.credit-note': 'Credit note',
  'history.status.cancelled': 'Cancelled',
  // A state the service added after this version: it is not to pay here.
  'history.status.other': 'Processing',
  // Beside the state: when it was paid, by when to pay, since when it is late.
  'history.when.paid': 'on {date}',
  'history.when.due': 'by {date}',
  'history.when.overdue': 'since {date}',
  // Under an amount that includes tax, as the service gives it (total and subtotal).
  // A no-break space keeps the figure with its word: "tax" never wraps alone.
  'history.tax': 'incl. {tax}\u00a0tax',
  'history.pay': 'Pay {amount}',
  // The visible text first, as the name starts (a voice command says what it sees).
  'history.pay.label': 'Pay {amount} for invoice {number}',
  'history.view': 'View',
  'history.view.label': 'View invoice {number} (opens in a new tab)',
  'history.view.credit-note.label': 'View credit note {number} (opens in a new tab)',
  'history.more.one': 'Show 1 more invoice',
  'history.more.other': 'Show {count} more invoices',
  'history.shown': '{shown} of {total} invoices shown',
  'history.shown.one': '1 invoice',
  'history.empty': 'No invoices yet. Each invoice appears here once it is issued.',
  'history.signed-out': 'Sign in to see your invoices.',
  'history.error': 'Your invoices could not be loaded.',
  'history.suspended':
    'Your subscription is suspended because invoices are overdue: pay them, then restart it.',
  'history.suspended-restartable':
    'Your subscription is suspended. You can restart it now; what is still overdue is listed below.',
  'history.paid-now': 'Invoice {number} is paid.',
} as const satisfies TextTable;

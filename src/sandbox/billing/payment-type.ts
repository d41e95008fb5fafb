import type { CustomerRecord, PaymentType } from '../state/types.js';

// How a customer pays, and what it changes in billing:
// - `Card` (the default): the card saved through the hosted pages (the payment gateway). With a
//   valid card, each invoice is charged as it is issued; without one, it stays due until the
//   customer pays it, and a billable change is refused (Error.Customer.PaymentSettings.Missing).
//   A card that becomes invalid suspends the subscriptions.
// - A manual type (`ExternalBank`, `ExternalCash`, `ExternalCheck`, `ExternalOther`), set by the
//   business through POST /v1/CustomerSettingsPayment: the customer pays each invoice by
//   transfer, cash or cheque. The service never charges a card for them: invoices stay due until
//   paid (the hosted charge page, or the business recording the payment), and overdue ones count
//   towards the capping. A billable change is accepted, since the customer pays by invoice; the
//   state of a card on file no longer matters (an invalid card suspends nothing).
// Saving a new card through a hosted page makes the card the way the customer pays again.

/** The types a business sets through the API; Card and DirectDebit belong to the payment gateway. */
export const MANUAL_PAYMENT_TYPES = [
  'ExternalBank',
  'ExternalCash',
  'ExternalCheck',
  'ExternalOther',
] as const;

/** A customer's payment type (stored records older than it have none: the card). */
export function paymentTypeOf(customer: CustomerRecord): PaymentType {
  return customer.typePayment ?? 'Card';
}

/** True when the customer pays by invoice (transfer, cash, cheque…) rather than by card. */
export function paysManually(customer: CustomerRecord): boolean {
  return paymentTypeOf(customer) !== 'Card';
}

/** True when a billable change can be made: the customer pays manually or has a valid card. */
export function isBillable(customer: CustomerRecord): boolean {
  return paysManually(customer) || customer.paymentMethod === 'valid';
}

/** True when the service charges each invoice as it is issued (a valid card, paid by card). */
export function chargesAutomatically(customer: CustomerRecord): boolean {
  return !paysManually(customer) && customer.paymentMethod === 'valid';
}

/** True when an invalid card suspends the customer's subscriptions (they pay by card). */
export function cardMatters(customer: CustomerRecord): boolean {
  return !paysManually(customer);
}

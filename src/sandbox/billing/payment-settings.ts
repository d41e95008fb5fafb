import { addMonthsUtc, iso } from '../clock.js';
import { invalid, notFound } from '../http/errors.js';
import type { Store } from '../state/store.js';
import type { CustomerRecord, PaymentType, SubscriptionRecord } from '../state/types.js';
import { MANUAL_PAYMENT_TYPES, paymentTypeOf } from './payment-type.js';
import { isLive } from './rules.js';

// The payment settings of a customer (GET and POST /v1/CustomerSettingsPayment): the payment
// type (see payment-type.ts), the grey list, the invoice note and the next billing date.

/** The subscriptions that are billed on their period end: started (running or suspended), not custom. */
function billedSubscriptions(store: Store, customer: CustomerRecord): SubscriptionRecord[] {
  return store.subscriptionsOf(customer.id).filter((s) => !s.custom && isLive(s));
}

/** The customer's next billing: the earliest period end of their billed subscriptions, or null. */
export function nextBillingOf(store: Store, customer: CustomerRecord): string | null {
  const ends = billedSubscriptions(store, customer).map((s) => Date.parse(s.periodEnd));
  return ends.length === 0 ? null : iso(Math.min(...ends));
}

/** Why the API does not set a type of the payment gateway. */
export function gatewayTypeMessage(type: string): string {
  return `TypePayment ${type} is set by the customer through the payment gateway (the hosted register page), not through the API: give one of ${MANUAL_PAYMENT_TYPES.join(', ')}`;
}

export interface PaymentSettingsInput {
  /** 'Card' only as the customer's current type (a client writing back what it read). */
  typePayment?: PaymentType | undefined;
  greyListed?: boolean | undefined;
  /** '' clears the note. */
  noteInvoice?: string | undefined;
  /** Milliseconds of the new next billing date. */
  nextBillingMs?: number | undefined;
}

/**
 * Changes the settings given and leaves the others (a partial update). Moving the next billing
 * date moves the end of the current period of every billed subscription to it: the renewal, its
 * invoice and the consumption reset happen then (a later date lengthens the period at no charge,
 * an earlier one shortens it). The date must lie after the clock and within a year of it.
 * Everything is checked before anything changes.
 */
export function updatePaymentSettings(
  store: Store,
  customer: CustomerRecord,
  input: PaymentSettingsInput,
): void {
  const nowMs = store.clock.nowMs();
  if (input.typePayment === 'Card' && paymentTypeOf(customer) !== 'Card') {
    throw invalid(gatewayTypeMessage('Card'), 'TypePayment');
  }
  let moved: SubscriptionRecord[] = [];
  if (input.nextBillingMs !== undefined) {
    const target = input.nextBillingMs;
    const billed = billedSubscriptions(store, customer);
    moved = billed.filter((s) => Date.parse(s.periodEnd) !== target);
    if (billed.length === 0) {
      throw notFound(
        'Error.Subscription.NotFound',
        `Customer '${customer.reference}' has no started subscription to bill.`,
        'DateNextBilling',
      );
    }
    if (moved.length > 0 && target <= nowMs) {
      throw invalid(
        `DateNextBilling must be later than the service's clock (${iso(nowMs)})`,
        'DateNextBilling',
      );
    }
    if (moved.length > 0 && target > addMonthsUtc(nowMs, 12)) {
      throw invalid('DateNextBilling must be within a year of today', 'DateNextBilling');
    }
  }

  const typeBefore = customer.typePayment;
  const othersBefore = JSON.stringify([customer.greyListed, customer.noteInvoice]);
  if (input.typePayment !== undefined && input.typePayment !== paymentTypeOf(customer)) {
    customer.typePayment = input.typePayment;
  }
  if (input.greyListed !== undefined) customer.greyListed = input.greyListed;
  if (input.noteInvoice !== undefined) customer.noteInvoice = input.noteInvoice || null;
  const typeChanged = customer.typePayment !== typeBefore;
  const othersChanged =
    JSON.stringify([customer.greyListed, customer.noteInvoice]) !== othersBefore;

  for (const sub of moved) {
    sub.periodEnd = iso(input.nextBillingMs as number);
    sub.dateUpdate = iso(nowMs);
  }
  if (!typeChanged && !othersChanged && moved.length === 0) return;
  store.invalidateEvents();
  store.changed();
  // How the customer pays is their payment method; the note and the grey list are the customer's.
  if (typeChanged) {
    store.emit({ type: 'CustomerPaymentMethodUpdated', customerId: customer.id, atMs: nowMs });
  }
  if (othersChanged) {
    store.emit({ type: 'CustomerUpdated', customerId: customer.id, atMs: nowMs });
  }
  for (const sub of moved) {
    store.emit({
      type: 'SubscriptionDateTermUpdated',
      customerId: customer.id,
      subscriptionId: sub.id,
      atMs: nowMs,
    });
  }
}

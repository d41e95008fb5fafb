import { bothLanguages } from '../catalog.js';
import { DAY_MS, iso } from '../clock.js';
import { forbidden } from '../http/errors.js';
import type { Store } from '../state/store.js';
import type {
  CustomerRecord,
  InvoiceLine,
  InvoiceRecord,
  SubscriptionRecord,
} from '../state/types.js';
import { cardMatters, chargesAutomatically, isBillable, paymentTypeOf } from './payment-type.js';
import { invoiceNumber, periodEndMs } from './periods.js';
import { switchOffer } from './switch-offer.js';
import { recurringLines, recurringPrice } from './pricing.js';

// Management rules of the business:
// - An invoice is due at its payment limit. At that moment the service collects it from a valid
//   card (for a customer who pays by card); otherwise it stays unpaid and becomes overdue.
// - When the number of overdue unpaid invoices reaches the business threshold, the capping is
//   reached and the customer's running subscriptions are suspended (SuspendedPaymentDue).
// - A card that is no longer valid suspends them too (SuspendedPaymentMethodInvalid), unless the
//   customer pays manually (by transfer, cash or cheque: payment-type.ts).
// - Nothing restarts by itself: the customer (hosted restart page) or the business (control API)
//   restarts once the cause is gone.
// Each change is notified at the sandbox time it happens (a catch-up over months emits each
// renewal, invoice, collection and suspension with its own DateTrigger).

export const SUSPENDED_STATES = new Set([
  'SuspendedPaymentDue',
  'SuspendedPaymentMethodInvalid',
  'SuspendedByBusiness',
]);

export function isLive(sub: SubscriptionRecord): boolean {
  return sub.state === 'Running' || SUSPENDED_STATES.has(sub.state);
}

export function overdueInvoices(
  store: Store,
  customer: CustomerRecord,
  nowMs: number,
): InvoiceRecord[] {
  return store
    .invoicesOf(customer.id)
    .filter((i) => i.state === 'PaymentDue' && Date.parse(i.datePaymentLimit) <= nowMs);
}

export function isCappingReached(store: Store, customer: CustomerRecord, nowMs: number): boolean {
  return (
    overdueInvoices(store, customer, nowMs).length >= store.catalog.business.unpaidInvoiceThreshold
  );
}

const SUSPENSION_TRIGGERS = {
  SuspendedPaymentDue: 'SubscriptionSuspendedPaymentDue',
  SuspendedPaymentMethodInvalid: 'SubscriptionSuspendedPaymentInfoMissing',
} as const;

/** Suspends what the rules say must be suspended. Returns true when something changed. */
export function applyManagementRules(
  store: Store,
  customer: CustomerRecord,
  nowMs: number,
): boolean {
  const capping = isCappingReached(store, customer, nowMs);
  let changed = false;
  for (const sub of store.subscriptionsOf(customer.id)) {
    if (sub.custom) continue;
    let next: keyof typeof SUSPENSION_TRIGGERS | null = null;
    if (capping && (sub.state === 'Running' || sub.state === 'SuspendedPaymentMethodInvalid')) {
      next = 'SuspendedPaymentDue';
    } else if (
      cardMatters(customer) &&
      customer.paymentMethod === 'invalid' &&
      sub.state === 'Running'
    ) {
      next = 'SuspendedPaymentMethodInvalid';
    }
    if (next) {
      sub.state = next;
      sub.dateUpdate = iso(nowMs);
      changed = true;
      store.emit({
        type: SUSPENSION_TRIGGERS[next],
        customerId: customer.id,
        subscriptionId: sub.id,
        atMs: nowMs,
      });
    }
  }
  return changed;
}

/** Why a restart cannot happen now, or null. */
export function restartBlocker(store: Store, customer: CustomerRecord, nowMs: number) {
  if (isCappingReached(store, customer, nowMs)) {
    return forbidden(
      'Error.Customer.Billing.CappingReached',
      'Overdue invoices must be paid before the subscription can restart.',
    );
  }
  if (!isBillable(customer)) {
    return forbidden(
      'Error.Customer.PaymentSettings.Missing',
      'A valid payment method is needed before the subscription can restart.',
    );
  }
  return null;
}

export function issueInvoice(
  store: Store,
  customer: CustomerRecord,
  sub: SubscriptionRecord | null,
  issueMs: number,
  lines: InvoiceLine[],
): InvoiceRecord {
  const id = store.nextId('invoice');
  const business = store.catalog.business;
  const amountTotal = lines.reduce((s, l) => s + l.amountTotal, 0);
  // A taxed customer's prices include the tax: the lines stay as priced, and the invoice says
  // its total before tax and the rate, as the invoices of their history do.
  const { taxRate } = customer;
  const taxed = taxRate === undefined ? {} : { taxRate };
  const invoice: InvoiceRecord = {
    id,
    customerId: customer.id,
    subscriptionId: sub?.id ?? null,
    number: invoiceNumber(id, issueMs),
    state: 'PaymentDue',
    typePayment: paymentTypeOf(customer),
    dateIssue: iso(issueMs),
    datePaymentLimit: iso(issueMs + business.paymentTermDays * DAY_MS),
    collectionAttempted: false,
    datePaid: null,
    amountSubtotal:
      taxRate === undefined
        ? lines.reduce((s, l) => s + l.amountSubtotal, 0)
        : Math.round((amountTotal * 10_000) / (10_000 + taxRate)),
    amountTotal,
    ...taxed,
    currency: business.currency,
    lines,
    dateUpdate: iso(issueMs),
    note: customer.noteInvoice ?? null,
  };
  store.addInvoice(invoice);
  store.invalidateEvents();
  const event = {
    customerId: customer.id,
    ...(sub ? { subscriptionId: sub.id } : {}),
    invoiceId: id,
    atMs: issueMs,
  };
  store.emit({ type: 'InvoiceDebitIssued', ...event });
  // The service charges the card on file as it bills: with a valid one the invoice is paid at
  // once. Without (or when the customer pays manually), it waits for its payment limit, when
  // collection is tried again and the management rules may suspend the subscription.
  if (chargesAutomatically(customer)) {
    invoice.state = 'Paid';
    invoice.datePaid = invoice.dateIssue;
    invoice.collectionAttempted = true;
    store.emit({ type: 'InvoiceDebitPaid', ...event });
  }
  return invoice;
}

/** The next moment something happens by itself for this customer, or Infinity. */
function nextEventOf(store: Store, customer: CustomerRecord): number {
  let next = Infinity;
  for (const sub of store.subscriptionsOf(customer.id)) {
    if (!sub.custom && isLive(sub)) next = Math.min(next, Date.parse(sub.periodEnd));
  }
  for (const inv of store.invoicesOf(customer.id)) {
    if (inv.state === 'PaymentDue' && !inv.collectionAttempted) {
      next = Math.min(next, Date.parse(inv.datePaymentLimit));
    }
  }
  return next;
}

function renew(store: Store, customer: CustomerRecord, sub: SubscriptionRecord): void {
  const startMs = Date.parse(sub.periodEnd);
  // A change scheduled for the end of the term (a downgrade) applies as the new period starts.
  const scheduled = sub.offerAfterTerm ? store.catalog.offers.get(sub.offerAfterTerm) : undefined;
  if (scheduled) switchOffer(store, sub, scheduled, startMs);
  const offer = store.catalog.offers.get(sub.offer);
  if (!offer) return;
  sub.periodStart = sub.periodEnd;
  sub.periodEnd = iso(periodEndMs(offer, startMs));
  for (const [ref, feature] of Object.entries(sub.features)) {
    if (store.catalog.features.get(ref)?.type === 'Consumption') feature.quantityCurrent = 0;
  }
  sub.dateUpdate = iso(startMs);
  const event = { customerId: customer.id, subscriptionId: sub.id, atMs: startMs };
  // A new term: its dates moved and its consumption is back to zero.
  store.emit({ type: 'SubscriptionDateTermUpdated', ...event });
  if (scheduled) store.emit({ type: 'SubscriptionUpdated', ...event });
  // A suspended subscription is not billed for the period it cannot use.
  if (sub.state !== 'Running') return;
  const price = recurringPrice(store.catalog, sub);
  const title = bothLanguages(offer.title);
  const day = iso(startMs).slice(0, 10);
  const lines: InvoiceLine[] = [
    ...(price.total > 0
      ? recurringLines(
          store.catalog,
          sub,
          { en: `${title.en}, period from ${day}`, fr: `${title.fr}, période du ${day}` },
          price,
        )
      : []),
    // Charges of an upgrade priced with BillNow=false join the renewal invoice.
    ...(sub.deferredLines ?? []),
  ];
  sub.deferredLines = [];
  if (lines.length > 0) issueInvoice(store, customer, sub, startMs, lines);
}

function processCustomer(store: Store, customer: CustomerRecord, nowMs: number): boolean {
  let changed = false;
  for (;;) {
    const at = nextEventOf(store, customer);
    if (at > nowMs) return changed;
    changed = true;
    for (const sub of store.subscriptionsOf(customer.id)) {
      if (!sub.custom && isLive(sub) && Date.parse(sub.periodEnd) === at)
        renew(store, customer, sub);
    }
    for (const inv of store.invoicesOf(customer.id)) {
      if (
        inv.state === 'PaymentDue' &&
        !inv.collectionAttempted &&
        Date.parse(inv.datePaymentLimit) === at
      ) {
        inv.collectionAttempted = true;
        if (chargesAutomatically(customer)) {
          inv.state = 'Paid';
          inv.datePaid = iso(at);
          inv.dateUpdate = iso(at);
        }
        store.emit({
          // A failed collection is not a loss of rights: a suspension comes as its own event.
          type: inv.state === 'Paid' ? 'InvoiceDebitPaid' : 'CustomerChargingFailed',
          customerId: customer.id,
          ...(inv.subscriptionId === null ? {} : { subscriptionId: inv.subscriptionId }),
          invoiceId: inv.id,
          atMs: at,
        });
      }
    }
    applyManagementRules(store, customer, at);
  }
}

/**
 * Brings the state up to the clock: renews periods (resetting consumption and invoicing the
 * recurring price), collects invoices that fall due and applies the management rules, customer
 * by customer in time order. Cheap when nothing is due.
 */
export function catchUp(store: Store): void {
  const nowMs = store.clock.nowMs();
  if (nowMs < store.nextEventMs) return;
  let changed = false;
  let next = Infinity;
  for (const customer of store.state.customers) {
    if (processCustomer(store, customer, nowMs)) changed = true;
    next = Math.min(next, nextEventOf(store, customer));
  }
  store.nextEventMs = next;
  if (changed) store.changed();
}

/** Applies the rules to every customer, then catches up with the clock (start, reset, load). */
export function settle(store: Store): void {
  const nowMs = store.clock.nowMs();
  for (const customer of store.state.customers) applyManagementRules(store, customer, nowMs);
  store.invalidateEvents();
  catchUp(store);
}

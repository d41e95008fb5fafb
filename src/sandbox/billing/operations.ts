import { bothLanguages, type CatalogOffer } from '../catalog.js';
import { iso } from '../clock.js';
import { ApiError, forbidden } from '../http/errors.js';
import { featuresForOffer } from '../state/seed.js';
import type { Store } from '../state/store.js';
import type {
  BillingAddressRecord,
  CustomerRecord,
  InvoiceRecord,
  PaymentMethodState,
  SubscriptionRecord,
} from '../state/types.js';
import { periodEndMs } from './periods.js';
import {
  assertCanChange,
  offerOf,
  quoteIncrement,
  quoteOfferChange,
  recurringPrice,
  type Quote,
} from './pricing.js';
import {
  applyManagementRules,
  isCappingReached,
  issueInvoice,
  restartBlocker,
  SUSPENDED_STATES,
} from './rules.js';

// State-changing operations. Each one checks everything before its first mutation, so a refused
// request changes nothing.

/** Issues the invoice of a priced change when it costs something; null when it is free. */
function invoiceBillable(
  store: Store,
  customer: CustomerRecord,
  sub: SubscriptionRecord,
  nowMs: number,
  quote: Pick<Quote, 'amountTotal' | 'lines'>,
): InvoiceRecord | null {
  if (quote.amountTotal <= 0) return null;
  return issueInvoice(
    store,
    customer,
    sub,
    nowMs,
    quote.lines.map((l) => ({
      label: l.label,
      amountSubtotal: l.amountSubtotal,
      amountTotal: l.amountTotal,
    })),
  );
}

function missingPaymentMethod(): ApiError {
  return forbidden(
    'Error.Customer.PaymentSettings.Missing',
    'The change is billable and the customer has no valid payment method.',
  );
}

export function createCustomer(
  store: Store,
  input: { reference: string; name: string; email: string; segment: string },
): { customer: CustomerRecord; created: boolean } {
  const existing = store.findCustomer(input.reference);
  if (existing) return { customer: existing, created: false };
  if (input.segment !== store.catalog.segment.reference) {
    throw new ApiError(
      422,
      'Error.Api.Validation',
      `Unknown segment '${input.segment}'.`,
      'ReferenceSegment',
    );
  }
  const customer: CustomerRecord = {
    id: store.nextId('customer'),
    reference: input.reference,
    name: input.name,
    email: input.email,
    segment: input.segment,
    language: null,
    paymentMethod: 'absent',
    paymentMethodLabel: null,
    billingAddress: null,
    createdAt: store.clock.nowIso(),
    usageLog: [],
  };
  store.addCustomer(customer);
  store.changed();
  return { customer, created: true };
}

export function setBillingAddress(
  store: Store,
  customer: CustomerRecord,
  address: BillingAddressRecord,
): void {
  customer.billingAddress = { ...address };
  store.changed();
}

/** Quote for a pricing request, with every refusal of the seed (never changes state). */
export function priceUsage(
  store: Store,
  customer: CustomerRecord,
  featureRef: string,
  increment: number,
): { sub: SubscriptionRecord; quote: Quote } {
  const nowMs = store.clock.nowMs();
  const sub = store.mainSubscription(customer.id);
  if (!sub) {
    throw new ApiError(
      404,
      'Error.Subscription.NotFound',
      `Customer '${customer.reference}' has no subscription.`,
      'ReferenceCustomer',
    );
  }
  // Feature first: a plan that lacks the feature is the answer whatever the state.
  const quote = quoteIncrement(store.catalog, sub, featureRef, increment, nowMs);
  assertCanChange(sub, isCappingReached(store, customer, nowMs));
  if (quote.amountTotal > 0 && customer.paymentMethod !== 'valid') throw missingPaymentMethod();
  return { sub, quote };
}

export function applyUsage(
  store: Store,
  customer: CustomerRecord,
  featureRef: string,
  increment: number,
  dateStamp: string | null,
): { sub: SubscriptionRecord; quote: Quote; invoice: InvoiceRecord | null } {
  const { sub, quote } = priceUsage(store, customer, featureRef, increment);
  const nowMs = store.clock.nowMs();
  const feature = sub.features[featureRef];
  if (!feature) throw new Error('unreachable: priced feature has no record');
  feature.quantityCurrent = quote.quantityAfter;
  sub.dateUpdate = iso(nowMs);
  const invoice = invoiceBillable(store, customer, sub, nowMs, quote);
  customer.usageLog.push({
    at: iso(nowMs),
    dateStamp,
    subscriptionId: sub.id,
    feature: featureRef,
    increment,
    quantityBefore: quote.quantityBefore,
    quantityAfter: quote.quantityAfter,
    amountSubtotal: quote.amountSubtotal,
    amountTotal: quote.amountTotal,
    invoiceId: invoice?.id ?? null,
  });
  store.changed();
  return { sub, quote, invoice };
}

export function createSubscription(
  store: Store,
  customer: CustomerRecord,
  offer: CatalogOffer,
): SubscriptionRecord {
  if (offer.amountRecurrence <= 0) {
    throw new ApiError(
      422,
      'Error.Api.Validation',
      `Offer '${offer.reference}' is not a paid offer.`,
      'ReferenceOffer',
    );
  }
  const existing = store
    .subscriptionsOf(customer.id)
    .find((s) => !s.custom && s.state === 'PendingSubscription' && s.offer === offer.reference);
  if (existing) return existing;
  const nowMs = store.clock.nowMs();
  const sub: SubscriptionRecord = {
    id: store.nextId('subscription'),
    customerId: customer.id,
    offer: offer.reference,
    state: 'PendingSubscription',
    custom: false,
    dateStart: iso(nowMs),
    periodStart: iso(nowMs),
    periodEnd: iso(periodEndMs(offer, nowMs)),
    features: featuresForOffer(store.catalog, offer),
    discounts: [...offer.discounts],
    dateUpdate: iso(nowMs),
  };
  store.addSubscription(sub);
  store.changed();
  return sub;
}

/** The customer completes the subscribe page: the subscription starts now and its first period is invoiced. */
export function completeSubscription(
  store: Store,
  sub: SubscriptionRecord,
  options: { requirePaymentMethod: boolean } = { requirePaymentMethod: true },
): InvoiceRecord | null {
  if (sub.state === 'Running') return null;
  if (sub.state !== 'PendingSubscription') {
    throw new ApiError(
      409,
      'Error.Subscription.NotActive',
      `Subscription ${sub.id} is not waiting to start (state ${sub.state}).`,
    );
  }
  const customer = customerOf(store, sub);
  const nowMs = store.clock.nowMs();
  const offer = offerOf(store.catalog, sub);
  const price = recurringPrice(store.catalog, sub);
  if (options.requirePaymentMethod && price.total > 0 && customer.paymentMethod !== 'valid') {
    throw missingPaymentMethod();
  }
  if (isCappingReached(store, customer, nowMs)) {
    throw forbidden(
      'Error.Customer.Billing.CappingReached',
      'Overdue invoices must be paid first.',
    );
  }
  sub.state = 'Running';
  sub.custom = false;
  sub.dateStart = iso(nowMs);
  sub.periodStart = iso(nowMs);
  sub.periodEnd = iso(periodEndMs(offer, nowMs));
  sub.dateUpdate = iso(nowMs);
  let invoice: InvoiceRecord | null = null;
  if (price.total > 0) {
    const title = bothLanguages(offer.title);
    invoice = issueInvoice(store, customer, sub, nowMs, [
      { label: title, amountSubtotal: price.subtotal, amountTotal: price.total },
    ]);
  }
  store.invalidateEvents();
  store.changed();
  return invoice;
}

export function customerOf(store: Store, sub: SubscriptionRecord): CustomerRecord {
  const customer = store.customerById(sub.customerId);
  if (!customer) throw new Error(`unreachable: subscription ${sub.id} has no customer`);
  return customer;
}

/**
 * Switches a running subscription to another offer (or to a custom subscription's offer,
 * features and discounts) instantly; a higher price is charged prorated for the rest of the period.
 */
export function changeOffer(
  store: Store,
  sub: SubscriptionRecord,
  target: { offer: CatalogOffer; custom?: SubscriptionRecord },
): { invoice: InvoiceRecord | null; amountTotal: number } {
  const customer = customerOf(store, sub);
  const nowMs = store.clock.nowMs();
  if (sub.custom || sub.state === 'PendingSubscription' || sub.state === 'Ended') {
    throw new ApiError(
      409,
      'Error.Subscription.NotActive',
      `Subscription ${sub.id} cannot be changed (state ${sub.state}).`,
    );
  }
  assertCanChange(sub, isCappingReached(store, customer, nowMs));
  const { custom, offer } = target;
  if (custom) {
    if (custom.customerId !== sub.customerId) {
      throw new ApiError(
        422,
        'Error.Api.Validation',
        `Subscription ${custom.id} belongs to another customer.`,
        'IdSubscription',
      );
    }
    if (!custom.custom || custom.state !== 'PendingSubscription') {
      throw new ApiError(
        422,
        'Error.Api.Validation',
        `Subscription ${custom.id} is not a custom subscription to switch to.`,
        'IdSubscription',
      );
    }
  } else if (offer.reference === sub.offer) {
    return { invoice: null, amountTotal: 0 };
  }
  const preview: SubscriptionRecord = {
    ...sub,
    discounts: custom ? [...new Set([...sub.discounts, ...custom.discounts])] : sub.discounts,
  };
  const quote = quoteOfferChange(store.catalog, preview, offer, nowMs);
  if (quote.amountTotal > 0 && customer.paymentMethod !== 'valid') throw missingPaymentMethod();

  const quantities = Object.fromEntries(
    Object.entries(sub.features).map(([ref, f]) => [ref, f.quantityCurrent]),
  );
  const features = featuresForOffer(store.catalog, offer, quantities);
  if (custom) {
    for (const [ref, f] of Object.entries(custom.features)) {
      const target = features[ref];
      if (target) {
        target.quantityIncluded = f.quantityIncluded;
        target.enabled = f.enabled;
      }
    }
    custom.state = 'Ended';
    custom.dateUpdate = iso(nowMs);
  }
  sub.offer = offer.reference;
  sub.features = features;
  sub.discounts = preview.discounts;
  sub.dateUpdate = iso(nowMs);
  const invoice = invoiceBillable(store, customer, sub, nowMs, quote);
  store.changed();
  return { invoice, amountTotal: quote.amountTotal };
}

export function payInvoice(store: Store, invoice: InvoiceRecord): { alreadyPaid: boolean } {
  if (invoice.state === 'Paid') return { alreadyPaid: true };
  if (invoice.state !== 'PaymentDue') {
    throw new ApiError(
      409,
      'Error.Api.Validation',
      `Invoice ${invoice.id} cannot be paid (state ${invoice.state}).`,
    );
  }
  const nowIso = store.clock.nowIso();
  invoice.state = 'Paid';
  invoice.datePaid = nowIso;
  invoice.dateUpdate = nowIso;
  invoice.collectionAttempted = true;
  store.invalidateEvents();
  store.changed();
  return { alreadyPaid: false };
}

export function restartSubscription(store: Store, sub: SubscriptionRecord): void {
  if (sub.state === 'Running') return;
  if (!SUSPENDED_STATES.has(sub.state)) {
    throw new ApiError(
      409,
      'Error.Subscription.NotActive',
      `Subscription ${sub.id} is not suspended (state ${sub.state}).`,
    );
  }
  const customer = customerOf(store, sub);
  const blocker = restartBlocker(store, customer, store.clock.nowMs());
  if (blocker) throw blocker;
  sub.state = 'Running';
  sub.dateUpdate = store.clock.nowIso();
  store.changed();
}

export function suspendSubscription(store: Store, sub: SubscriptionRecord): void {
  if (SUSPENDED_STATES.has(sub.state)) return;
  if (sub.state !== 'Running') {
    throw new ApiError(
      409,
      'Error.Subscription.NotActive',
      `Subscription ${sub.id} is not running (state ${sub.state}).`,
    );
  }
  sub.state = 'SuspendedByBusiness';
  sub.dateUpdate = store.clock.nowIso();
  store.changed();
}

export function setPaymentMethod(
  store: Store,
  customer: CustomerRecord,
  state: PaymentMethodState,
  label?: string,
): void {
  customer.paymentMethod = state;
  customer.paymentMethodLabel =
    state === 'absent' ? null : (label ?? customer.paymentMethodLabel ?? 'Visa •••• 4242');
  applyManagementRules(store, customer, store.clock.nowMs());
  store.changed();
}

import { bothLanguages, type CatalogOffer } from '../catalog.js';
import { iso } from '../clock.js';
import { ApiError, forbidden, ValidationError } from '../http/errors.js';
import { featuresForOffer } from '../state/seed.js';
import type { Store } from '../state/store.js';
import type {
  BillingAddressRecord,
  CustomerRecord,
  InvoiceRecord,
  PaymentMethodState,
  SubscriptionRecord,
} from '../state/types.js';
import { isBillable } from './payment-type.js';
import { periodEndMs } from './periods.js';
import { missingPaymentMethod } from './charges.js';
import { customerOf } from './offer-change.js';
import { offerOf, recurringLines, recurringPrice } from './pricing.js';
import {
  applyManagementRules,
  isCappingReached,
  issueInvoice,
  restartBlocker,
  SUSPENDED_STATES,
} from './rules.js';

// State-changing operations. Each one checks everything before its first mutation, so a refused
// request changes nothing, and emits the notifications of what it changed once it is done.

export interface CustomerInput {
  reference: string;
  name?: string | undefined;
  email?: string | undefined;
  language?: string | undefined;
  segment?: string | undefined;
  offer?: string | undefined;
  affiliation?: string | undefined;
  metadata?: Record<string, string> | undefined;
}

function invalidField(message: string, target: string): ValidationError {
  return new ValidationError([{ Code: 'Error.Api.Validation', Message: message, Target: target }]);
}

/** The segment a new or existing customer goes to, or the refusal of the given one. */
function segmentFor(
  store: Store,
  existing: CustomerRecord | undefined,
  given: string | undefined,
): string {
  const segments = store.catalog.segments;
  if (given !== undefined && !segments.has(given)) {
    throw invalidField(`Unknown segment '${given}'.`, 'ReferenceSegment');
  }
  if (existing) {
    if (given !== undefined && given !== existing.segment) {
      throw invalidField(
        `Customer '${existing.reference}' belongs to segment '${existing.segment}'; a customer does not change segment.`,
        'ReferenceSegment',
      );
    }
    return existing.segment;
  }
  if (given !== undefined) return given;
  if (segments.size > 1) {
    throw invalidField(
      `ReferenceSegment is required: the business has several segments (${[...segments.keys()].join(', ')}).`,
      'ReferenceSegment',
    );
  }
  return store.catalog.segment.reference;
}

/**
 * Creates the customer, or updates the fields given when the reference exists (the live
 * service's create-or-update). A field not given keeps its value.
 */
export function upsertCustomer(
  store: Store,
  input: CustomerInput,
): { customer: CustomerRecord; created: boolean } {
  const existing = store.findCustomer(input.reference);
  const segment = segmentFor(store, existing, input.segment);
  if (input.offer !== undefined && !store.catalog.offers.has(input.offer)) {
    throw new ApiError(
      404,
      'Error.Offer.NotFound',
      `No offer with reference '${input.offer}'.`,
      'ReferenceOffer',
    );
  }
  const given = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.email !== undefined ? { email: input.email } : {}),
    ...(input.language !== undefined ? { language: input.language } : {}),
    ...(input.offer !== undefined ? { offer: input.offer } : {}),
    ...(input.affiliation !== undefined ? { affiliation: input.affiliation } : {}),
    ...(input.metadata !== undefined ? { metadata: { ...input.metadata } } : {}),
  };
  if (existing) {
    const before = JSON.stringify(existing);
    Object.assign(existing, given);
    if (JSON.stringify(existing) !== before) {
      store.changed();
      store.emit({ type: 'CustomerUpdated', customerId: existing.id, atMs: store.clock.nowMs() });
    }
    return { customer: existing, created: false };
  }
  const customer: CustomerRecord = {
    id: store.nextId('customer'),
    reference: input.reference,
    name: '',
    email: '',
    segment,
    language: null,
    paymentMethod: 'absent',
    paymentMethodLabel: null,
    billingAddress: null,
    createdAt: store.clock.nowIso(),
    usageLog: [],
    ...given,
  };
  store.addCustomer(customer);
  store.changed();
  store.emit({ type: 'CustomerAdded', customerId: customer.id, atMs: store.clock.nowMs() });
  return { customer, created: true };
}

export function setBillingAddress(
  store: Store,
  customer: CustomerRecord,
  address: BillingAddressRecord,
): void {
  const before = JSON.stringify(customer.billingAddress);
  customer.billingAddress = { ...address };
  if (JSON.stringify(customer.billingAddress) === before) return;
  store.changed();
  store.emit({
    type: 'CustomerBillingAddressUpdated',
    customerId: customer.id,
    atMs: store.clock.nowMs(),
  });
}

/** The customer's (non-custom) subscription waiting for its checkout, if any. */
export function pendingSubscriptionOf(
  store: Store,
  customer: CustomerRecord,
): SubscriptionRecord | undefined {
  return store
    .subscriptionsOf(customer.id)
    .find((s) => !s.custom && s.state === 'PendingSubscription');
}

/**
 * The customer's (non-custom) subscription that has started and not ended: running or
 * suspended. A customer has at most one: subscribing again is a plan change.
 */
export function startedSubscriptionOf(
  store: Store,
  customer: CustomerRecord,
): SubscriptionRecord | undefined {
  return store
    .subscriptionsOf(customer.id)
    .find((s) => !s.custom && s.state !== 'PendingSubscription' && s.state !== 'Ended');
}

/** The refusal of a second subscription beside a started one: its plan is changed instead. */
export function alreadySubscribed(started: SubscriptionRecord): ApiError {
  return new ApiError(
    409,
    'Error.Subscription.Exists',
    `Subscription ${started.id} on offer '${started.offer}' has started (state ${started.state}): change its offer instead of subscribing again.`,
    'ReferenceCustomer',
  );
}

export function createSubscription(
  store: Store,
  customer: CustomerRecord,
  offer: CatalogOffer,
): SubscriptionRecord {
  if (offer.onRequest) {
    throw forbidden(
      'Error.Offer.OnRequest',
      `Offer '${offer.reference}' is sold on request: the business prepares a custom subscription on it for the customer.`,
      'ReferenceOffer',
    );
  }
  if (offer.amountRecurrence <= 0) {
    throw new ApiError(
      422,
      'Error.Api.Validation',
      `Offer '${offer.reference}' is not a paid offer.`,
      'ReferenceOffer',
    );
  }
  // One subscription per customer: a second one beside a running one would bill both.
  const started = startedSubscriptionOf(store, customer);
  if (started) throw alreadySubscribed(started);
  const pending = pendingSubscriptionOf(store, customer);
  if (pending?.offer === offer.reference) return pending;
  if (pending) {
    // One checkout at a time: a second subscription would start beside the pending one, which
    // stays waiting and unseen. The customer completes it (its hosted-subscribe link) first.
    throw new ApiError(
      409,
      'Error.Subscription.Pending',
      `Subscription ${pending.id} on offer '${pending.offer}' is waiting to start: complete it before subscribing again.`,
      'ReferenceOffer',
    );
  }
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
  const started = startedSubscriptionOf(store, customer);
  if (started && started.id !== sub.id) throw alreadySubscribed(started);
  const nowMs = store.clock.nowMs();
  const offer = offerOf(store.catalog, sub);
  const price = recurringPrice(store.catalog, sub);
  if (options.requirePaymentMethod && price.total > 0 && !isBillable(customer)) {
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
  store.emit({
    type: 'SubscriptionStarted',
    customerId: customer.id,
    subscriptionId: sub.id,
    atMs: nowMs,
  });
  let invoice: InvoiceRecord | null = null;
  if (price.total > 0) {
    const title = bothLanguages(offer.title);
    invoice = issueInvoice(
      store,
      customer,
      sub,
      nowMs,
      recurringLines(store.catalog, sub, title, price),
    );
  }
  store.invalidateEvents();
  store.changed();
  return invoice;
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
  store.emit({
    type: 'InvoiceDebitPaid',
    customerId: invoice.customerId,
    ...(invoice.subscriptionId === null ? {} : { subscriptionId: invoice.subscriptionId }),
    invoiceId: invoice.id,
    atMs: Date.parse(nowIso),
  });
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
  store.emit(subscriptionEvent(store, 'SubscriptionRestarted', sub));
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
  store.emit(subscriptionEvent(store, 'SubscriptionSuspendedAgent', sub));
}

export function setPaymentMethod(
  store: Store,
  customer: CustomerRecord,
  state: PaymentMethodState,
  label?: string,
): void {
  const before = `${customer.paymentMethod} ${customer.paymentMethodLabel} ${customer.typePayment}`;
  customer.paymentMethod = state;
  customer.paymentMethodLabel =
    state === 'absent' ? null : (label ?? customer.paymentMethodLabel ?? 'Visa •••• 4242');
  // A card the customer saves (a hosted page names it) is how they pay from now on, even when
  // the business had set a manual payment type.
  if (state === 'valid' && label !== undefined && customer.typePayment !== undefined) {
    customer.typePayment = 'Card';
  }
  const methodChanged =
    `${customer.paymentMethod} ${customer.paymentMethodLabel} ${customer.typePayment}` !== before;
  const nowMs = store.clock.nowMs();
  if (methodChanged) {
    store.emit({ type: 'CustomerPaymentMethodUpdated', customerId: customer.id, atMs: nowMs });
  }
  // The suspensions it causes are their own notifications (applyManagementRules emits them).
  applyManagementRules(store, customer, nowMs);
  store.changed();
}

/** A subscription's notification, now. */
function subscriptionEvent(
  store: Store,
  type: 'SubscriptionRestarted' | 'SubscriptionSuspendedAgent',
  sub: SubscriptionRecord,
) {
  return { type, customerId: sub.customerId, subscriptionId: sub.id, atMs: store.clock.nowMs() };
}

import { bothLanguages, type Catalog, type CatalogOffer } from '../catalog.js';
import { iso } from '../clock.js';
import { ApiError, forbidden } from '../http/errors.js';
import type { Store } from '../state/store.js';
import type { CustomerRecord, InvoiceRecord, SubscriptionRecord } from '../state/types.js';
import { invoiceCharge, invoiceLines, missingPaymentMethod } from './charges.js';
import {
  assertCanChange,
  discountLine,
  prorate,
  proratedCharge,
  proratedLabel,
  recurringPrice,
  remainingShare,
  type PriceLine,
  type RecurringPrice,
} from './pricing.js';
import { isBillable } from './payment-type.js';
import { isCappingReached } from './rules.js';
import { switchOffer } from './switch-offer.js';

// Changing the offer of a subscription: one plan, computed once, that the upgrade quote
// (POST /v1/Quoting/Subscription/{id}/Upgrade) shows, the instant change endpoints (8 and 9) and
// the hosted upgrade table apply. The quote's amount is therefore what the change invoices.
//
// - An upgrade (the recurring price after discounts rises, or stays equal) takes effect now by
//   default: the prorated difference is charged for the rest of the period, invoiced now
//   (BillNow, the default) or added to the next renewal invoice (BillNow=false). Its lines say
//   both sides, adding up to the amount: the new offer for the rest of the period, and a credit
//   for the unused part of the current one (see switchCharge).
// - A downgrade (the recurring price falls) takes effect at the end of the current period by
//   default: the customer keeps what they paid for, nothing is refunded, and the new price
//   applies from the next term. Immediate=true switches now instead, still without refund.
// - Immediate=false schedules an upgrade for the end of the period too (nothing due now).
// - Choosing the current offer again is a no-op that cancels a scheduled change.
// - A custom subscription the business prepared (endpoint 8) is concluded now, always.

export type ChangeDirection = 'Upgrade' | 'Downgrade' | 'None';

export interface OfferChangeOptions {
  /** Now (true) or at the end of the current period (false); default by direction, see above. */
  immediate?: boolean | undefined;
  /** Invoice an immediate upgrade's prorated amount now (default) or at the next renewal. */
  billNow?: boolean | undefined;
}

/** A change checked and priced, ready to apply. */
export interface OfferChangePlan extends OfferChangePrice {
  sub: SubscriptionRecord;
  customer: CustomerRecord;
  target: CatalogOffer;
  custom?: SubscriptionRecord;
}

export function customerOf(store: Store, sub: SubscriptionRecord): CustomerRecord {
  const customer = store.customerById(sub.customerId);
  if (!customer) throw new Error(`unreachable: subscription ${sub.id} has no customer`);
  return customer;
}

/** A lower recurring price (after discounts) is a downgrade; an equal one counts as an upgrade (it applies now, for 0). */
function directionOf(current: RecurringPrice, next: RecurringPrice): ChangeDirection {
  return next.total < current.total ? 'Downgrade' : 'Upgrade';
}

function checkCustomTarget(sub: SubscriptionRecord, custom: SubscriptionRecord): void {
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
}

/** The price side of a change, without any refusal: what the hosted table shows for every choice. */
export interface OfferChangePrice {
  /** Discounts the subscription has after the change (a custom subscription brings its own). */
  discounts: string[];
  direction: ChangeDirection;
  immediate: boolean;
  billNow: boolean;
  /** When the new offer applies: now, or the end of the current period. */
  dateEffective: string;
  /** The prorated charge of the change (0 when it is not immediate). */
  amountSubtotal: number;
  amountTotal: number;
  /** What is invoiced now: amountTotal with BillNow, else 0. */
  amountTotalDue: number;
  lines: PriceLine[];
  current: RecurringPrice;
  /** The recurring price once the change applies. */
  nextTerm: RecurringPrice;
}

export function priceOfferChange(
  catalog: Catalog,
  sub: SubscriptionRecord,
  target: { offer: CatalogOffer; custom?: SubscriptionRecord | undefined },
  options: OfferChangeOptions,
  nowMs: number,
): OfferChangePrice {
  const { offer, custom } = target;
  const discounts = custom ? [...new Set([...sub.discounts, ...custom.discounts])] : sub.discounts;
  const current = recurringPrice(catalog, sub);
  if (!custom && offer.reference === sub.offer) {
    return {
      discounts,
      direction: 'None',
      immediate: true,
      billNow: true,
      dateEffective: iso(nowMs),
      amountSubtotal: 0,
      amountTotal: 0,
      amountTotalDue: 0,
      lines: [],
      current,
      nextTerm: current,
    };
  }
  const preview: SubscriptionRecord = { ...sub, discounts };
  const nextTerm = recurringPrice(catalog, preview, { offer });
  const direction = directionOf(current, nextTerm);
  const immediate = custom ? true : (options.immediate ?? direction !== 'Downgrade');
  const billNow = options.billNow ?? true;
  let charge = { amountSubtotal: 0, amountTotal: 0, lines: [] as PriceLine[] };
  if (immediate) {
    const leaving = catalog.offers.get(sub.offer);
    charge = switchCharge(preview, { current, next: nextTerm }, nowMs, {
      to: bothLanguages(offer.title),
      from: leaving ? bothLanguages(leaving.title) : { en: sub.offer, fr: sub.offer },
    });
    const [charged] = charge.lines;
    const discount = charged
      ? discountLine(catalog, preview, charged, charge.amountSubtotal, charge.amountTotal)
      : null;
    if (discount) charge.lines.push(discount);
  }
  return {
    discounts,
    direction,
    immediate,
    billNow,
    dateEffective: immediate ? iso(nowMs) : sub.periodEnd,
    ...charge,
    amountTotalDue: billNow ? charge.amountTotal : 0,
    current,
    nextTerm,
  };
}

/**
 * The prorated charge of switching offer now, in lines that add up to it: the new offer for the
 * rest of the period ("Business, 4.4 of 30 days $29.33") and a credit for the unused part of the
 * current one ("Credit for unused Pro, 4.4 of 30 days −$7.18"). One net line hid the credit: it
 * read as if the new offer's share cost the difference. The credit is what is left of the net
 * amount, so that the lines always add up to it, to the cent.
 */
function switchCharge(
  sub: SubscriptionRecord,
  price: { current: RecurringPrice; next: RecurringPrice },
  nowMs: number,
  titles: { to: { en: string; fr: string }; from: { en: string; fr: string } },
): { amountSubtotal: number; amountTotal: number; lines: PriceLine[] } {
  const charge = proratedCharge(sub, price.current, price.next, nowMs, {
    type: 'Upgrade',
    quantity: 1,
    quantityReported: 1,
    label: proratedLabel(titles.to, sub, nowMs),
  });
  const [charged] = charge.lines;
  if (!charged) return charge;
  const newShare = prorate(price.next.subtotal, remainingShare(sub, nowMs));
  const credit = charged.amountSubtotal - newShare;
  if (credit >= 0) return charge;
  const { periodStart, periodEnd } = charged;
  const creditLine: PriceLine = {
    type: 'Credit',
    label: proratedLabel(
      { en: `Credit for unused ${titles.from.en}`, fr: `Crédit ${titles.from.fr} non utilisé` },
      sub,
      nowMs,
    ),
    quantity: 1,
    amountSubtotal: credit,
    amountTotal: credit,
    ...(periodStart !== undefined ? { periodStart } : {}),
    ...(periodEnd !== undefined ? { periodEnd } : {}),
  };
  return {
    ...charge,
    lines: [{ ...charged, amountSubtotal: newShare, amountTotal: newShare }, creditLine],
  };
}

/**
 * What changing `sub` to `target` (an offer, or a custom subscription's offer and terms) would
 * do now. Refuses, in this order: a subscription that is custom or ended (409), capping (403),
 * a suspended or pending subscription (403), an on-request offer (403), a wrong custom
 * subscription (422). The payment method is the caller's business (a quote may show a price
 * the customer cannot pay yet).
 */
export function planOfferChange(
  store: Store,
  sub: SubscriptionRecord,
  target: { offer: CatalogOffer; custom?: SubscriptionRecord | undefined },
  options: OfferChangeOptions = {},
): OfferChangePlan {
  const customer = customerOf(store, sub);
  const nowMs = store.clock.nowMs();
  if (sub.custom || sub.state === 'Ended') {
    throw new ApiError(
      409,
      'Error.Subscription.NotActive',
      `Subscription ${sub.id} cannot be changed (state ${sub.state}${sub.custom ? ', custom' : ''}).`,
    );
  }
  assertCanChange(sub, isCappingReached(store, customer, nowMs));
  const { offer, custom } = target;
  if (custom) checkCustomTarget(sub, custom);
  else if (offer.onRequest) {
    throw forbidden(
      'Error.Offer.OnRequest',
      `Offer '${offer.reference}' is sold on request: the business prepares a custom subscription on it for the customer.`,
      'ReferenceOffer',
    );
  }
  return {
    sub,
    customer,
    target: offer,
    ...(custom ? { custom } : {}),
    ...priceOfferChange(store.catalog, sub, target, options, nowMs),
  };
}

/** Refuses a plan whose charge needs a payment method the customer does not have. */
export function assertPayable(plan: OfferChangePlan, ensureBillable = false): void {
  if ((plan.amountTotal > 0 || ensureBillable) && !isBillable(plan.customer)) {
    throw missingPaymentMethod();
  }
}

/**
 * Carries out a plan: now, or scheduled for the end of the period. Refuses a charge the customer
 * cannot pay before changing anything. Returns the invoice issued now, if any.
 */
export function applyOfferChange(store: Store, plan: OfferChangePlan): InvoiceRecord | null {
  assertPayable(plan);
  const { sub, customer, target, custom } = plan;
  const nowMs = store.clock.nowMs();
  const event = { customerId: customer.id, subscriptionId: sub.id, atMs: nowMs };
  if (plan.direction === 'None') {
    // Staying on the current offer cancels a change scheduled for the end of the period.
    if (sub.offerAfterTerm) {
      sub.offerAfterTerm = null;
      sub.dateUpdate = iso(nowMs);
      store.changed();
      store.emit({ type: 'SubscriptionUpdated', ...event });
    }
    return null;
  }
  if (!plan.immediate) {
    sub.offerAfterTerm = target.reference;
    sub.dateUpdate = iso(nowMs);
    store.changed();
    store.emit({ type: 'SubscriptionUpdated', ...event });
    return null;
  }
  switchOffer(store, sub, target, nowMs);
  if (custom) {
    for (const [ref, f] of Object.entries(custom.features)) {
      const feature = sub.features[ref];
      if (feature) {
        feature.quantityIncluded = f.quantityIncluded;
        feature.enabled = f.enabled;
      }
    }
    custom.state = 'Ended';
    custom.dateUpdate = iso(nowMs);
  }
  sub.discounts = plan.discounts;
  // The live service's own list has no downgrade code: a lower offer now is an update.
  store.emit({
    type: plan.direction === 'Upgrade' ? 'SubscriptionUpgraded' : 'SubscriptionUpdated',
    ...event,
  });
  let invoice: InvoiceRecord | null = null;
  if (plan.billNow) invoice = invoiceCharge(store, customer, sub, nowMs, plan);
  else if (plan.amountTotal > 0) {
    sub.deferredLines = [...(sub.deferredLines ?? []), ...invoiceLines(plan.lines)];
  }
  store.changed();
  return invoice;
}

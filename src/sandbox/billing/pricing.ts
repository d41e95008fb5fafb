import { localize, type Catalog, type CatalogDiscount, type CatalogOffer } from '../catalog.js';
import { DAY_MS } from '../clock.js';
import type { Language } from '../fixtures/schema.js';
import { ApiError, forbidden, notFound } from '../http/errors.js';
import type { SubscriptionRecord } from '../state/types.js';

// Billing rules, in one place:
// - The recurring price of a period is the offer's price plus, for every Limitation feature, the
//   units above the included quantity times the unit price. Percentage discounts (PerTenThousand)
//   targeting All or Recurring apply to it, then Flat discounts targeting All or Recurring are
//   subtracted once per period (never below 0).
// - A change that raises the recurring price (more Limitation units, an upgrade) is charged now
//   for the rest of the current period: the difference of the recurring prices (before and after
//   discounts) times remaining time / period length, rounded to the hundredth. Decreases are
//   not refunded; they lower the next term.
// - A Consumption change above the included quantity is charged now, unit price per unit, not
//   prorated; percentage discounts targeting All or Usage apply, then Flat discounts targeting
//   Usage are subtracted from the charge (never below 0).
// - Unlimited access (quantity included -1) never costs anything.

export const MAX_INCREMENT = 1_000_000;
export const UNLIMITED = -1;

export interface PriceLine {
  type: 'Prorated' | 'Overage' | 'Discount' | 'Upgrade';
  label: { en: string; fr: string };
  quantity?: number;
  amountSubtotal: number;
  amountTotal: number;
}

export interface RecurringPrice {
  subtotal: number;
  total: number;
}

export interface Quote {
  featureRef: string;
  featureId: number;
  type: 'Limitation' | 'Consumption';
  quantityBefore: number;
  quantityAfter: number;
  amountSubtotal: number;
  amountTotal: number;
  lines: PriceLine[];
  nextTerm: RecurringPrice;
  periodStart: string;
  periodEnd: string;
}

export function subscriptionDiscounts(
  catalog: Catalog,
  sub: SubscriptionRecord,
): CatalogDiscount[] {
  return sub.discounts.flatMap((ref) => {
    const d = catalog.discounts.get(ref);
    return d ? [d] : [];
  });
}

function percentOff(amount: number, discounts: CatalogDiscount[], targets: string[]): number {
  let off = 0;
  for (const d of discounts) {
    if (d.typeOff === 'PerTenThousand' && targets.includes(d.targetFee)) {
      off += Math.round((amount * d.valueOff) / 10_000);
    }
  }
  return Math.min(off, amount);
}

function flatOff(discounts: CatalogDiscount[], targets: string[]): number {
  return discounts
    .filter((d) => d.typeOff === 'Flat' && targets.includes(d.targetFee))
    .reduce((sum, d) => sum + d.valueOff, 0);
}

/** Recurring price of a subscription, optionally as if one feature had another quantity or the offer were another. */
export function recurringPrice(
  catalog: Catalog,
  sub: SubscriptionRecord,
  change?: { feature?: string; quantity?: number; offer?: CatalogOffer },
): RecurringPrice {
  const offer = change?.offer ?? offerOf(catalog, sub);
  let subtotal = offer.amountRecurrence;
  for (const of of offer.features) {
    if (catalog.features.get(of.reference)?.type !== 'Limitation') continue;
    const record = sub.features[of.reference];
    // On another offer, the included quantity is that offer's; the current count carries over.
    const included = change?.offer
      ? (of.quantityIncluded ?? 0)
      : (record?.quantityIncluded ?? of.quantityIncluded ?? 0);
    if (included === UNLIMITED) continue;
    const quantity =
      change?.feature === of.reference && change.quantity !== undefined
        ? change.quantity
        : (record?.quantityCurrent ?? 0);
    subtotal += Math.max(0, quantity - included) * (of.unitPrice ?? 0);
  }
  const discounts = subscriptionDiscounts(catalog, sub);
  const afterPercent = subtotal - percentOff(subtotal, discounts, ['All', 'Recurring']);
  const total = Math.max(0, afterPercent - flatOff(discounts, ['All', 'Recurring']));
  return { subtotal, total };
}

export function offerOf(catalog: Catalog, sub: SubscriptionRecord): CatalogOffer {
  const offer = catalog.offers.get(sub.offer);
  if (!offer)
    throw new ApiError(404, 'Error.Offer.NotFound', `Offer '${sub.offer}' no longer exists.`);
  return offer;
}

/** Share of the current period still to run at `nowMs`, between 0 and 1. */
export function remainingShare(sub: SubscriptionRecord, nowMs: number): number {
  const start = Date.parse(sub.periodStart);
  const end = Date.parse(sub.periodEnd);
  if (end <= start) return 0;
  return Math.min(1, Math.max(0, (end - nowMs) / (end - start)));
}

export function prorate(amount: number, share: number): number {
  return Math.max(0, Math.round(amount * share));
}

/** Remaining and total days of the period, for labels. */
export function periodDays(
  sub: SubscriptionRecord,
  nowMs: number,
): { remaining: number; total: number } {
  const start = Date.parse(sub.periodStart);
  const end = Date.parse(sub.periodEnd);
  const round = (ms: number) => Math.round((ms / DAY_MS) * 10) / 10;
  return { remaining: round(Math.max(0, end - nowMs)), total: round(end - start) };
}

/**
 * Prices an increment of a metered feature without changing anything. Throws the seed's errors
 * in this order: feature not in plan (404), then quantity rules (422). Subscription state and
 * payment method are checked by the caller, which knows the customer.
 */
export function quoteIncrement(
  catalog: Catalog,
  sub: SubscriptionRecord,
  featureRef: string,
  increment: number,
  nowMs: number,
): Quote {
  const offer = offerOf(catalog, sub);
  const definition = catalog.features.get(featureRef);
  const offerFeature = offer.featureByRef.get(featureRef);
  const record = sub.features[featureRef];
  // An OnOff feature the plan lists as not included is not part of the subscription either.
  if (!definition || !offerFeature || !record || offerFeature.included === false) {
    throw notFound(
      'Error.Api.Usage.NoneMatching',
      `The subscription does not include the feature '${featureRef}'.`,
      'ReferenceFeature',
    );
  }
  if (definition.type === 'OnOff') {
    throw new ApiError(
      422,
      'Error.Api.Validation',
      `'${featureRef}' is an OnOff feature: it has no quantity to increment.`,
      'ReferenceFeature',
    );
  }
  const type = definition.type;
  const before = record.quantityCurrent;
  const after = before + increment;
  if (after < 0) {
    throw new ApiError(
      422,
      'Error.Api.Usage.QuantityOutOfRange',
      `The quantity of '${featureRef}' would fall below 0 (current ${before}, increment ${increment}).`,
      'Increment',
    );
  }
  if (offerFeature.maxQuantity !== undefined && after > offerFeature.maxQuantity && increment > 0) {
    throw new ApiError(
      422,
      'Error.Api.Usage.QuantityOutOfRange',
      `The quantity of '${featureRef}' would exceed its maximum of ${offerFeature.maxQuantity}.`,
      'Increment',
    );
  }
  const included = record.quantityIncluded;
  const unlimited = included === UNLIMITED;
  if (
    type === 'Limitation' &&
    !unlimited &&
    offerFeature.updatable !== true &&
    increment > 0 &&
    after > included
  ) {
    throw new ApiError(
      422,
      'Error.Api.Usage.QuantityOutOfRange',
      `'${featureRef}' cannot go above the ${included} included in the plan.`,
      'Increment',
    );
  }

  const title = { en: localize(definition.title, 'en'), fr: localize(definition.title, 'fr') };
  const discounts = subscriptionDiscounts(catalog, sub);
  const lines: PriceLine[] = [];
  let amountSubtotal = 0;
  let amountTotal = 0;
  const nextTerm = recurringPrice(catalog, sub, { feature: featureRef, quantity: after });

  if (!unlimited && type === 'Limitation') {
    const current = recurringPrice(catalog, sub);
    const share = remainingShare(sub, nowMs);
    amountSubtotal = prorate(nextTerm.subtotal - current.subtotal, share);
    amountTotal = Math.min(amountSubtotal, prorate(nextTerm.total - current.total, share));
    const extra = Math.max(0, after - included) - Math.max(0, before - included);
    if (amountSubtotal > 0) {
      const days = periodDays(sub, nowMs);
      lines.push({
        type: 'Prorated',
        quantity: extra,
        label: {
          en: `${extra} × ${title.en}, ${days.remaining} of ${days.total} days`,
          fr: `${extra} × ${title.fr}, ${days.remaining} jours sur ${days.total}`,
        },
        amountSubtotal,
        amountTotal: amountSubtotal,
      });
    }
  } else if (!unlimited && type === 'Consumption') {
    const extra = Math.max(0, after - included) - Math.max(0, before - included);
    if (extra > 0) {
      amountSubtotal = extra * (offerFeature.unitPrice ?? 0);
      const afterPercent = amountSubtotal - percentOff(amountSubtotal, discounts, ['All', 'Usage']);
      amountTotal = Math.max(0, afterPercent - flatOff(discounts, ['Usage']));
      if (amountSubtotal > 0) {
        lines.push({
          type: 'Overage',
          quantity: extra,
          label: {
            en: `${extra} × ${title.en} over the plan`,
            fr: `${extra} × ${title.fr} hors forfait`,
          },
          amountSubtotal,
          amountTotal: amountSubtotal,
        });
      }
    }
  }
  if (amountTotal < amountSubtotal) {
    const names = discounts.map((d) => d.title);
    lines.push({
      type: 'Discount',
      label: {
        en: names.map((n) => localize(n, 'en')).join(', '),
        fr: names.map((n) => localize(n, 'fr')).join(', '),
      },
      amountSubtotal: -(amountSubtotal - amountTotal),
      amountTotal: -(amountSubtotal - amountTotal),
    });
  }
  return {
    featureRef,
    featureId: definition.id,
    type,
    quantityBefore: before,
    quantityAfter: after,
    amountSubtotal,
    amountTotal,
    lines,
    nextTerm,
    periodStart: sub.periodStart,
    periodEnd: sub.periodEnd,
  };
}

/** Immediate charge of switching a running subscription to another offer. */
export function quoteOfferChange(
  catalog: Catalog,
  sub: SubscriptionRecord,
  target: CatalogOffer,
  nowMs: number,
): { amountSubtotal: number; amountTotal: number; nextTerm: RecurringPrice; lines: PriceLine[] } {
  const current = recurringPrice(catalog, sub);
  const next = recurringPrice(catalog, sub, { offer: target });
  const share = remainingShare(sub, nowMs);
  const amountSubtotal = prorate(next.subtotal - current.subtotal, share);
  const amountTotal = Math.min(amountSubtotal, prorate(next.total - current.total, share));
  const lines: PriceLine[] = [];
  if (amountSubtotal > 0) {
    const days = periodDays(sub, nowMs);
    lines.push({
      type: 'Upgrade',
      label: {
        en: `${localize(target.title, 'en')}, ${days.remaining} of ${days.total} days`,
        fr: `${localize(target.title, 'fr')}, ${days.remaining} jours sur ${days.total}`,
      },
      amountSubtotal,
      amountTotal,
    });
  }
  return { amountSubtotal, amountTotal, nextTerm: next, lines };
}

export function lineLabel(line: PriceLine, language: Language): string {
  return line.label[language];
}

/** Checks the states that refuse a pricing or usage change, capping first. */
export function assertCanChange(sub: SubscriptionRecord, cappingReached: boolean): void {
  if (cappingReached) {
    throw forbidden(
      'Error.Customer.Billing.CappingReached',
      'The customer has reached the threshold of unpaid invoices; outstanding invoices must be settled first.',
    );
  }
  if (sub.state !== 'Running') {
    throw forbidden(
      'Error.Subscription.NotActive',
      `The subscription is not active (state ${sub.state}).`,
    );
  }
}

import {
  isAddOn,
  localize,
  type Catalog,
  type CatalogDiscount,
  type CatalogOffer,
} from '../catalog.js';
import { DAY_MS, iso } from '../clock.js';
import { formatDate } from '../i18n.js';
import { ApiError, forbidden } from '../http/errors.js';
import type { InvoiceLine, SubscriptionRecord } from '../state/types.js';

// Billing rules, in one place:
// - The recurring price of a period is the offer's price plus, for every Limitation feature, the
//   units above the included quantity times the unit price, plus every add-on (an OnOff feature
//   the offer sells apart) that is switched on. Percentage discounts (PerTenThousand) targeting
//   All or Recurring apply to it, then Flat discounts targeting All or Recurring are subtracted
//   once per period (never below 0).
// - A change that raises the recurring price (more Limitation units, an add-on switched on, an
//   upgrade) is charged now for the rest of the current period: the difference of the recurring
//   prices (before and after discounts) times remaining time / period length, rounded to the
//   hundredth. Decreases are not refunded; they lower the next term.
// - A Consumption change above the included quantity is charged now, unit price per unit, not
//   prorated; percentage discounts targeting All or Usage apply, then Flat discounts targeting
//   Usage are subtracted from the charge (never below 0).
// - Unlimited access (quantity included -1) never costs anything.
// The sandbox has no taxes: the amount due now (AmountTotalDue) is AmountTotal.

export const MAX_INCREMENT = 1_000_000;
export const UNLIMITED = -1;

/** `Credit`: the unused part of the offer a change leaves (a negative amount). */
export type PriceLineType = 'Prorated' | 'Overage' | 'AddOn' | 'Discount' | 'Upgrade' | 'Credit';

export interface PriceLine {
  type: PriceLineType;
  label: { en: string; fr: string };
  /** Units the line charges (the seed-era `Quantity`; the live `QuantityBilled`). */
  quantity?: number;
  /** What the change reports: the new quantity (Limitation), the units used (Consumption), 1 (OnOff, offer). */
  quantityReported?: number;
  amountSubtotal: number;
  amountTotal: number;
  /** A prorated line: the part of the period it charges. */
  periodStart?: string;
  periodEnd?: string;
  /** A one-off charge (Consumption): when it happened. */
  dateMove?: string;
}

export interface RecurringPrice {
  subtotal: number;
  total: number;
}

/** A hypothetical change to price a subscription with. */
export interface PriceChange {
  /** A feature whose quantity (Limitation) or switch (OnOff add-on) changes. */
  feature?: string;
  quantity?: number;
  enabled?: boolean;
  /** Another offer: included quantities are its own, current counts and bought add-ons carry over. */
  offer?: CatalogOffer;
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

export function percentOff(
  amount: number,
  discounts: CatalogDiscount[],
  targets: string[],
): number {
  let off = 0;
  for (const d of discounts) {
    if (d.typeOff === 'PerTenThousand' && targets.includes(d.targetFee)) {
      off += Math.round((amount * d.valueOff) / 10_000);
    }
  }
  return Math.min(off, amount);
}

export function flatOff(discounts: CatalogDiscount[], targets: string[]): number {
  return discounts
    .filter((d) => d.typeOff === 'Flat' && targets.includes(d.targetFee))
    .reduce((sum, d) => sum + d.valueOff, 0);
}

export function offerOf(catalog: Catalog, sub: SubscriptionRecord): CatalogOffer {
  const offer = catalog.offers.get(sub.offer);
  if (!offer)
    throw new ApiError(404, 'Error.Offer.NotFound', `Offer '${sub.offer}' no longer exists.`);
  return offer;
}

/**
 * Add-ons the customer bought on the current offer: they stay switched on after an offer change
 * when the new offer sells them too. An included feature never turns into a paid add-on.
 */
export function boughtAddOns(catalog: Catalog, sub: SubscriptionRecord): string[] {
  const offer = catalog.offers.get(sub.offer);
  if (!offer) return [];
  return offer.features
    .filter(
      (of) =>
        isAddOn(of, catalog.features.get(of.reference)) &&
        sub.features[of.reference]?.enabled === true,
    )
    .map((of) => of.reference);
}

/** Recurring price of a subscription, optionally as if one feature or the offer were changed. */
export function recurringPrice(
  catalog: Catalog,
  sub: SubscriptionRecord,
  change?: PriceChange,
): RecurringPrice {
  const offer = change?.offer ?? offerOf(catalog, sub);
  const carried = change?.offer ? new Set(boughtAddOns(catalog, sub)) : null;
  let subtotal = offer.amountRecurrence;
  for (const of of offer.features) {
    const definition = catalog.features.get(of.reference);
    const record = sub.features[of.reference];
    const changed = change?.feature === of.reference;
    if (isAddOn(of, definition)) {
      const enabled =
        changed && change.enabled !== undefined
          ? change.enabled
          : carried
            ? carried.has(of.reference)
            : record?.enabled === true;
      if (enabled) subtotal += of.unitPrice ?? 0;
      continue;
    }
    if (definition?.type !== 'Limitation') continue;
    // On another offer, the included quantity is that offer's; the current count carries over.
    const included = change?.offer
      ? (of.quantityIncluded ?? 0)
      : (record?.quantityIncluded ?? of.quantityIncluded ?? 0);
    if (included === UNLIMITED) continue;
    const quantity =
      changed && change.quantity !== undefined ? change.quantity : (record?.quantityCurrent ?? 0);
    subtotal += Math.max(0, quantity - included) * (of.unitPrice ?? 0);
  }
  const discounts = subscriptionDiscounts(catalog, sub);
  const afterPercent = subtotal - percentOff(subtotal, discounts, ['All', 'Recurring']);
  const total = Math.max(0, afterPercent - flatOff(discounts, ['All', 'Recurring']));
  return { subtotal, total };
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

/**
 * A prorated line's label in both languages, with the dates it covers rather than a fraction
 * of days: "Seats, today to December 1, 2026", "Sièges, d’aujourd’hui au 1er décembre 2026".
 */
export function proratedLabel(
  title: { en: string; fr: string },
  sub: SubscriptionRecord,
  nowMs: number,
): { en: string; fr: string } {
  // A line charged on the period's first day covers the whole period: its dates say so.
  const starts = Date.parse(sub.periodStart) >= nowMs - DAY_MS / 2;
  const end = { en: formatDate(sub.periodEnd, 'en'), fr: formatDate(sub.periodEnd, 'fr') };
  if (starts) {
    const start = { en: formatDate(sub.periodStart, 'en'), fr: formatDate(sub.periodStart, 'fr') };
    return {
      en: `${title.en}, ${start.en} to ${end.en}`,
      fr: `${title.fr}, du ${start.fr} au ${end.fr}`,
    };
  }
  return { en: `${title.en}, today to ${end.en}`, fr: `${title.fr}, d’aujourd’hui au ${end.fr}` };
}

/**
 * The prorated charge of raising the recurring price from `current` to `next` now, with its
 * line (absent when nothing is charged).
 */
export function proratedCharge(
  sub: SubscriptionRecord,
  current: RecurringPrice,
  next: RecurringPrice,
  nowMs: number,
  line: Omit<PriceLine, 'amountSubtotal' | 'amountTotal' | 'periodStart' | 'periodEnd'>,
): { amountSubtotal: number; amountTotal: number; lines: PriceLine[] } {
  const share = remainingShare(sub, nowMs);
  const amountSubtotal = prorate(next.subtotal - current.subtotal, share);
  const amountTotal = Math.min(amountSubtotal, prorate(next.total - current.total, share));
  if (amountSubtotal <= 0) return { amountSubtotal, amountTotal, lines: [] };
  const charged: PriceLine = {
    ...line,
    amountSubtotal,
    amountTotal: amountSubtotal,
    periodStart: iso(nowMs),
    periodEnd: sub.periodEnd,
  };
  return { amountSubtotal, amountTotal, lines: [charged] };
}

/** The discount line that brings `charged` lines from their subtotal down to `amountTotal`. */
export function discountLine(
  catalog: Catalog,
  sub: SubscriptionRecord,
  charged: PriceLine,
  amountSubtotal: number,
  amountTotal: number,
): PriceLine | null {
  if (amountTotal >= amountSubtotal) return null;
  const names = subscriptionDiscounts(catalog, sub).map((d) => d.title);
  const { periodStart, periodEnd, dateMove } = charged;
  return {
    type: 'Discount',
    label: {
      en: names.map((n) => localize(n, 'en')).join(', '),
      fr: names.map((n) => localize(n, 'fr')).join(', '),
    },
    amountSubtotal: -(amountSubtotal - amountTotal),
    amountTotal: -(amountSubtotal - amountTotal),
    ...(periodStart !== undefined ? { periodStart } : {}),
    ...(periodEnd !== undefined ? { periodEnd } : {}),
    ...(dateMove !== undefined ? { dateMove } : {}),
  };
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

/**
 * A period's invoice lines: the recurring price before discounts, then the discounts' line (their
 * names, a negative amount) when they take something off, so that the lines add up to the total.
 */
export function recurringLines(
  catalog: Catalog,
  sub: SubscriptionRecord,
  label: { en: string; fr: string },
  price: RecurringPrice,
): InvoiceLine[] {
  const lines: InvoiceLine[] = [
    { label, amountSubtotal: price.subtotal, amountTotal: price.subtotal },
  ];
  const off = price.subtotal - price.total;
  if (off > 0) {
    const names = subscriptionDiscounts(catalog, sub).map((d) => d.title);
    lines.push({
      label: {
        en: names.map((n) => localize(n, 'en')).join(', '),
        fr: names.map((n) => localize(n, 'fr')).join(', '),
      },
      amountSubtotal: -off,
      amountTotal: -off,
      discount: true,
    });
  }
  return lines;
}

import type { Offer } from '../../contract/catalog.js';
import { formatMoney, formatNumber, message } from '../../client/i18n.js';

// A recurring price with its period, in the page's language ("$49.00 / month", "$90.00 every 3
// months"): the plan picker's offers, <buy-feature>'s price per unit and its next-term price.

const UNITS = ['Day', 'Week', 'Month', 'Year'] as const;

/** A period's unit, as the catalogue spells it (`UnitRecurrence`). */
export type PeriodUnit = (typeof UNITS)[number];

const isUnit = (value: unknown): value is PeriodUnit => UNITS.includes(value as PeriodUnit);

/** `price` (already written) every `count` `unit`s: "$49.00 / month", "$90.00 every 3 months". */
export function pricePer(host: Element, price: string, unit: PeriodUnit, count = 1): string {
  if (count === 1) return message(host, `per.${unit}`, { price });
  // Intl's unit style spells the period in the page's language ("3 months", "3 mois").
  const period = formatNumber(host, count, {
    style: 'unit',
    unit: unit.toLowerCase(),
    unitDisplay: 'long',
  });
  return message(host, 'per.every', { price, period });
}

/**
 * `amount` (hundredths of the offer's currency) per period of `offer`, or undefined when the
 * offer names no currency or a period the elements do not know.
 */
export function perPeriod(host: Element, amount: number, offer: Offer): string | undefined {
  const { Currency: currency, UnitRecurrence: unit } = offer;
  if (!currency || !isUnit(unit)) return undefined;
  return pricePer(host, formatMoney(host, amount, currency), unit, offer.DurationRecurrence ?? 1);
}

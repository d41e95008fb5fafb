import type { Offer, OfferFeature } from '../../contract/catalog.js';
import type { NextTerm } from '../../contract/resources.js';
import {
  formatMoney,
  formatNumber,
  languageOf,
  message,
  type MessageKey,
} from '../../client/i18n.js';
import { perPeriod, pricePer, type PeriodUnit } from '../shared/per-period.js';

// The words and figures <buy-feature> writes itself rather than take from the service: amounts
// formatted with Intl from the service's amounts and currency, the period of a recurring price,
// and the feature's name agreeing with a number.

const MINUS_SIGN = '\u2212';
const DAY_MS = 86_400_000;

/** A term's length in days, and the period it is named as ("$69.00 / month"); others go unnamed. */
const PERIODS: readonly { min: number; max: number; unit: PeriodUnit }[] = [
  { min: 28, max: 31, unit: 'Month' },
  { min: 365, max: 366, unit: 'Year' },
];

/** Hundredths of `currency` in the element's locale; a negative amount with a real minus sign. */
export function money(host: Element, amount: number, currency: string): string {
  // Intl writes the sign as a hyphen-minus, and no currency code or symbol holds one: the first
  // hyphen is the sign.
  return formatMoney(host, amount, currency).replace('-', MINUS_SIGN);
}

/** The recurring price of a term with its period ("$69.00 / month"), or the amount alone. */
export function termPrice(host: Element, term: NextTerm, currency: string): string {
  const amount = money(host, term.AmountTotal, currency);
  const { DatePeriodStart: start, DatePeriodEnd: end } = term;
  // Unreadable dates give NaN days, which no period matches.
  const days = start && end ? Math.round((Date.parse(end) - Date.parse(start)) / DAY_MS) : NaN;
  const period = PERIODS.find(({ min, max }) => days >= min && days <= max);
  return period ? pricePer(host, amount, period.unit) : amount;
}

/**
 * The plan's price of one more unit of a quantity feature, from the catalogue ("Seats: $10.00 /
 * month each beyond the 5 included."), when its period is one the elements name; else undefined.
 */
export function unitPriceSentence(
  host: Element,
  offer: Offer,
  terms: OfferFeature,
  title: string,
): string | undefined {
  const { AmountUnit: unit, QuantityIncluded: included } = terms;
  const price = unit ? perPeriod(host, unit, offer) : undefined;
  if (!price) return undefined;
  return included !== undefined && included > 0
    ? message(host, 'buy.unit-price.beyond', {
        label: title,
        price,
        included: formatNumber(host, included),
      })
    : message(host, 'buy.unit-price', { label: title, price });
}

const pluralRules = new Map<string, Intl.PluralRules>();

/** Whether `count` takes the singular in the element's language (1 in English; 0 and 1 in French). */
export function isSingular(host: Element, count: number): boolean {
  const language = languageOf(host);
  let rules = pluralRules.get(language);
  if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
  return rules.select(count) === 'one';
}

/** `text` with a capital, to open a sentence ("Seats: …"). */
export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** How the element names its feature: in the customer's words, and as a title. */
export interface FeatureNames {
  /** The singular the host gave (`label-one`), if any. */
  one: string;
  /** The plural the host gave (`label`), if any. */
  other: string;
  /** The name to use when no form agrees: `label`, else the usage's title, else the reference. */
  title: string;
}

/**
 * A sentence about `count` units: `counted` ("Add {quantity} {label}") with the form of the name
 * that agrees with the number, or, when the host did not give that form, `named` ("{label}:
 * {quantity} more"), which reads for any number, with the title. `{quantity}` is `count` written
 * in the element's language.
 */
export function countedSentence(
  host: Element,
  count: number,
  names: FeatureNames,
  counted: MessageKey,
  named: MessageKey,
): string {
  const quantity = formatNumber(host, count);
  const agreeing = isSingular(host, count) ? names.one : names.other;
  if (agreeing) return message(host, counted, { quantity, label: agreeing });
  return message(host, named, { quantity, label: capitalized(names.title) });
}

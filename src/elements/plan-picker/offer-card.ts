import { html, nothing, type TemplateResult } from 'lit';
import type { Offer, OfferFeature } from '../../contract/catalog.js';
import type { SubscriptionDiscount } from '../../contract/proxy-api.js';
import type { Usage } from '../../contract/resources.js';
import { UNLIMITED_QUANTITY } from '../../contract/constants.js';
import { formatNumber, languageOf, message } from '../../client/i18n.js';
import { perPeriod } from '../shared/per-period.js';

// How <plan-picker> shows an offer: its price per period formatted with Intl in the page's
// language (shared/per-period.ts: the same figures as the dialog's, the other elements' and the
// portal's, see docs/glossary.md), and the features that set it apart from the other offers.

/** The offer's recurring price in the page's language; the service's text when it cannot tell. */
export function pricePerPeriod(
  host: Element,
  offer: Offer,
  amount = offer.AmountRecurrence,
): string {
  const formatted = amount === undefined ? undefined : perPeriod(host, amount, offer);
  return formatted ?? offer.PricingLocalized ?? '';
}

/**
 * What the customer pays for `offer` each period once the subscription's discounts apply, as the
 * service counts it: each share rounded to the hundredth and taken off, never more than the
 * price, then the amounts, never below 0. Undefined when a discount does not say what it takes
 * off, or the offer has no price: the card then shows the list price.
 */
export function discountedPrice(
  offer: Offer,
  discounts: readonly SubscriptionDiscount[],
  list = offer.AmountRecurrence,
): number | undefined {
  if (list === undefined || discounts.some((discount) => !discount.off)) return undefined;
  let shares = 0;
  let amounts = 0;
  for (const { off } of discounts) {
    if (off && 'perTenThousand' in off) shares += Math.round((list * off.perTenThousand) / 10_000);
    else if (off) amounts += off.amount;
  }
  return Math.max(0, list - Math.min(shares, list) - amounts);
}

/**
 * An add-on's price per period once the subscription's discounts apply: only their shares, as a
 * share of what the add-on adds to the recurring price; an amount off is taken once per period
 * from the whole, so switching an add-on on still adds its list price. The list price when a
 * discount does not say what it takes off.
 */
export function discountedAddOn(
  amount: number,
  discounts: readonly SubscriptionDiscount[],
): number {
  if (discounts.some((discount) => !discount.off)) return amount;
  let shares = 0;
  for (const { off } of discounts)
    if (off && 'perTenThousand' in off)
      shares += Math.round((amount * off.perTenThousand) / 10_000);
  return Math.max(0, amount - shares);
}

/** One part of a recurring price above the plan's list price: extra units, or an add-on kept. */
export interface Extra {
  label: string;
  /** Units above what the plan includes; absent for an add-on. */
  count?: number;
  /** Per period, before discounts, in hundredths of the offer's currency. */
  amount: number;
}

/**
 * What the customer would pay for `offer` each period at their current use, before discounts, as
 * the service counts a recurring price: the list price, plus for each quantity feature the units
 * in use above what the offer includes times its unit price, plus each add-on bought on the
 * current plan that the offer sells too (an add-on carries over; an included feature never
 * turns into a paid add-on). On the current plan, the included quantities are the
 * subscription's own. Undefined without a price.
 */
export function priceAtUse(
  offer: Offer,
  current: Offer | undefined,
  usages: readonly Usage[],
): { amount: number; extras: Extra[] } | undefined {
  if (offer.AmountRecurrence === undefined) return undefined;
  let amount = offer.AmountRecurrence;
  const extras: Extra[] = [];
  for (const terms of offer.Features ?? []) {
    const feature = terms.ReferenceFeature;
    const usage = usages.find((candidate) => candidate.ReferenceFeature === feature);
    if (!usage) continue;
    const label = terms.TitleLocalized ?? usage.TitleLocalized ?? feature;
    let extra: Extra | undefined;
    if (terms.TypeFeature === 'OnOff') {
      const bought = current?.Features?.find((other) => other.ReferenceFeature === feature);
      if (terms.IsAddOn && usage.IsEnabled && bought?.IsAddOn && terms.AmountRecurrence)
        extra = { label, amount: terms.AmountRecurrence };
    } else if (terms.TypeFeature === 'Limitation') {
      const included = offer.IsCurrent
        ? (usage.QuantityIncluded ?? terms.QuantityIncluded ?? 0)
        : (terms.QuantityIncluded ?? 0);
      const count = (usage.QuantityCurrent ?? 0) - included;
      if (included !== UNLIMITED_QUANTITY && count > 0 && terms.AmountUnit)
        extra = { label, count, amount: count * terms.AmountUnit };
    }
    if (extra) {
      extras.push(extra);
      amount += extra.amount;
    }
  }
  return { amount, extras };
}

/** The extras in words, joined: "Seats: 37 extra, $370.00 / month and Projects: 7 extra, …". */
export function extrasText(host: Element, offer: Offer, extras: readonly Extra[]): string {
  return new Intl.ListFormat(languageOf(host), { type: 'conjunction' }).format(
    extras.map(({ label, count, amount }) =>
      count === undefined
        ? message(host, 'plan.extra.add-on', { label, price: pricePerPeriod(host, offer, amount) })
        : message(host, 'plan.extra', {
            label,
            count: formatNumber(host, count),
            price: pricePerPeriod(host, offer, amount),
          }),
    ),
  );
}

/** What an offer says of a feature, comparable across offers. */
function termsOf(feature: OfferFeature | undefined): string {
  if (!feature) return 'absent';
  return JSON.stringify([
    feature.IsIncluded,
    feature.IsAddOn,
    feature.QuantityIncluded,
    feature.AmountRecurrence,
  ]);
}

/**
 * The features whose terms differ between the offers shown (included in one, not in another; a
 * different included quantity), in the order they first appear.
 */
export function differingFeatures(offers: Offer[]): { reference: string; title: string }[] {
  const seen = new Map<string, string>();
  for (const offer of offers)
    for (const feature of offer.Features ?? [])
      if (feature.IsVisible !== false && !seen.has(feature.ReferenceFeature))
        seen.set(feature.ReferenceFeature, feature.TitleLocalized ?? feature.ReferenceFeature);
  return [...seen]
    .filter(([reference]) => {
      const terms = new Set(
        offers.map((offer) =>
          termsOf(offer.Features?.find((feature) => feature.ReferenceFeature === reference)),
        ),
      );
      return terms.size > 1;
    })
    .map(([reference, title]) => ({ reference, title }));
}

/** One feature of an offer in words: "Seats: 5", "Single sign-on: Included". */
function featureValue(
  host: Element,
  feature: OfferFeature | undefined,
  offer: Offer,
  discounts: readonly SubscriptionDiscount[],
): string {
  if (!feature) return message(host, 'plan.feature.not-included');
  if (feature.TypeFeature === 'OnOff') {
    if (feature.IsIncluded) return message(host, 'plan.feature.included');
    const addOnPrice =
      feature.IsAddOn && feature.AmountRecurrence !== undefined
        ? (perPeriod(host, discountedAddOn(feature.AmountRecurrence, discounts), offer) ??
          feature.PricingLocalized)
        : undefined;
    if (addOnPrice) return message(host, 'plan.feature.add-on', { price: addOnPrice });
    return message(host, 'plan.feature.not-included');
  }
  if (feature.QuantityIncluded === UNLIMITED_QUANTITY)
    return message(host, 'plan.feature.unlimited');
  if (feature.QuantityIncluded === undefined) return message(host, 'plan.feature.not-included');
  return formatNumber(host, feature.QuantityIncluded);
}

/** The list of the features that set `offer` apart. */
export function featureList(
  host: Element,
  offer: Offer,
  features: { reference: string; title: string }[],
  discounts: readonly SubscriptionDiscount[] = [],
): TemplateResult | typeof nothing {
  if (features.length === 0) return nothing;
  return html`<ul class="features" part="features">
    ${features.map(({ reference, title }) => {
      const terms = offer.Features?.find((feature) => feature.ReferenceFeature === reference);
      const value = featureValue(host, terms, offer, discounts);
      const absent = value === message(host, 'plan.feature.not-included');
      return html`<li part="feature" data-absent=${absent ? '' : nothing}>
        ${message(host, 'plan.feature.value', { title, value })}
      </li>`;
    })}
  </ul>`;
}

import { html, nothing, type TemplateResult } from 'lit';
import type { Offer, OfferFeature } from '../../contract/catalog.js';
import type { SubscriptionDiscount } from '../../contract/proxy-api.js';
import { UNLIMITED_QUANTITY } from '../../contract/constants.js';
import { formatNumber, message } from '../../client/i18n.js';
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
): number | undefined {
  const list = offer.AmountRecurrence;
  if (list === undefined || discounts.some((discount) => !discount.off)) return undefined;
  let shares = 0;
  let amounts = 0;
  for (const { off } of discounts) {
    if (off && 'perTenThousand' in off) shares += Math.round((list * off.perTenThousand) / 10_000);
    else if (off) amounts += off.amount;
  }
  return Math.max(0, list - Math.min(shares, list) - amounts);
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
function featureValue(host: Element, feature: OfferFeature | undefined, offer: Offer): string {
  if (!feature) return message(host, 'plan.feature.not-included');
  if (feature.TypeFeature === 'OnOff') {
    if (feature.IsIncluded) return message(host, 'plan.feature.included');
    const addOnPrice =
      feature.IsAddOn && feature.AmountRecurrence !== undefined
        ? (perPeriod(host, feature.AmountRecurrence, offer) ?? feature.PricingLocalized)
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
): TemplateResult | typeof nothing {
  if (features.length === 0) return nothing;
  return html`<ul class="features" part="features">
    ${features.map(({ reference, title }) => {
      const terms = offer.Features?.find((feature) => feature.ReferenceFeature === reference);
      const value = featureValue(host, terms, offer);
      const absent = value === message(host, 'plan.feature.not-included');
      return html`<li part="feature" data-absent=${absent ? '' : nothing}>
        ${message(host, 'plan.feature.value', { title, value })}
      </li>`;
    })}
  </ul>`;
}

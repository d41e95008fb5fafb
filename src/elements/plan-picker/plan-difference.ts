import type { Offer, OfferFeature } from '../../contract/catalog.js';
import type { PlanQuoteResponse } from '../../contract/proxy-api.js';
import { languageOf } from '../../client/i18n.js';

// What the plan-change dialog says beyond the quote's amounts, from the offers the picker already
// has: the features a downgrade takes away, and that the new recurring price is more than the
// card's. Nothing here computes a price: the service's NextTerm carries no lines (the seed gives
// it four fields), so the parts of that price are not shown, and none is worked out here.

/** Whether an offer gives a feature: an on/off one included, a quantity one with any included. */
function gives(feature: OfferFeature | undefined): boolean {
  if (!feature) return false;
  if (feature.TypeFeature === 'OnOff') return feature.IsIncluded === true;
  return feature.QuantityIncluded !== undefined && feature.QuantityIncluded !== 0;
}

/**
 * The titles of the features `current` gives that `target` does not (an on/off feature the
 * target only sells as an add-on counts as lost: an included feature never becomes a paid one),
 * joined in the element's language ("Seats and Single sign-on"), or undefined when none.
 */
export function lostFeatures(host: Element, current: Offer, target: Offer): string | undefined {
  const lost = (current.Features ?? [])
    .filter((feature) => feature.IsVisible !== false && gives(feature))
    .filter(
      (feature) =>
        !gives(
          target.Features?.find((other) => other.ReferenceFeature === feature.ReferenceFeature),
        ),
    )
    .map((feature) => feature.TitleLocalized ?? feature.ReferenceFeature);
  if (lost.length === 0) return undefined;
  return new Intl.ListFormat(languageOf(host), { type: 'conjunction' }).format(lost);
}

/** Whether the quote's new recurring price is above the target card's list price. */
export function costsMoreThanCard(quote: PlanQuoteResponse, target: Offer): boolean {
  const listed = target.AmountRecurrence;
  return listed !== undefined && quote.NextTerm.AmountTotal > listed;
}

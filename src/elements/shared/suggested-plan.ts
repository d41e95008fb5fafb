import type { Offer, OfferFeature } from '../../contract/catalog.js';

// Which plan to name when the customer's plan lacks a feature: "Single sign-on: not included
// in your plan; included in Pro." with "Switch to Pro", rather than a bare "Change plan".

/** A plan to suggest: its reference (to open its change-plan workflow) and its title. */
export interface SuggestedPlan {
  offer: string;
  title: string;
}

/** Whether an offer gives a feature: an on/off one included, a quantity one with any included. */
export function gives(feature: OfferFeature | undefined): boolean {
  if (!feature) return false;
  if (feature.TypeFeature === 'OnOff') return feature.IsIncluded === true;
  return feature.QuantityIncluded !== undefined && feature.QuantityIncluded !== 0;
}

/**
 * The least expensive plan, other than the customer's, that gives `feature`, among those with a
 * public price (a plan sold on request has no switch to offer); undefined when none does, or
 * when the offers are unknown.
 */
export function planIncluding(
  offers: readonly Offer[] | null | undefined,
  feature: string,
): SuggestedPlan | undefined {
  const candidates = (offers ?? []).filter(
    (offer) =>
      !offer.IsCurrent &&
      !offer.IsOnRequest &&
      offer.IsVisible !== false &&
      offer.AmountRecurrence !== undefined &&
      gives(offer.Features?.find((terms) => terms.ReferenceFeature === feature)),
  );
  const cheapest = candidates.sort((a, b) => a.AmountRecurrence! - b.AmountRecurrence!)[0];
  return (
    cheapest && {
      offer: cheapest.ReferenceOffer,
      title: cheapest.TitleLocalized ?? cheapest.ReferenceOffer,
    }
  );
}

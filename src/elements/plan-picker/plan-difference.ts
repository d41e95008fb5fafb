import type { Offer } from '../../contract/catalog.js';
import type { PlanQuoteResponse } from '../../contract/proxy-api.js';
import type { Usage } from '../../contract/resources.js';
import { UNLIMITED_QUANTITY } from '../../contract/constants.js';
import { formatNumber, languageOf, message } from '../../client/i18n.js';
import { gives } from '../shared/suggested-plan.js';
import { pricePerPeriod } from './offer-card.js';

// What the plan-change dialog says beyond the quote's amounts, from the offers the picker already
// has: the features a downgrade takes away, and that the new recurring price is more than the
// card's. Nothing here computes a price: the service's NextTerm carries no lines (the seed gives
// it four fields), so the parts of that price are not shown, and none is worked out here.

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

/** Whether the quote's new recurring price is above the price the target's card shows. */
export function costsMoreThanCard(
  quote: PlanQuoteResponse,
  target: Offer,
  shown = target.AmountRecurrence,
): boolean {
  return shown !== undefined && quote.NextTerm.AmountTotal > shown;
}

/**
 * What a move to a smaller plan does to what the customer has now, one sentence each: a
 * quantity in use beyond what `target` includes stays and is billed as extra ("Seats: your 6
 * stay; Starter includes 1, so 5 are billed as extra."), and an add-on bought on `current` is
 * kept as an add-on at the target's price, or becomes part of the target.
 */
export function keptOnDowngrade(
  host: Element,
  { current, target, title }: { current: Offer; target: Offer; title: string },
  usages: readonly Usage[],
): string[] {
  const termsIn = (offer: Offer, feature: string) =>
    offer.Features?.find((terms) => terms.ReferenceFeature === feature);
  const sentences: string[] = [];
  for (const usage of usages) {
    const feature = usage.ReferenceFeature;
    const terms = termsIn(target, feature);
    const label = terms?.TitleLocalized ?? usage.TitleLocalized ?? feature;
    if (usage.TypeFeature === 'Limitation') {
      const used = usage.QuantityCurrent ?? 0;
      const included = terms?.QuantityIncluded;
      if (included === undefined || included === UNLIMITED_QUANTITY || used <= included) continue;
      sentences.push(
        message(host, 'plan.dialog.keeps', {
          label,
          title,
          used: formatNumber(host, used),
          included: formatNumber(host, included),
          extra: formatNumber(host, used - included),
        }),
      );
    } else if (usage.TypeFeature === 'OnOff' && usage.IsEnabled === true) {
      if (termsIn(current, feature)?.IsAddOn !== true) continue;
      if (terms?.IsIncluded === true) {
        sentences.push(message(host, 'plan.dialog.add-on.included', { label, title }));
      } else if (terms?.IsAddOn === true && terms.AmountRecurrence !== undefined) {
        const price = pricePerPeriod(host, { ...target, AmountRecurrence: terms.AmountRecurrence });
        sentences.push(message(host, 'plan.dialog.add-on.kept', { label, price }));
      }
    }
  }
  return sentences;
}

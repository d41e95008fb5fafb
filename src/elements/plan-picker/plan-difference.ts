import type { Offer, OfferFeature } from '../../contract/catalog.js';
import type { PlanQuoteResponse } from '../../contract/proxy-api.js';
import type { Usage } from '../../contract/resources.js';
import { UNLIMITED_QUANTITY } from '../../contract/constants.js';
import { formatMoney, formatNumber, languageOf, message } from '../../client/i18n.js';
import { gives } from '../shared/suggested-plan.js';
import type { SubscriptionDiscount } from '../../contract/proxy-api.js';
import { discountedAddOn, pricePerPeriod } from './offer-card.js';

// What the plan-change dialog says beyond the quote's amounts, from the offers the picker already
// has: the features a downgrade takes away, and that the new recurring price is more than the
// card's. Nothing here computes a price: the service's NextTerm carries no lines (the seed gives
// it four fields), so the parts of that price are not shown, and none is worked out here.

/**
 * The titles of the features `current` gives that `target` does not, each quoted as a name and
 * joined in the element's language ("“Seats” and “Single sign-on”": mid-sentence, a capital
 * reads as a name's), or undefined when none. An on/off feature the target
 * sells as an add-on is not among them: keptOnDowngrade says it can be added.
 */
export function lostFeatures(host: Element, current: Offer, target: Offer): string | undefined {
  const lost = (current.Features ?? [])
    .filter((feature) => feature.IsVisible !== false && gives(feature))
    .filter((feature) => {
      const terms = target.Features?.find(
        (other) => other.ReferenceFeature === feature.ReferenceFeature,
      );
      return !gives(terms) && terms?.IsAddOn !== true;
    })
    .map((feature) =>
      message(host, 'plan.dialog.feature-name', {
        name: feature.TitleLocalized ?? feature.ReferenceFeature,
      }),
    );
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
 * What a move to another plan does to what the customer has now, one sentence each, as the
 * service applies it on the change's `date` (undefined: at once), add-on prices after
 * `discounts`: a quantity in use beyond what
 * `target` includes stays and is billed as extra ("Seats: your 6 stay; Starter includes 1, the
 * rest is billed as extra."); a quantity the target does not have leaves the subscription then,
 * whatever is in use; an add-on bought on `current` is kept as an add-on at the target's price,
 * or becomes part of the target; a feature `current` includes that the target sells as an
 * add-on is not carried over (the customer may add it).
 */
export function keptOnDowngrade(
  host: Element,
  { current, target, title }: { current: Offer; target: Offer; title: string },
  usages: readonly Usage[],
  { date, discounts = [] }: { date?: string; discounts?: readonly SubscriptionDiscount[] } = {},
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
      if (!terms && used > 0) {
        const values = { label, title, used: formatNumber(host, used) };
        sentences.push(
          date
            ? message(host, 'plan.dialog.drops', { ...values, date })
            : message(host, 'plan.dialog.drops.now', values),
        );
        continue;
      }
      if (included === undefined || included === UNLIMITED_QUANTITY || used <= included) continue;
      sentences.push(
        message(host, 'plan.dialog.keeps', {
          label,
          title,
          used: formatNumber(host, used),
          included: formatNumber(host, included),
        }),
      );
    } else if (usage.TypeFeature === 'Consumption') {
      const before = termsIn(current, feature);
      const sentence = meteredOn(host, { target, title, label, terms, before }, usage);
      if (sentence) sentences.push(sentence);
    } else if (usage.TypeFeature === 'OnOff' && usage.IsEnabled === true) {
      const price =
        terms?.IsAddOn === true && terms.AmountRecurrence !== undefined
          ? pricePerPeriod(host, target, discountedAddOn(terms.AmountRecurrence, discounts))
          : undefined;
      if (termsIn(current, feature)?.IsAddOn !== true) {
        if (termsIn(current, feature)?.IsIncluded === true && price)
          sentences.push(message(host, 'plan.dialog.add-on.available', { label, title, price }));
        continue;
      }
      if (terms?.IsIncluded === true) {
        sentences.push(message(host, 'plan.dialog.add-on.included', { label, title }));
      } else if (price) {
        sentences.push(message(host, 'plan.dialog.add-on.kept', { label, price }));
      }
    }
  }
  return sentences;
}

/**
 * What a move to `target` means for a use counted each period (API calls), when the target
 * includes less of it than the current plan (its terms `before`) and the use this period is past what it includes or it
 * caps the use: its cap and the use so far ("API calls: Starter includes 1,000 and stops at
 * 5,000; you have used 12,400 this period."), said as refused when the use is past the cap
 * already; without a cap, the price of each unit beyond. Undefined when nothing changes for it.
 */
function meteredOn(
  host: Element,
  {
    target,
    title,
    label,
    terms,
    before,
  }: {
    target: Offer;
    title: string;
    label: string;
    terms: OfferFeature | undefined;
    before: OfferFeature | undefined;
  },
  usage: Usage,
): string | undefined {
  const included = terms?.QuantityIncluded;
  if (included === undefined || included === UNLIMITED_QUANTITY) return undefined;
  const had = before?.QuantityIncluded;
  if (had !== undefined && had !== UNLIMITED_QUANTITY && had <= included) return undefined;
  const used = usage.QuantityCurrent ?? 0;
  const max = terms?.QuantityMax;
  const values = {
    label,
    title,
    used: formatNumber(host, used),
    included: formatNumber(host, included),
  };
  if (max !== undefined) {
    const capped = { ...values, max: formatNumber(host, max) };
    return used >= max
      ? message(host, 'plan.dialog.metered.over-cap', capped)
      : message(host, 'plan.dialog.metered.capped', capped);
  }
  const unit = terms?.AmountUnit;
  if (used <= included || !unit || !target.Currency) return undefined;
  return message(host, 'plan.dialog.metered', {
    ...values,
    price: formatMoney(host, unit, target.Currency),
  });
}

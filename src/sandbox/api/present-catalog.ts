import type { CatalogFeatureRecord, FeatureTerms, Offer } from '../../contract/catalog.js';
import type { Link } from '../../contract/resources.js';
import { isAddOn, localize, type CatalogFeature, type CatalogOffer } from '../catalog.js';
import { hostedHref, insiteQuery, type SandboxContext } from '../context.js';
import type { Language } from '../../contract/enums.js';
import type { OfferFeature, Segment } from '../fixtures/schema.js';
import { escapeHtml } from '../hosted/html.js';
import { eachUnitAbove, formatMoney, LABELS, perPeriod } from '../i18n.js';
import { UNLIMITED } from '../billing/pricing.js';
import type { CustomerRecord, SubscriptionRecord } from '../state/types.js';
import type { HostedTarget } from '../tokens.js';

// Offers and features as the catalogue sells them (GET /v1/Offers, /v1/Offer, /v1/Features,
// /v1/Feature). Amounts are hundredths, as everywhere. Localized pricing texts are HTML by default
// (Html=true, as the live service answers), with the amounts in <strong> and every other
// character escaped; Html=false gives the same texts as plain text.

export interface CatalogView {
  lang: Language;
  segment: Segment;
  /** Localized pricing fields as HTML (true) or text. */
  html: boolean;
  /** Amounts and pricing texts (Pricing=false leaves them out). */
  pricing: boolean;
  /** Links (Links=false leaves them out). */
  links: boolean;
  /** Features of each offer (IgnoreFeatures=true leaves them out). */
  features: boolean;
  /** The customer the offers are shown to: their links. */
  customer?: CustomerRecord | undefined;
  /** The subscription that would move: `IsCurrent` and insite-upgrade links. */
  subscription?: SubscriptionRecord | undefined;
}

/** A pricing text with its amount emphasised: `<strong>$49.00</strong> / month`, or plain text. */
function pricingText(view: CatalogView, amount: string, rest: string): string {
  // A no-break space before a period ("/ month"): the amount and its period stay on one line.
  const perPeriod = rest.startsWith('/');
  if (!view.html) return rest ? `${amount}${perPeriod ? '\u00a0' : ' '}${rest}` : amount;
  const strong = `<strong>${escapeHtml(amount)}</strong>`;
  return rest ? `${strong}${perPeriod ? '&nbsp;' : ' '}${escapeHtml(rest)}` : strong;
}

function money(ctx: SandboxContext, amount: number, view: CatalogView): string {
  return formatMoney(amount, ctx.catalog.business.currency, view.lang);
}

/** What an offer says about one of its features: inclusion, quantities and price. */
function featureTerms(
  ctx: SandboxContext,
  offer: CatalogOffer,
  of: OfferFeature,
  def: CatalogFeature,
  view: CatalogView,
): FeatureTerms {
  const period = perPeriod(offer.durationRecurrence, offer.unitRecurrence, view.lang);
  const base = {
    IsVisible: of.visible ?? true,
    Properties: of.updatable || isAddOn(of, def) ? 'UpdatableAfterSubscription' : 'None',
  };
  if (def.type === 'OnOff') {
    const addOn = isAddOn(of, def);
    const price = of.unitPrice ?? 0;
    return {
      ...base,
      IsIncluded: of.included ?? true,
      IsAddOn: addOn,
      ...(addOn && view.pricing
        ? {
            AmountRecurrence: price,
            PricingLocalized: pricingText(view, money(ctx, price, view), period),
          }
        : {}),
    };
  }
  const included = of.quantityIncluded ?? 0;
  const unit = of.unitPrice ?? 0;
  const priced = view.pricing && unit > 0 && included !== UNLIMITED;
  const rest =
    def.type === 'Limitation'
      ? `${period} ${eachUnitAbove(included, view.lang)}`
      : eachUnitAbove(included, view.lang);
  return {
    ...base,
    QuantityIncluded: included,
    ...(of.maxQuantity !== undefined ? { QuantityMax: of.maxQuantity } : {}),
    ...(priced
      ? { AmountUnit: unit, PricingLocalized: pricingText(view, money(ctx, unit, view), rest) }
      : {}),
  };
}

/** The feature's own identity and texts. */
function featureIdentity(def: CatalogFeature, lang: Language) {
  return {
    Id: def.id,
    ReferenceFeature: def.reference,
    TypeFeature: def.type,
    TitleLocalized: localize(def.title, lang),
    ...(def.description ? { DescriptionLocalized: localize(def.description, lang) } : {}),
  };
}

function offerLinks(ctx: SandboxContext, offer: CatalogOffer, view: CatalogView): Link[] {
  const links: Link[] = [
    {
      rel: 'self',
      href: `${ctx.urls.url}/v1/Offer?ReferenceOffer=${encodeURIComponent(offer.reference)}`,
    },
  ];
  // An offer on request is never subscribed or switched to by the customer alone; without a
  // customer, anonymous subscription (not enabled in the sandbox) would be needed.
  const { customer, subscription } = view;
  if (!customer || offer.onRequest) return links;
  const c = customer.id;
  const both = (rel: string, target: HostedTarget): Link[] => [
    { rel: `hosted-${rel}`, href: hostedHref(ctx, target) },
    { rel: `insite-${rel}`, query: insiteQuery(ctx, target) },
  ];
  links.push(...both('subscribe', { page: 'subscribe', c, o: offer.reference }));
  if (subscription && subscription.offer !== offer.reference) {
    links.push(...both('upgrade', { page: 'upgrade', c, s: subscription.id, o: offer.reference }));
  }
  return links;
}

export function presentOffer(ctx: SandboxContext, offer: CatalogOffer, view: CatalogView): Offer {
  const period = perPeriod(offer.durationRecurrence, offer.unitRecurrence, view.lang);
  const pricing = !view.pricing
    ? {}
    : offer.onRequest
      ? {
          Currency: ctx.catalog.business.currency,
          PricingLocalized: view.html
            ? escapeHtml(LABELS[view.lang].onRequest)
            : LABELS[view.lang].onRequest,
        }
      : {
          Currency: ctx.catalog.business.currency,
          AmountRecurrence: offer.amountRecurrence,
          AmountUpFront: 0,
          PricingLocalized: pricingText(view, money(ctx, offer.amountRecurrence, view), period),
        };
  const features = view.features
    ? offer.features.flatMap((of) => {
        const def = ctx.catalog.features.get(of.reference);
        return def
          ? [{ ...featureIdentity(def, view.lang), ...featureTerms(ctx, offer, of, def, view) }]
          : [];
      })
    : undefined;
  return {
    Id: offer.id,
    IdSegment: view.segment.id,
    ReferenceSegment: view.segment.reference,
    ReferenceOffer: offer.reference,
    TitleLocalized: localize(offer.title, view.lang),
    ...(offer.description ? { DescriptionLocalized: localize(offer.description, view.lang) } : {}),
    IsVisible: offer.inGrid,
    IsOnRequest: offer.onRequest,
    ...(view.subscription ? { IsCurrent: view.subscription.offer === offer.reference } : {}),
    DurationRecurrence: offer.durationRecurrence,
    UnitRecurrence: offer.unitRecurrence,
    ...pricing,
    ...(features ? { Features: features } : {}),
    ...(view.links ? { Links: offerLinks(ctx, offer, view) } : {}),
  };
}

/** A feature of the catalogue and what every offer that has it says about it. */
export function presentCatalogFeature(
  ctx: SandboxContext,
  def: CatalogFeature,
  view: CatalogView,
  withOffers: boolean,
): CatalogFeatureRecord {
  const offers = [...ctx.catalog.offers.values()].flatMap((offer) => {
    const of = offer.featureByRef.get(def.reference);
    if (!of) return [];
    return [
      {
        IdOffer: offer.id,
        ReferenceOffer: offer.reference,
        TitleLocalizedOffer: localize(offer.title, view.lang),
        IsVisibleOffer: offer.inGrid,
        IsOnRequest: offer.onRequest,
        ...featureTerms(ctx, offer, of, def, view),
      },
    ];
  });
  return { ...featureIdentity(def, view.lang), ...(withOffers ? { Offers: offers } : {}) };
}

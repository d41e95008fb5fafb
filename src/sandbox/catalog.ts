import type { Language } from '../contract/enums.js';
import type {
  Business,
  DiscountDefinition,
  FeatureDefinition,
  LocalizedText,
  OfferDefinition,
  OfferFeature,
  ResolvedFixtures,
  Segment,
} from './fixtures/schema.js';

export interface CatalogFeature extends FeatureDefinition {
  id: number;
}
export interface CatalogDiscount extends DiscountDefinition {
  id: number;
}
export interface CatalogOffer extends OfferDefinition {
  id: number;
  featureByRef: Map<string, OfferFeature>;
}

/** The read-only part of a business: what it sells. Built once from validated fixtures. */
export class Catalog {
  readonly business: Business;
  /** The main segment: where customers created without ReferenceSegment go. */
  readonly segment: Segment;
  /** Every segment of the business by reference, the main one first. */
  readonly segments = new Map<string, Segment>();
  readonly features = new Map<string, CatalogFeature>();
  readonly discounts = new Map<string, CatalogDiscount>();
  readonly offers = new Map<string, CatalogOffer>();
  readonly offersById = new Map<number, CatalogOffer>();

  constructor(fixtures: ResolvedFixtures) {
    this.business = fixtures.business;
    this.segment = fixtures.segment;
    for (const segment of [fixtures.segment, ...fixtures.otherSegments]) {
      this.segments.set(segment.reference, segment);
    }
    const nextId = (used: Set<number>, start: number) => {
      let id = start;
      while (used.has(id)) id++;
      used.add(id);
      return id;
    };
    const featureIds = new Set(fixtures.features.flatMap((f) => (f.id ? [f.id] : [])));
    for (const f of fixtures.features) {
      this.features.set(f.reference, { ...f, id: f.id ?? nextId(featureIds, 1) });
    }
    const discountIds = new Set(fixtures.discounts.flatMap((d) => (d.id ? [d.id] : [])));
    for (const d of fixtures.discounts) {
      this.discounts.set(d.reference, { ...d, id: d.id ?? nextId(discountIds, 1) });
    }
    const offerIds = new Set(fixtures.offers.flatMap((o) => (o.id ? [o.id] : [])));
    for (const o of fixtures.offers) {
      const offer: CatalogOffer = {
        ...o,
        id: o.id ?? nextId(offerIds, 1),
        featureByRef: new Map(o.features.map((f) => [f.reference, f])),
      };
      this.offers.set(o.reference, offer);
      this.offersById.set(offer.id, offer);
    }
  }

  /** Offers of the visible grid, in fixture order. */
  gridOffers(): CatalogOffer[] {
    return [...this.offers.values()].filter((o) => o.inGrid);
  }

  /** Offers listed on the upgrade table: the grid plus the other switchable offers. */
  switchableOffers(): CatalogOffer[] {
    return [...this.offers.values()].filter((o) => o.inGrid || o.switchable);
  }

  /** The segment of a reference, falling back to the main one for unknown references. */
  segmentOf(reference: string): Segment {
    return this.segments.get(reference) ?? this.segment;
  }
}

/** Whether an offer feature is an OnOff feature sold apart from the plan, at a price per period. */
export function isAddOn(feature: OfferFeature, definition: FeatureDefinition | undefined): boolean {
  return definition?.type === 'OnOff' && feature.included === false && (feature.unitPrice ?? 0) > 0;
}

export function localize(text: LocalizedText | undefined, language: Language): string {
  if (text === undefined) return '';
  if (typeof text === 'string') return text;
  return (language === 'fr' ? text.fr : undefined) ?? text.en;
}

/** Both languages of a text, for records that must be rendered later in either. */
export function bothLanguages(text: LocalizedText): { en: string; fr: string } {
  return { en: localize(text, 'en'), fr: localize(text, 'fr') };
}

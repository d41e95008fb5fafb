import * as z from 'zod';
import { openEnum, TypeFeatureSchema, UnitRecurrenceSchema } from './enums.js';
import {
  LinksSchema,
  NextTermSchema,
  pagedListSchema,
  PricingDetailSchema,
  TimestampSchema,
} from './resources.js';

// Resources of the live service beyond the seed: the offer catalogue (GET /v1/Offers, /v1/Offer),
// the features (GET /v1/Features, /v1/Feature) and the quote of a subscription upgrade
// (POST /v1/Quoting/Subscription/{IdSubscription}/Upgrade). The seed shows none of them; field
// names follow the service's conventions, and the sandbox's choices are in docs/sandbox.md.
// Objects are loose: the service may send more. Their error codes, beyond SERVICE_ERROR_CODES:
// `Error.Offer.OnRequest` (403: the offer is sold on request; the business prepares a custom
// subscription instead) and `Error.Feature.NotFound` (404: no feature with that reference).

/**
 * What an offer says about one of its features. OnOff: `IsIncluded` (in the plan's price) or
 * `IsAddOn` (sold apart, at `AmountRecurrence` per period). Limitation and Consumption:
 * `QuantityIncluded` (-1 = unlimited), `QuantityMax`, and `AmountUnit` per unit above the
 * included quantity (per period for Limitation, per unit used for Consumption).
 * `PricingLocalized` is HTML unless the request said `Html=false`: treat it as untrusted markup.
 */
const featureTermsShape = {
  IsVisible: z.optional(z.boolean()),
  Properties: z.optional(z.string()),
  IsIncluded: z.optional(z.boolean()),
  IsAddOn: z.optional(z.boolean()),
  AmountRecurrence: z.optional(z.int()),
  QuantityIncluded: z.optional(z.int()),
  QuantityMax: z.optional(z.int()),
  AmountUnit: z.optional(z.int()),
  PricingLocalized: z.optional(z.string()),
};
export const FeatureTermsSchema = z.looseObject(featureTermsShape);
export type FeatureTerms = z.infer<typeof FeatureTermsSchema>;

const featureIdentityShape = {
  Id: z.int(),
  ReferenceFeature: z.string(),
  TypeFeature: TypeFeatureSchema,
  TitleLocalized: z.optional(z.string()),
  DescriptionLocalized: z.optional(z.string()),
};

/** A feature as an offer lists it. */
export const OfferFeatureSchema = z.looseObject({ ...featureIdentityShape, ...featureTermsShape });
export type OfferFeature = z.infer<typeof OfferFeatureSchema>;

/**
 * An offer of the catalogue. `IsVisible`: part of the visible offer grid. `IsOnRequest`: no
 * public price (no `AmountRecurrence`; `PricingLocalized` says "On request") and no subscribe or
 * upgrade links: the business prepares a custom subscription. `IsCurrent` is present when the
 * request named a subscription (IdSubscription, or ReferenceCustomer's main one).
 */
export const OfferSchema = z.looseObject({
  Id: z.int(),
  IdSegment: z.optional(z.int()),
  ReferenceSegment: z.optional(z.string()),
  ReferenceOffer: z.string(),
  TitleLocalized: z.optional(z.string()),
  DescriptionLocalized: z.optional(z.string()),
  IsVisible: z.optional(z.boolean()),
  IsOnRequest: z.optional(z.boolean()),
  IsCurrent: z.optional(z.boolean()),
  DurationRecurrence: z.optional(z.int()),
  UnitRecurrence: z.optional(UnitRecurrenceSchema),
  Currency: z.optional(z.string()),
  AmountRecurrence: z.optional(z.int()),
  AmountUpFront: z.optional(z.int()),
  PricingLocalized: z.optional(z.string()),
  Features: z.optional(z.array(OfferFeatureSchema)),
  Links: z.optional(LinksSchema),
});
export type Offer = z.infer<typeof OfferSchema>;

export const OffersPageSchema = pagedListSchema(OfferSchema);
export type OffersPage = z.infer<typeof OffersPageSchema>;

/** What one offer says about a feature, in a feature record. */
export const FeatureOfferTermsSchema = z.looseObject({
  IdOffer: z.int(),
  ReferenceOffer: z.string(),
  TitleLocalizedOffer: z.optional(z.string()),
  IsVisibleOffer: z.optional(z.boolean()),
  IsOnRequest: z.optional(z.boolean()),
  ...featureTermsShape,
});
export type FeatureOfferTerms = z.infer<typeof FeatureOfferTermsSchema>;

/** A feature of the catalogue, with what each offer that has it says about it (`Offers`). */
export const CatalogFeatureRecordSchema = z.looseObject({
  ...featureIdentityShape,
  Offers: z.optional(z.array(FeatureOfferTermsSchema)),
});
export type CatalogFeatureRecord = z.infer<typeof CatalogFeatureRecordSchema>;

export const FeaturesPageSchema = pagedListSchema(CatalogFeatureRecordSchema);
export type FeaturesPage = z.infer<typeof FeaturesPageSchema>;

export const TYPE_CHANGE = ['Upgrade', 'Downgrade', 'None'] as const;
export const TypeChangeSchema = openEnum(TYPE_CHANGE);

/**
 * The quote of moving a subscription to another offer; nothing changes. `AmountTotalDue` is what
 * would be invoiced now (0 when the change waits for the end of the period, or with
 * BillNow=false, in which case `AmountTotal` joins the next renewal invoice). `NextTerm` is
 * always present: the recurring price once the change applies, from `DateEffective`.
 */
export const UpgradeQuoteSchema = z.looseObject({
  IdBusiness: z.optional(z.int()),
  IdSegment: z.optional(z.int()),
  ReferenceSegment: z.optional(z.string()),
  IdCustomer: z.optional(z.int()),
  ReferenceCustomer: z.optional(z.string()),
  IdSubscription: z.int(),
  IdOfferCurrent: z.optional(z.int()),
  ReferenceOfferCurrent: z.optional(z.string()),
  IdOffer: z.optional(z.int()),
  ReferenceOffer: z.string(),
  TitleLocalized: z.optional(z.string()),
  TypeChange: z.optional(TypeChangeSchema),
  IsImmediate: z.boolean(),
  BillNow: z.optional(z.boolean()),
  DateEffective: TimestampSchema,
  LabelLocalized: z.string(),
  PricingLocalized: z.string(),
  Currency: z.string(),
  AmountSubtotal: z.int(),
  AmountTotal: z.int(),
  AmountTotalDue: z.int(),
  DatePeriodStart: z.optional(TimestampSchema),
  DatePeriodEnd: z.optional(TimestampSchema),
  DatePeriodTerm: z.optional(TimestampSchema),
  Details: z.optional(z.array(PricingDetailSchema)),
  NextTerm: NextTermSchema,
});
export type UpgradeQuote = z.infer<typeof UpgradeQuoteSchema>;

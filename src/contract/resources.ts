import * as z from 'zod';
import {
  LinkRelSchema,
  StateInvoiceSchema,
  StateSubscriptionAfterTermSchema,
  StateSubscriptionSchema,
  TargetFeeSchema,
  TypeFeatureSchema,
  TypeOffSchema,
  TypePaymentSchema,
  UnitRecurrenceSchema,
  UnitTrialSchema,
  type LinkRel,
} from './enums.js';

// Every object schema is loose: the real service returns more fields than the seed shows,
// and they must survive a parse. Required/optional marking is "not shown" by the seed; fields
// the seed marks (opt) are optional, the rest are required.

/** ISO 8601 UTC timestamp as a string. */
export const TimestampSchema = z.string();

export const LinkSchema = z.looseObject({
  rel: LinkRelSchema,
  href: z.optional(z.string()),
  query: z.optional(z.string()),
});
export type Link = z.infer<typeof LinkSchema>;

export const LinksSchema = z.array(LinkSchema);

/** The first link of a given rel, or undefined. */
export function findLink(links: readonly Link[] | undefined, rel: LinkRel): Link | undefined {
  return links?.find((link) => link.rel === rel);
}

export const CustomerSchema = z.looseObject({
  Id: z.int(),
  ReferenceCustomer: z.string(),
  Name: z.optional(z.string()),
  Email: z.optional(z.string()),
  ReferenceSegment: z.optional(z.string()),
  IdSegment: z.optional(z.int()),
  /** The customer's language (a language tag); labels and prices are localized in it. */
  Language: z.optional(z.string()),
  ReferenceOffer: z.optional(z.string()),
  ReferenceAffiliation: z.optional(z.string()),
  /** Up to 5 string pairs of the business's own. */
  Metadata: z.optional(z.record(z.string(), z.string())),
  /**
   * Whether the customer's payment method works (the sandbox's customer record gives it; the
   * seed does not show it): what tells a suspension for a dead card from one for unpaid invoices.
   */
  IsPaymentMethodValid: z.optional(z.boolean()),
  Links: z.optional(LinksSchema),
});
export type Customer = z.infer<typeof CustomerSchema>;

/** Body of POST /v1/customer. */
export const CreateCustomerBodySchema = z.looseObject({
  ReferenceCustomer: z.string(),
  Name: z.string(),
  Email: z.string(),
  ReferenceSegment: z.string(),
});
export type CreateCustomerBody = z.infer<typeof CreateCustomerBodySchema>;

/** Body of POST /v1/CustomerBillingAddress. */
export const BillingAddressSchema = z.looseObject({
  Company: z.optional(z.string()),
  FirstName: z.optional(z.string()),
  LastName: z.optional(z.string()),
  AddressLine1: z.optional(z.string()),
  AddressLine2: z.optional(z.string()),
  ZipCode: z.optional(z.string()),
  City: z.optional(z.string()),
  Region: z.optional(z.string()),
  Country: z.optional(
    z.string().check(z.regex(/^[A-Z]{2}$/, 'Country must be a two-letter country code')),
  ),
  TaxInformation: z.optional(z.string()),
  Phone: z.optional(z.string()),
});
export type BillingAddress = z.infer<typeof BillingAddressSchema>;

export const FeatureSchema = z.looseObject({
  Id: z.int(),
  ReferenceFeature: z.string(),
  IsVisible: z.optional(z.boolean()),
  Properties: z.optional(z.string()),
  TitleLocalized: z.optional(z.string()),
  DescriptionLocalized: z.optional(z.string()),
  PricingLocalized: z.optional(z.string()),
  TypeFeature: TypeFeatureSchema,
  IsIncluded: z.optional(z.boolean()),
  IsEnabled: z.optional(z.boolean()),
  QuantityIncluded: z.optional(z.int()),
  QuantityCurrent: z.optional(z.int()),
});
export type Feature = z.infer<typeof FeatureSchema>;

export const DiscountSchema = z.looseObject({
  Id: z.int(),
  ReferenceDiscount: z.string(),
  TargetFee: TargetFeeSchema,
  ValueOff: z.int(),
  TypeOff: TypeOffSchema,
  Name: z.optional(z.string()),
  TitleLocalized: z.optional(z.string()),
});
export type Discount = z.infer<typeof DiscountSchema>;

export const SubscriptionSchema = z.looseObject({
  Id: z.int(),
  IdSegment: z.int(),
  IdOffer: z.int(),
  IdCustomer: z.int(),
  IdCustomerBuyer: z.optional(z.int()),
  ReferenceSegment: z.string(),
  ReferenceOffer: z.string(),
  ReferenceCustomer: z.string(),
  ReferenceCustomerBuyer: z.optional(z.string()),
  StateSubscription: StateSubscriptionSchema,
  DateStart: z.optional(TimestampSchema),
  DatePeriodStart: z.optional(TimestampSchema),
  DatePeriodEnd: z.optional(TimestampSchema),
  DateTerm: z.optional(TimestampSchema),
  DateResetConsumption: z.optional(TimestampSchema),
  StateSubscriptionAfterTerm: z.optional(StateSubscriptionAfterTermSchema),
  IsTrial: z.optional(z.boolean()),
  CountDaysTrial: z.optional(z.int()),
  IsEngaged: z.optional(z.boolean()),
  IsCustomerBillable: z.optional(z.boolean()),
  IsPaymentCappingReached: z.optional(z.boolean()),
  DateNextBilling: z.optional(TimestampSchema),
  TitleLocalized: z.optional(z.string()),
  AmountUpFront: z.optional(z.int()),
  DurationTrial: z.optional(z.int()),
  UnitTrial: z.optional(UnitTrialSchema),
  AmountRecurrence: z.optional(z.int()),
  DurationRecurrence: z.optional(z.int()),
  UnitRecurrence: z.optional(UnitRecurrenceSchema),
  CountMinRecurrences: z.optional(z.int()),
  Features: z.optional(z.array(FeatureSchema)),
  Discounts: z.optional(z.array(DiscountSchema)),
  DateUpdate: z.optional(TimestampSchema),
  /** An offer change scheduled for the end of the period (a downgrade): the offer then. */
  ReferenceOfferAfterTerm: z.optional(z.string()),
  /** That offer's title, in the language asked for. */
  TitleLocalizedAfterTerm: z.optional(z.string()),
  /** When that scheduled change takes effect. */
  DateOfferChange: z.optional(TimestampSchema),
  Links: z.optional(LinksSchema),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;

/** Body of POST /v1/Subscription. */
export const CreateSubscriptionBodySchema = z.looseObject({
  ReferenceCustomer: z.string(),
  ReferenceOffer: z.string(),
});
export type CreateSubscriptionBody = z.infer<typeof CreateSubscriptionBodySchema>;

export const InvoiceSchema = z.looseObject({
  Id: z.int(),
  IdSegment: z.int(),
  IdCustomer: z.int(),
  ReferenceSegment: z.string(),
  ReferenceCustomer: z.string(),
  FullNumber: z.string(),
  StateInvoice: StateInvoiceSchema,
  DateIssue: TimestampSchema,
  DatePaymentLimit: z.optional(TimestampSchema),
  /** When it was paid (the live service and the sandbox; null while unpaid). */
  DatePaid: z.optional(z.nullable(TimestampSchema)),
  TypePayment: z.optional(TypePaymentSchema),
  AmountSubtotal: z.int(),
  AmountTotal: z.int(),
  Currency: z.string(),
  DateUpdate: z.optional(TimestampSchema),
  Links: z.optional(LinksSchema),
});
export type Invoice = z.infer<typeof InvoiceSchema>;

/**
 * One feature of a customer. For `Limitation` and `Consumption`, a `QuantityIncluded` of -1
 * means unlimited access (the sandbox's representation; the seed does not show one).
 */
export const UsageSchema = z.looseObject({
  IdSegment: z.optional(z.int()),
  IdFeature: z.optional(z.int()),
  IdCustomer: z.optional(z.int()),
  IdSubscription: z.int(),
  IdOffer: z.optional(z.int()),
  ReferenceOffer: z.optional(z.string()),
  ReferenceSegment: z.optional(z.string()),
  ReferenceFeature: z.string(),
  ReferenceCustomer: z.optional(z.string()),
  TypeFeature: TypeFeatureSchema,
  QuantityIncluded: z.optional(z.int()),
  QuantityCurrent: z.optional(z.int()),
  IsIncluded: z.optional(z.boolean()),
  IsEnabled: z.optional(z.boolean()),
  DatePeriodStart: z.optional(TimestampSchema),
  DatePeriodEnd: z.optional(TimestampSchema),
  DateResetConsumption: z.optional(TimestampSchema),
  TitleLocalized: z.optional(z.string()),
});
export type Usage = z.infer<typeof UsageSchema>;

export { UNLIMITED_QUANTITY } from './constants.js';

export function pagedListSchema<T extends z.core.$ZodType>(item: T) {
  return z.looseObject({
    Page: z.int(),
    SizePage: z.int(),
    Count: z.int(),
    TotalItems: z.int(),
    Items: z.array(item),
  });
}
export const UsagesPageSchema = pagedListSchema(UsageSchema);
export const InvoicesPageSchema = pagedListSchema(InvoiceSchema);
export const SubscriptionsPageSchema = pagedListSchema(SubscriptionSchema);
export type InvoicesPage = z.infer<typeof InvoicesPageSchema>;
export type UsagesPage = z.infer<typeof UsagesPageSchema>;

/** Body of POST /v1/Pricing/Usage. */
export const PricingUsageBodySchema = z.looseObject({
  ReferenceCustomer: z.string(),
  ReferenceFeature: z.string(),
  Increment: z.int(),
  DateStamp: z.optional(TimestampSchema),
  NextTerm: z.optional(z.boolean()),
  /** Limitation: the new absolute quantity (instead of Increment). */
  QuantityCurrent: z.optional(z.int()),
  /** OnOff: switch the feature on or off (instead of Increment). */
  IsEnabled: z.optional(z.boolean()),
  /** The subscription, when the customer has several. */
  IdSubscription: z.optional(z.int()),
  EnsureBillable: z.optional(z.boolean()),
});
export type PricingUsageBody = z.infer<typeof PricingUsageBodySchema>;

/** Body of POST /v1/Usage. */
export const UsageChangeBodySchema = z.looseObject({
  ReferenceCustomer: z.string(),
  ReferenceFeature: z.string(),
  Increment: z.int(),
  DateStamp: z.optional(TimestampSchema),
  QuantityCurrent: z.optional(z.int()),
  IsEnabled: z.optional(z.boolean()),
  IdSubscription: z.optional(z.int()),
});
export type UsageChangeBody = z.infer<typeof UsageChangeBodySchema>;

/** A line of a price: the seed's fields, and the current reference's (due now, quantities, period or move date). */
export const PricingDetailSchema = z.looseObject({
  LabelLocalized: z.optional(z.string()),
  PricingLocalized: z.optional(z.string()),
  AmountSubtotal: z.optional(z.int()),
  AmountTotal: z.optional(z.int()),
  /** The live reference's name for the line's amount due now, tax included. */
  AmountTotalDue: z.optional(z.int()),
  QuantityReported: z.optional(z.number()),
  QuantityBilled: z.optional(z.number()),
  DatePeriodStart: z.optional(TimestampSchema),
  DatePeriodEnd: z.optional(TimestampSchema),
  DateMove: z.optional(TimestampSchema),
});
export type PricingDetail = z.infer<typeof PricingDetailSchema>;

export const NextTermSchema = z.looseObject({
  LabelLocalized: z.string(),
  PricingLocalized: z.string(),
  AmountSubtotal: z.int(),
  AmountTotal: z.int(),
  AmountTotalDue: z.optional(z.int()),
  DatePeriodStart: z.optional(TimestampSchema),
  DatePeriodEnd: z.optional(TimestampSchema),
});
export type NextTerm = z.infer<typeof NextTermSchema>;

/**
 * A quote as the proxy hands it on: the seed's names, always present. The service may answer the
 * seed's form or the live reference's (see PricingUsageAnswerSchema); the proxy reads either
 * into this one.
 */
export const PricingUsageResultSchema = z.looseObject({
  IdBusiness: z.optional(z.int()),
  IdSegment: z.optional(z.int()),
  IdCustomer: z.optional(z.int()),
  IdSubscription: z.optional(z.int()),
  IdFeature: z.optional(z.int()),
  ReferenceSegment: z.optional(z.string()),
  ReferenceCustomer: z.optional(z.string()),
  ReferenceFeature: z.string(),
  LabelLocalized: z.string(),
  PricingLocalized: z.string(),
  Currency: z.string(),
  AmountSubtotal: z.int(),
  AmountTotal: z.int(),
  /** Due now, tax included (the current reference's name). */
  AmountTotalDue: z.optional(z.int()),
  DatePeriodStart: z.optional(TimestampSchema),
  DatePeriodTerm: z.optional(TimestampSchema),
  /** The current reference's name of DatePeriodTerm. */
  DatePeriodEnd: z.optional(TimestampSchema),
  Details: z.optional(z.array(PricingDetailSchema)),
  NextTerm: z.optional(NextTermSchema),
});
export type PricingUsageResult = z.infer<typeof PricingUsageResultSchema>;

const NextTermAnswerSchema = NextTermSchema.partial().extend({
  AmountTotalDue: z.optional(z.int()),
});
export type NextTermAnswer = z.infer<typeof NextTermAnswerSchema>;

/**
 * A quote as the service answers it (pricing a usage change): the seed's fields (`AmountTotal`,
 * `DatePeriodTerm`) or the live reference's (`AmountTotalDue`, `DatePeriodEnd`, `Details` with
 * `QuantityBilled`...), or both. Every amount and label is optional here; which ones must be
 * present is checked when the proxy reads it into a PricingUsageResult.
 */
export const PricingUsageAnswerSchema = PricingUsageResultSchema.partial().extend({
  Currency: z.string(),
  AmountTotalDue: z.optional(z.int()),
  DatePeriodEnd: z.optional(TimestampSchema),
  NextTerm: z.optional(NextTermAnswerSchema),
});
export type PricingUsageAnswer = z.infer<typeof PricingUsageAnswerSchema>;

/** Parameters of `ServicePortal.open` (the embedded-page method). */
export const PortalOpenParamsSchema = z.object({
  business_id: z.int(),
  segment_ref: z.string(),
  customer_ref: z.string(),
  query: z.string(),
  hash: z.string(),
});
export type PortalOpenParams = z.infer<typeof PortalOpenParamsSchema>;

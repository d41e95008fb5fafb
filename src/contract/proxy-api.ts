import * as z from 'zod';
import { FEATURE_REFERENCE_PATTERN, IDEMPOTENCY_KEY_PATTERN } from './constants.js';
import type { Offer, UpgradeQuote } from './catalog.js';
import type { NextTerm, PricingUsageResult, Usage } from './resources.js';

// The contract between the browser runtime (src/client) and the billing proxy (src/server).
// Field names here are ours and stable; resources of the billing service keep the seed's names.

export { FEATURE_REFERENCE_PATTERN, IDEMPOTENCY_KEY_PATTERN } from './constants.js';

export const FeatureReferenceSchema = z
  .string()
  .check(
    z.regex(
      FEATURE_REFERENCE_PATTERN,
      'feature must be 1-128 letters, digits, ".", "_", ":" or "-"',
    ),
  );

export const IdempotencyKeySchema = z
  .string()
  .check(
    z.regex(IDEMPOTENCY_KEY_PATTERN, 'idempotencyKey must be 16-128 letters, digits, "_" or "-"'),
  );

/** Body of `POST /pricing`. */
export const PricingRequestSchema = z.strictObject({
  feature: FeatureReferenceSchema,
  increment: z.int(),
});
export type PricingRequest = z.infer<typeof PricingRequestSchema>;

/**
 * Body of `POST /usage`: a purchase the user confirmed at `confirmedAmountTotal` due now and,
 * when the price said it, `confirmedNextTermAmountTotal` per period afterwards (the proxy then
 * refuses the purchase when either is no longer the service's; pages of earlier versions send
 * the first alone).
 */
export const PurchaseRequestSchema = z.strictObject({
  feature: FeatureReferenceSchema,
  increment: z.int(),
  idempotencyKey: IdempotencyKeySchema,
  confirmedAmountTotal: z.int().min(0),
  confirmedNextTermAmountTotal: z.optional(z.int().min(0)),
});
export type PurchaseRequest = z.infer<typeof PurchaseRequestSchema>;

/**
 * Body of `POST /pricing` for an on/off feature: the price of switching it on (`enabled: true`,
 * buying the add-on) or off (removing it).
 */
export const AddOnPricingRequestSchema = z.strictObject({
  feature: FeatureReferenceSchema,
  enabled: z.boolean('enabled must be true or false'),
});
export type AddOnPricingRequest = z.infer<typeof AddOnPricingRequestSchema>;

/**
 * Body of `POST /usage` for an on/off feature: switching an add-on on or off, confirmed at
 * `confirmedAmountTotal` due now and `confirmedNextTermAmountTotal` per period afterwards (a
 * removal costs nothing now: what the customer confirms is the lower recurring price).
 */
export const AddOnChangeRequestSchema = z.strictObject({
  feature: FeatureReferenceSchema,
  enabled: z.boolean('enabled must be true or false'),
  idempotencyKey: IdempotencyKeySchema,
  confirmedAmountTotal: z.int().min(0),
  confirmedNextTermAmountTotal: z.int().min(0),
});
export type AddOnChangeRequest = z.infer<typeof AddOnChangeRequestSchema>;

/**
 * Body of `POST /pricing` for a decrease: the price of lowering a Limitation feature the customer
 * owns to `quantity` (the new absolute quantity, sent to the service as `QuantityCurrent`).
 * `inUse` is how many the page says are in use: the proxy refuses a quantity below it (or below
 * its own `inUse` option's answer, which a page cannot lower).
 */
export const DecreasePricingRequestSchema = z.strictObject({
  feature: FeatureReferenceSchema,
  quantity: z.int('must be a whole number').min(0, 'cannot be below 0'),
  inUse: z.int('must be a whole number').min(0, 'cannot be below 0').optional(),
});
export type DecreasePricingRequest = z.infer<typeof DecreasePricingRequestSchema>;

/**
 * Body of `POST /usage` for a decrease: a Limitation lowered to `quantity`, confirmed at
 * `confirmedAmountTotal` now (0 where the service credits nothing now, as the sandbox does;
 * negative for a service that credits) and `confirmedNextTermAmountTotal` per period afterwards
 * (the lower recurring price).
 */
export const DecreaseRequestSchema = z.strictObject({
  ...DecreasePricingRequestSchema.shape,
  idempotencyKey: IdempotencyKeySchema,
  confirmedAmountTotal: z.int(),
  confirmedNextTermAmountTotal: z.int().min(0),
});
export type DecreaseRequest = z.infer<typeof DecreaseRequestSchema>;

/** Body of `POST /plan/quote`: the price of moving the customer's subscription to `offer`. */
export const PlanQuoteRequestSchema = z.strictObject({
  offer: FeatureReferenceSchema,
});
export type PlanQuoteRequest = z.infer<typeof PlanQuoteRequestSchema>;

/**
 * Body of `POST /plan`: a plan change the user confirmed at `confirmedAmountTotal` due now and
 * `confirmedNextTermAmountTotal` per period afterwards.
 */
export const PlanChangeRequestSchema = z.strictObject({
  offer: FeatureReferenceSchema,
  idempotencyKey: IdempotencyKeySchema,
  confirmedAmountTotal: z.int().min(0),
  confirmedNextTermAmountTotal: z.int().min(0),
});
export type PlanChangeRequest = z.infer<typeof PlanChangeRequestSchema>;

/** Pages of the portal the proxy can open (`GET /portal?page=` and `GET /links?page=`). */
export const PORTAL_PAGES = [
  'home',
  'offers',
  'subscribe',
  'register',
  'change-plan',
  'restart',
  'pay-invoice',
] as const;
export type PortalPage = (typeof PORTAL_PAGES)[number];

/** Query of `GET /portal` and `GET /links`. `offer` for subscribe/change-plan, `subscription` for change-plan to a custom subscription, `invoice` for pay-invoice. */
export interface PortalRequest {
  page: PortalPage;
  offer?: string;
  subscription?: number;
  invoice?: number;
}

/** `GET /usages` */
export interface UsagesResponse {
  usages: Usage[];
  /**
   * Present when the customer's subscription is suspended: its usages give no rights until it
   * runs again (restart it; pay the overdue invoices first when `paymentCappingReached`; add a
   * payment method first when `reason` is `payment-method-invalid`). `reason` is absent from
   * older proxies.
   */
  suspended?: { paymentCappingReached: boolean; reason?: SuspensionReason };
}

/** `POST /pricing`: the service's pricing result, NextTerm included. */
export type PricingResponse = PricingUsageResult & {
  NextTerm?: NextTerm;
  /**
   * The largest increment the proxy accepts in one change (its `limits.maxIncrement`): a larger
   * one is refused (400 `validation`) before reaching the service. Absent from older proxies.
   */
  maxIncrement?: number;
  /**
   * Whether the user must confirm this price before it is applied: false only when the change
   * costs nothing now (`AmountTotal` 0) and does not raise the recurring price either (its
   * `NextTerm.AmountTotal` is no higher than the subscription's current recurring total after
   * discounts). True whenever the proxy cannot tell. Absent from older proxies and from the
   * `pricing` of a `price-changed` refusal: treat absent as true.
   */
  confirmationRequired?: boolean;
  /** Whether these prices include tax, as the proxy's `taxes` option says; absent when unset. */
  taxes?: TaxTreatment;
};

/**
 * Whether prices include tax (`included`) or have it added on the invoice (`excluded`): the
 * business's word (the proxy's `taxes` option), since the service's quotes do not tell it.
 */
export type TaxTreatment = 'included' | 'excluded';

/**
 * Why a change cannot be bought in the customer's state now: a plan that lacks the feature, no
 * payment method, overdue invoices, a subscription suspended, waiting for its checkout, or none.
 * Codes and messages are those of the same refusal of a confirmed change (see PROXY_ERROR_CODES).
 */
export const PRICING_REFUSAL_CODES = [
  'Error.Api.Usage.NoneMatching',
  'Error.Customer.PaymentSettings.Missing',
  'Error.Customer.Billing.CappingReached',
  'subscription-suspended',
  'payment-method-invalid',
  'subscription-pending',
  'no-subscription',
] as const;
export type PricingRefusalCode = (typeof PRICING_REFUSAL_CODES)[number];

/**
 * `POST /pricing` for a change the customer cannot make yet: answered 200, as a state of the
 * customer the page shows (a preview changes nothing, so nothing failed). A confirmed change
 * refused for the same reason is an HTTP error.
 */
export interface PricingRefusal {
  refusal: { code: PricingRefusalCode; message: string };
}

/** `POST /usage` */
export interface PurchaseResponse {
  /** The feature's usage after the purchase. */
  usage: Usage;
  /** The amount the customer confirmed and the service quoted just before applying (hundredths). */
  amountTotal: number;
  /**
   * False when the service's answer shows that something else changed the feature between the
   * price check and the apply (the quantity after it is not the one before plus the purchase),
   * or when that could not be checked: the amount charged may then differ from `amountTotal`,
   * and only the invoices tell. Absent from older proxies: treat absent as true.
   */
  amountConfirmed?: boolean;
  /** True when this answer is the stored outcome of an earlier request with the same key. */
  replayed: boolean;
}

/** `POST /usage` with `enabled`: an add-on switched on or off. */
export interface AddOnChangeResponse {
  /** The feature's usage after the change (`IsEnabled` as confirmed). */
  usage: Usage;
  /** The amount confirmed and quoted just before applying (hundredths), due now. */
  amountTotal: number;
  /** The recurring price confirmed and quoted just before applying (hundredths per period). */
  nextTermAmountTotal: number;
  /** True when this answer is the stored outcome of an earlier request with the same key. */
  replayed: boolean;
}

/** `POST /usage` with `quantity`: a Limitation lowered. */
export interface DecreaseResponse {
  /** The feature's usage after the decrease (`QuantityCurrent` as confirmed). */
  usage: Usage;
  /** The amount confirmed and quoted just before applying (hundredths): 0 when nothing is credited, negative for a credit. */
  amountTotal: number;
  /** The recurring price confirmed and quoted just before applying (hundredths per period). */
  nextTermAmountTotal: number;
  /** True when this answer is the stored outcome of an earlier request with the same key. */
  replayed: boolean;
}

/**
 * A subscription the business prepared for the customer to switch to (a custom offer, often of a
 * plan sold on request), as an offer: its plan's reference, title, features and its own recurring
 * price after its discounts. Taken through the service's change-plan workflow on it (`GET
 * /portal?page=change-plan&subscription=id`), which shows its terms before the customer confirms.
 */
export interface PreparedOffer {
  /** The prepared subscription's id. */
  subscription: number;
  offer: Offer;
}

/**
 * `GET /offers`: the offers of the customer's segment's visible grid (`IsCurrent` marks theirs),
 * and the subscriptions the business prepared for a customer whose subscription is running.
 */
export interface OffersResponse {
  offers: Offer[];
  prepared: PreparedOffer[];
  /** Whether the offers' prices include tax (the proxy's `taxes` option); absent when unset. */
  taxes?: TaxTreatment;
}

/**
 * `POST /plan/quote`: the service's quote of the change (nothing changed): `AmountTotalDue` now,
 * `NextTerm` the recurring price from `DateEffective` (immediately for an upgrade, at the end of
 * the period for a downgrade: `IsImmediate`).
 */
export type PlanQuoteResponse = UpgradeQuote;

/** `POST /plan` */
export interface PlanChangeResponse {
  /** The offer the subscription is on now. */
  offer: string;
  /** The offer it moves to at the end of the period (a downgrade), or null. */
  offerAfterTerm: string | null;
  /** When the change takes (or took) effect. */
  dateEffective: string | null;
  /** The amount confirmed and quoted just before changing (hundredths), due now. */
  amountTotal: number;
  /** True when this answer is the stored outcome of an earlier request with the same key. */
  replayed: boolean;
}

/** `GET /portal`: what `ServicePortal.open` needs. */
export interface PortalResponse {
  scriptUrl: string;
  /** Allowed origin of the hosted pages, for the elements' link checks. */
  hostedOrigin: string;
  params: {
    business_id: number;
    segment_ref: string;
    customer_ref: string;
    query: string;
    hash: string;
  };
}

/** `GET /links`: an in-site address for the page. */
export interface LinksResponse {
  url: string;
  /**
   * Origin of the service's hosted pages, which the element follows too (the portal already runs
   * its script): the sandbox's stand-in installation page lives there.
   */
  hostedOrigin?: string;
}

export type SubscriptionStatus = 'running' | 'suspended' | 'pending' | 'ended' | 'none' | 'other';
/**
 * Why a subscription is suspended, as it stands now: `payment-due` (overdue invoices),
 * `payment-method-invalid` (the payment method no longer works: update it, then restart),
 * `business` (suspended by the business) or `other` (nothing but a restart is left, e.g. the
 * dead card was replaced).
 */
export type SuspensionReason = 'payment-due' | 'payment-method-invalid' | 'business' | 'other';

export interface DueInvoice {
  id: number;
  number: string;
  amountTotal: number;
  currency: string;
  dateIssue: string;
  datePaymentLimit?: string;
}

/** `GET /subscription` */
export interface SubscriptionStatusResponse {
  status: SubscriptionStatus;
  /** The service's own state value (StateSubscription), or null without subscription. */
  state: string | null;
  suspensionReason: SuspensionReason | null;
  paymentCappingReached: boolean;
  subscriptionId: number | null;
  offer: string | null;
  title: string | null;
  periodEnd: string | null;
  /**
   * A plan change scheduled for the end of the period (a downgrade the customer confirmed): the
   * offer it changes to, its title, and the date; null when nothing is scheduled. The current
   * offer is kept by moving to it again (`POST /plan` with `offer`: the current one).
   */
  offerAfterTerm: string | null;
  titleAfterTerm: string | null;
  dateOfferChange: string | null;
  dueInvoices: DueInvoice[];
  /**
   * The subscription's discounts on its recurring price (TargetFee `All` or `Recurring`), by
   * their title in the request's language. They stay with the subscription when its plan
   * changes, so a plan's list price is not what this customer pays.
   */
  discounts?: SubscriptionDiscount[];
}

/**
 * An invoice in the customer's words: `due` (to pay, its payment limit not passed), `overdue`
 * (to pay, the limit passed), `paid`, `credit-note` (a negative total: money owed to the
 * customer), `cancelled`, or `other` for a state the service adds later.
 */
export type InvoiceStatus = 'paid' | 'due' | 'overdue' | 'credit-note' | 'cancelled' | 'other';

/** One invoice of `GET /invoices`. Amounts in hundredths of `currency`, as the service gives them. */
export interface InvoiceSummary {
  id: number;
  /** The invoice number (FullNumber). */
  number: string;
  status: InvoiceStatus;
  /** The service's own state value (StateInvoice). */
  state: string;
  dateIssue: string;
  datePaymentLimit: string | null;
  datePaid: string | null;
  /** Before tax (AmountSubtotal). */
  amountSubtotal: number;
  /** Tax included (AmountTotal): the amount the customer pays. */
  amountTotal: number;
  currency: string;
  /** Whether the service offers its payment workflow for it now (`GET /portal?page=pay-invoice&invoice=id`). */
  payable: boolean;
  /** The invoice document, a page of the service (its hosted-related-invoice link); null without one. */
  documentUrl: string | null;
}

/** `GET /invoices?page=N&size=M`: one page of the customer's invoices, newest first. */
export interface InvoicesResponse {
  invoices: InvoiceSummary[];
  /** The page answered, from 1. */
  page: number;
  /** Invoices per page. */
  size: number;
  /** Every invoice of the customer, all pages together. */
  total: number;
  /** Origin of the service's hosted pages: the documents open there. */
  hostedOrigin?: string;
  /** Present when the customer's subscription is suspended (as in `GET /usages`). */
  suspended?: { paymentCappingReached: boolean; reason?: SuspensionReason };
}

/** A discount of the subscription, as the service titles it ("20% off everything"). */
export interface SubscriptionDiscount {
  reference: string;
  title: string;
  /**
   * What it takes off each period's recurring price, when the service says how: a share in
   * ten-thousandths (`{ perTenThousand: 2000 }`: 20 %) or an amount in hundredths of the
   * currency (`{ amount: 500 }`). Absent for any other kind: then a plan's price after the
   * discount is not told. Absent from older proxies.
   */
  off?: { perTenThousand: number } | { amount: number };
  /**
   * The charges it applies to (the service's TargetFee): `all` (the recurring price and the use
   * charged beyond the plan) or `recurring` (the recurring price only). Absent from older
   * proxies.
   */
  fees?: 'all' | 'recurring';
}

/**
 * `POST /stream-ticket`: what opens the event stream of a page identified by a token
 * (`GET /events?ticket=...`), since EventSource sends no Authorization header. Single-use.
 */
export interface StreamTicket {
  ticket: string;
  /** When it no longer opens a stream (ISO 8601), a minute after it was made. */
  expiresAt: string;
}

/** Error codes of the proxy that are not the billing service's own. */
export const PROXY_ERROR_CODES = [
  'unauthenticated',
  'token-expired',
  'token-invalid',
  'validation',
  'payload-too-large',
  'unsupported-media-type',
  'forbidden-origin',
  'session-changed',
  'invalid-signature',
  'not-found',
  'method-not-allowed',
  'price-changed',
  'period-ending',
  'offer-on-request',
  'already-on-offer',
  'add-on-already-on',
  'add-on-already-off',
  'not-a-decrease',
  'below-in-use',
  'below-included',
  'idempotency-key-reused',
  'subscription-suspended',
  'payment-method-invalid',
  'subscription-pending',
  'already-subscribed',
  'no-subscription',
  'rate-limited',
  'upstream-timeout',
  'upstream-unavailable',
  'upstream-error',
  'store-unavailable',
  'shutting-down',
  'internal',
] as const;
export type ProxyErrorCode = (typeof PROXY_ERROR_CODES)[number];

/** Every error answer of the proxy. `code` is a seed error code or one of PROXY_ERROR_CODES. */
export interface ProxyErrorBody {
  code: string;
  message: string;
  /** With `price-changed` and `period-ending`: the current price, to show and confirm again. */
  pricing?: PricingResponse;
  /** With `price-changed` on `POST /plan`: the current quote of the plan change. */
  quote?: PlanQuoteResponse;
  /** With `validation`: the offending field. */
  field?: string;
}

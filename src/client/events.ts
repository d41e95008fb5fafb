import type { PortalPage, PricingResponse } from '../contract/proxy-api.js';
import type { Usage } from '../contract/resources.js';
import type { BillingError } from './errors.js';

// Every event of the elements: one class per event, `bubbles` and `composed` so the host page
// hears it from inside any shadow root, names prefixed `billing-`.

/**
 * Base of every billing event: a CustomEvent that bubbles out of shadow roots, cancelable only
 * when told (left out, the event init's default is false).
 */
export class BillingEvent<Detail> extends CustomEvent<Detail> {
  constructor(type: string, detail: Detail, cancelable?: boolean) {
    super(type, { detail, bubbles: true, composed: true, cancelable });
  }
}

/**
 * Base of the event classes below: each names its event in a static `type` (for listeners:
 * `addEventListener(BillingPurchaseEvent.type, ...)`) and says in a static `cancelable` whether
 * the host may cancel it; `new` takes only the detail.
 */
abstract class TypedBillingEvent<Detail> extends BillingEvent<Detail> {
  declare static readonly type: string;
  /** Left out, false (the event init's default). */
  declare static readonly cancelable?: boolean;
  constructor(detail: Detail) {
    const eventClass = new.target as unknown as typeof TypedBillingEvent;
    super(eventClass.type, detail, eventClass.cancelable);
  }
}

/** Level of a meter against its thresholds. */
export type ThresholdLevel = 'normal' | 'warning' | 'critical';

export interface ThresholdDetail {
  feature: string;
  level: ThresholdLevel;
  previousLevel: ThresholdLevel;
  /** Used quantity divided by the included quantity. */
  ratio: number;
}

/** `billing-threshold`: a meter crossed its warning or critical threshold (either way). */
export class BillingThresholdEvent extends TypedBillingEvent<ThresholdDetail> {
  static override readonly type = 'billing-threshold';
}

export interface ErrorDetail {
  error: BillingError;
  /** `error.code`, for listeners that read only plain data (analytics). */
  code: string;
  /** `error.message`, likewise. */
  message: string;
  /** The feature concerned, when there is one. */
  feature?: string;
  /** The portal page that remedies the error, when there is one. */
  remedy?: PortalPage;
}

/** `billing-error`: an element could not load or apply something. */
export class BillingErrorEvent extends TypedBillingEvent<ErrorDetail> {
  static override readonly type = 'billing-error';
  constructor(detail: Omit<ErrorDetail, 'code' | 'message'>) {
    super({
      ...detail,
      code: detail.error.code,
      message: detail.error.message,
    });
  }
}

export interface RemedyDetail {
  /** The portal page about to open. */
  page: PortalPage;
  /** The error code that calls for it, when it answers an error. */
  code?: string;
  feature?: string;
  /** The plan a `change-plan` page moves to, when one is suggested (the one that includes the feature). */
  offer?: string;
  /** The custom subscription a `change-plan` page moves to, one the business prepared (`<plan-picker>`). */
  subscription?: number;
  /** The invoice to pay, when `<billing-history>` asks for the payment of one. */
  invoice?: number;
}

/** `billing-remedy`: the user asked for a portal workflow; cancel it to open it yourself. */
export class BillingRemedyEvent extends TypedBillingEvent<RemedyDetail> {
  static override readonly type = 'billing-remedy';
  static override readonly cancelable = true;
}

export interface BeforePurchaseDetail {
  feature: string;
  increment: number;
  /** The price the user is confirming. */
  pricing: PricingResponse;
}

/** `billing-before-purchase`: a confirmed purchase is about to be applied; cancelable. */
export class BillingBeforePurchaseEvent extends TypedBillingEvent<BeforePurchaseDetail> {
  static override readonly type = 'billing-before-purchase';
  static override readonly cancelable = true;
}

export interface PurchaseDetail {
  feature: string;
  increment: number;
  /** The feature's usage after the purchase. */
  usage: Usage;
  /** The amount confirmed and quoted just before applying, in hundredths of the currency unit. */
  amountTotal: number;
  /**
   * False when the service showed that something else changed the feature at the same time: the
   * amount charged may then differ from `amountTotal` (the invoices tell).
   */
  amountConfirmed: boolean;
  /** True when the proxy answered with the stored outcome of an earlier attempt. */
  replayed: boolean;
}

/** `billing-purchase`: a purchase was applied. */
export class BillingPurchaseEvent extends TypedBillingEvent<PurchaseDetail> {
  static override readonly type = 'billing-purchase';
}

export interface BeforeAddOnChangeDetail {
  feature: string;
  /** True to add the add-on, false to remove it. */
  enabled: boolean;
  /** The price the user is confirming (now, and `NextTerm` per period afterwards). */
  pricing: PricingResponse;
}

/** `billing-before-add-on-change`: a confirmed add-on change is about to be applied; cancelable. */
export class BillingBeforeAddOnChangeEvent extends BillingEvent<BeforeAddOnChangeDetail> {
  static readonly type = 'billing-before-add-on-change';
  constructor(detail: BeforeAddOnChangeDetail) {
    super(BillingBeforeAddOnChangeEvent.type, detail, true);
  }
}

export interface AddOnChangeDetail {
  feature: string;
  /** True when the add-on was added, false when it was removed. */
  enabled: boolean;
  /** The feature's usage after the change. */
  usage: Usage;
  /** The amount confirmed and charged now, in hundredths of the currency unit. */
  amountTotal: number;
  /** The recurring price confirmed from the next term, in hundredths per period. */
  nextTermAmountTotal: number;
  /** True when the proxy answered with the stored outcome of an earlier attempt. */
  replayed: boolean;
}

/** `billing-add-on-change`: an on/off add-on was added or removed. */
export class BillingAddOnChangeEvent extends BillingEvent<AddOnChangeDetail> {
  static readonly type = 'billing-add-on-change';
  constructor(detail: AddOnChangeDetail) {
    super(BillingAddOnChangeEvent.type, detail);
  }
}

/** The hosted workflows whose completion the portal script reports. */
export type PortalWorkflow =
  'register' | 'charge' | 'restart' | 'upgrade' | 'subscribe' | (string & {});

export interface PortalDetail {
  page: PortalPage;
}

/** `billing-portal-ready`: the hosted portal page is shown. */
export class BillingPortalReadyEvent extends TypedBillingEvent<PortalDetail> {
  static override readonly type = 'billing-portal-ready';
}

export interface PortalCompleteDetail extends PortalDetail {
  workflow: PortalWorkflow;
}

/** `billing-portal-complete`: a hosted workflow completed; the usages are being refreshed. */
export class BillingPortalCompleteEvent extends TypedBillingEvent<PortalCompleteDetail> {
  static override readonly type = 'billing-portal-complete';
}

export interface UpdatedDetail {
  /** The proxy whose customer's billing changed. */
  endpoint: string;
}

/**
 * `billing-updated` (on `document`): the proxy said the signed-in customer's billing changed
 * (a notification of the billing service, a purchase in another tab or device) and the page
 * re-read its usages. Refresh your own billing-dependent UI on it.
 */
export class BillingUpdatedEvent extends TypedBillingEvent<UpdatedDetail> {
  static override readonly type = 'billing-updated';
}

export interface PlanChangeDetail {
  /** The offer chosen. */
  offer: string;
  /** The offer the subscription is on now (the chosen one, unless the change waits). */
  currentOffer: string;
  /** The offer it moves to at the end of the period (a downgrade), or null. */
  offerAfterTerm: string | null;
  /** When the change takes (or took) effect, an ISO timestamp, or null. */
  dateEffective: string | null;
  /** The amount confirmed and due now, in hundredths of the currency unit. */
  amountTotal: number;
  /** True when the proxy answered with the stored outcome of an earlier attempt. */
  replayed: boolean;
}

/** `billing-plan-change`: the customer's plan was changed (or the change was scheduled). */
export class BillingPlanChangeEvent extends TypedBillingEvent<PlanChangeDetail> {
  static override readonly type = 'billing-plan-change';
}

export interface EntitlementChangeDetail {
  feature: string;
  /** Whether the customer may use the feature now. */
  entitled: boolean;
  /** What was known before: undefined the first time the usages tell. */
  previous: boolean | undefined;
}

/** `billing-entitlement-change`: a `<feature-gate>` learned or saw a change of entitlement. */
export class BillingEntitlementChangeEvent extends TypedBillingEvent<EntitlementChangeDetail> {
  static override readonly type = 'billing-entitlement-change';
}

declare global {
  interface GlobalEventHandlersEventMap {
    'billing-plan-change': BillingPlanChangeEvent;
    'billing-entitlement-change': BillingEntitlementChangeEvent;
    'billing-threshold': BillingThresholdEvent;
    'billing-error': BillingErrorEvent;
    'billing-remedy': BillingRemedyEvent;
    'billing-before-purchase': BillingBeforePurchaseEvent;
    'billing-purchase': BillingPurchaseEvent;
    'billing-before-add-on-change': BillingBeforeAddOnChangeEvent;
    'billing-add-on-change': BillingAddOnChangeEvent;
    'billing-portal-ready': BillingPortalReadyEvent;
    'billing-portal-complete': BillingPortalCompleteEvent;
    'billing-updated': BillingUpdatedEvent;
  }
}

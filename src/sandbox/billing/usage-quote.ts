import type { KnownTypeFeature } from '../../contract/enums.js';
import { bothLanguages, isAddOn, type Catalog, type CatalogFeature } from '../catalog.js';
import { iso } from '../clock.js';
import { ApiError, notFound } from '../http/errors.js';
import type { OfferFeature } from '../fixtures/schema.js';
import type { SubscriptionFeatureRecord, SubscriptionRecord } from '../state/types.js';
import {
  discountLine,
  flatOff,
  offerOf,
  percentOff,
  proratedCharge,
  proratedLabel,
  recurringPrice,
  subscriptionDiscounts,
  UNLIMITED,
  type PriceLine,
  type RecurringPrice,
} from './pricing.js';

// The price of one usage change (endpoints 14 and 15). A change is exactly one of:
// - Increment: add to the current quantity (Limitation, Consumption);
// - QuantityCurrent: the new absolute quantity (Limitation);
// - IsEnabled: switch an OnOff feature on or off. Switching on an add-on (an OnOff feature the
//   offer sells apart) is charged prorated like extra seats; switching off is free and lowers the
//   next term; switching a feature the plan includes costs nothing.

export type UsageChange =
  | { kind: 'Increment'; increment: number }
  | { kind: 'QuantityCurrent'; quantity: number }
  | { kind: 'IsEnabled'; enabled: boolean };

export interface Quote {
  featureRef: string;
  featureId: number;
  type: KnownTypeFeature;
  /** Limitation/Consumption quantities; OnOff: 1 when switched on, 0 when off. */
  quantityBefore: number;
  quantityAfter: number;
  /** OnOff only. */
  enabledBefore?: boolean;
  enabledAfter?: boolean;
  amountSubtotal: number;
  amountTotal: number;
  lines: PriceLine[];
  nextTerm: RecurringPrice;
  periodStart: string;
  periodEnd: string;
}

interface Feature {
  definition: CatalogFeature;
  offerFeature: OfferFeature;
  record: SubscriptionFeatureRecord;
  title: { en: string; fr: string };
}

function validation(message: string, target: string): ApiError {
  return new ApiError(422, 'Error.Api.Validation', message, target);
}

function outOfRange(message: string, target: string): ApiError {
  return new ApiError(422, 'Error.Api.Usage.QuantityOutOfRange', message, target);
}

/** The feature in the subscription's plan, or the seed's NoneMatching refusal. */
function featureInPlan(catalog: Catalog, sub: SubscriptionRecord, featureRef: string): Feature {
  const offer = offerOf(catalog, sub);
  const definition = catalog.features.get(featureRef);
  const offerFeature = offer.featureByRef.get(featureRef);
  const record = sub.features[featureRef];
  // An OnOff feature the plan neither includes nor sells as an add-on is not part of it either.
  const excluded =
    offerFeature?.included === false && !isAddOn(offerFeature, definition ?? undefined);
  if (!definition || !offerFeature || !record || excluded) {
    throw notFound(
      'Error.Api.Usage.NoneMatching',
      `The subscription does not include the feature '${featureRef}'.`,
      'ReferenceFeature',
    );
  }
  return { definition, offerFeature, record, title: bothLanguages(definition.title) };
}

/**
 * Prices a usage change without changing anything. Throws, in this order: feature not in plan
 * (404), a change that does not fit the feature's type (422), quantity rules (422). Subscription
 * state and payment method are checked by the caller, which knows the customer.
 */
export function quoteUsageChange(
  catalog: Catalog,
  sub: SubscriptionRecord,
  featureRef: string,
  change: UsageChange,
  nowMs: number,
): Quote {
  const feature = featureInPlan(catalog, sub, featureRef);
  const { definition } = feature;
  if (definition.type === 'OnOff') {
    if (change.kind !== 'IsEnabled') {
      throw validation(
        `'${featureRef}' is an OnOff feature: switch it with IsEnabled, it has no quantity.`,
        change.kind,
      );
    }
    return quoteSwitch(catalog, sub, feature, change.enabled, nowMs);
  }
  if (change.kind === 'IsEnabled') {
    throw validation(
      `'${featureRef}' is a ${definition.type} feature: change it with Increment${definition.type === 'Limitation' ? ' or QuantityCurrent' : ''}.`,
      'IsEnabled',
    );
  }
  if (change.kind === 'QuantityCurrent' && definition.type === 'Consumption') {
    throw validation(
      `'${featureRef}' is a Consumption feature: report what was used with Increment.`,
      'QuantityCurrent',
    );
  }
  const increment =
    change.kind === 'Increment'
      ? change.increment
      : change.quantity - feature.record.quantityCurrent;
  return quoteQuantity(catalog, sub, feature, increment, change.kind, nowMs);
}

function quoteQuantity(
  catalog: Catalog,
  sub: SubscriptionRecord,
  feature: Feature,
  increment: number,
  target: 'Increment' | 'QuantityCurrent',
  nowMs: number,
): Quote {
  const { definition, offerFeature, record, title } = feature;
  const featureRef = definition.reference;
  const type = definition.type as 'Limitation' | 'Consumption';
  const before = record.quantityCurrent;
  const after = before + increment;
  if (after < 0) {
    throw outOfRange(
      `The quantity of '${featureRef}' would fall below 0 (current ${before}, change ${increment}).`,
      target,
    );
  }
  if (offerFeature.maxQuantity !== undefined && after > offerFeature.maxQuantity && increment > 0) {
    throw outOfRange(
      `The quantity of '${featureRef}' would exceed its maximum of ${offerFeature.maxQuantity}.`,
      target,
    );
  }
  const included = record.quantityIncluded;
  const unlimited = included === UNLIMITED;
  if (
    type === 'Limitation' &&
    !unlimited &&
    offerFeature.updatable !== true &&
    increment > 0 &&
    after > included
  ) {
    throw outOfRange(
      `'${featureRef}' cannot go above the ${included} included in the plan.`,
      target,
    );
  }

  const nextTerm = recurringPrice(catalog, sub, { feature: featureRef, quantity: after });
  const extra = Math.max(0, after - included) - Math.max(0, before - included);
  let charge = { amountSubtotal: 0, amountTotal: 0, lines: [] as PriceLine[] };
  if (!unlimited && type === 'Limitation') {
    charge = proratedCharge(sub, recurringPrice(catalog, sub), nextTerm, nowMs, {
      type: 'Prorated',
      quantity: extra,
      quantityReported: after,
      label: proratedLabel(
        { en: `${title.en}: ${extra} extra`, fr: `${title.fr}\u00a0: ${extra} en supplément` },
        sub,
        nowMs,
      ),
    });
  } else if (!unlimited && type === 'Consumption' && extra > 0) {
    const discounts = subscriptionDiscounts(catalog, sub);
    const amountSubtotal = extra * (offerFeature.unitPrice ?? 0);
    const afterPercent = amountSubtotal - percentOff(amountSubtotal, discounts, ['All', 'Usage']);
    const amountTotal = Math.max(0, afterPercent - flatOff(discounts, ['Usage']));
    const lines: PriceLine[] =
      amountSubtotal > 0
        ? [
            {
              type: 'Overage',
              quantity: extra,
              quantityReported: increment,
              label: {
                en: `${title.en}: ${extra} beyond the plan`,
                fr: `${title.fr}\u00a0: ${extra} au-delà de l’offre`,
              },
              amountSubtotal,
              amountTotal: amountSubtotal,
              dateMove: iso(nowMs),
            },
          ]
        : [];
    charge = { amountSubtotal, amountTotal, lines };
  }
  return {
    featureRef,
    featureId: definition.id,
    type,
    quantityBefore: before,
    quantityAfter: after,
    ...withDiscount(catalog, sub, charge),
    nextTerm,
    periodStart: sub.periodStart,
    periodEnd: sub.periodEnd,
  };
}

function quoteSwitch(
  catalog: Catalog,
  sub: SubscriptionRecord,
  feature: Feature,
  enabled: boolean,
  nowMs: number,
): Quote {
  const { definition, offerFeature, record, title } = feature;
  const featureRef = definition.reference;
  const addOn = isAddOn(offerFeature, definition);
  const before = record.enabled;
  if (!addOn && offerFeature.updatable !== true && before !== enabled) {
    throw validation(
      `'${featureRef}' is part of the plan and cannot be switched ${enabled ? 'on' : 'off'}.`,
      'IsEnabled',
    );
  }
  const nextTerm = recurringPrice(catalog, sub, { feature: featureRef, enabled });
  const charge =
    addOn && enabled && !before
      ? proratedCharge(sub, recurringPrice(catalog, sub), nextTerm, nowMs, {
          type: 'AddOn',
          quantity: 1,
          quantityReported: 1,
          label: proratedLabel(title, sub, nowMs),
        })
      : { amountSubtotal: 0, amountTotal: 0, lines: [] };
  return {
    featureRef,
    featureId: definition.id,
    type: 'OnOff',
    quantityBefore: before ? 1 : 0,
    quantityAfter: enabled ? 1 : 0,
    enabledBefore: before,
    enabledAfter: enabled,
    ...withDiscount(catalog, sub, charge),
    nextTerm,
    periodStart: sub.periodStart,
    periodEnd: sub.periodEnd,
  };
}

/** Adds the discount line when the total is below the subtotal. */
function withDiscount(
  catalog: Catalog,
  sub: SubscriptionRecord,
  charge: { amountSubtotal: number; amountTotal: number; lines: PriceLine[] },
): { amountSubtotal: number; amountTotal: number; lines: PriceLine[] } {
  const [charged] = charge.lines;
  const discount = charged
    ? discountLine(catalog, sub, charged, charge.amountSubtotal, charge.amountTotal)
    : null;
  return { ...charge, lines: discount ? [...charge.lines, discount] : charge.lines };
}

import type { PricingUsageResult, Usage } from '../../contract/resources.js';
import { localize, type CatalogOffer } from '../catalog.js';
import type { SandboxContext } from '../context.js';
import type { Language } from '../../contract/enums.js';
import { formatMoney, LABELS, perPeriod } from '../i18n.js';
import { periodEndMs } from '../billing/periods.js';
import type { PriceLine, RecurringPrice } from '../billing/pricing.js';
import type { Quote } from '../billing/usage-quote.js';
import { iso } from '../clock.js';
import type { CustomerRecord, SubscriptionRecord } from '../state/types.js';
import { onOffState } from './present.js';

// Usages and prices. A price answers both shapes of the service: the seed's (AmountSubtotal,
// AmountTotal, DatePeriodStart, DatePeriodTerm, NextTerm) and the current reference's
// (AmountTotalDue: due now, tax included; DatePeriodEnd; Details lines with LabelLocalized,
// AmountTotalDue, QuantityReported, QuantityBilled and a period or DateMove). The sandbox has no
// taxes, so AmountTotalDue is AmountTotal.

/** A feature's usage: ids and references of its segment, feature, customer and subscription. */
export function presentUsage(
  ctx: SandboxContext,
  sub: SubscriptionRecord,
  featureRef: string,
  customer: CustomerRecord,
  lang: Language,
): Usage | null {
  const def = ctx.catalog.features.get(featureRef);
  const offer = ctx.catalog.offers.get(sub.offer);
  const offerFeature = offer?.featureByRef.get(featureRef);
  const record = sub.features[featureRef];
  if (!def || !record || !offer || !offerFeature) return null;
  const segment = ctx.catalog.segmentOf(customer.segment);
  const base: Usage = {
    IdSegment: segment.id,
    IdFeature: def.id,
    IdCustomer: customer.id,
    IdSubscription: sub.id,
    IdOffer: offer.id,
    ReferenceSegment: segment.reference,
    ReferenceFeature: featureRef,
    ReferenceCustomer: customer.reference,
    ReferenceOffer: offer.reference,
    TypeFeature: def.type,
    TitleLocalized: localize(def.title, lang),
    DatePeriodStart: sub.periodStart,
    DatePeriodEnd: sub.periodEnd,
  };
  if (def.type === 'OnOff') return { ...base, ...onOffState(offerFeature, def, record) };
  return {
    ...base,
    QuantityIncluded: record.quantityIncluded,
    QuantityCurrent: record.quantityCurrent,
    ...(def.type === 'Consumption' ? { DateResetConsumption: sub.periodEnd } : {}),
  };
}

/** One Details line, in both shapes. */
export function presentLine(line: PriceLine, lang: Language, money: (n: number) => string) {
  return {
    Type: line.type,
    LabelLocalized: line.label[lang],
    PricingLocalized: money(line.amountTotal),
    ...(line.quantity !== undefined ? { Quantity: line.quantity } : {}),
    AmountSubtotal: line.amountSubtotal,
    AmountTotal: line.amountTotal,
    AmountTotalDue: line.amountTotal,
    ...(line.quantityReported !== undefined ? { QuantityReported: line.quantityReported } : {}),
    ...(line.quantity !== undefined ? { QuantityBilled: line.quantity } : {}),
    ...(line.periodStart !== undefined ? { DatePeriodStart: line.periodStart } : {}),
    ...(line.periodEnd !== undefined ? { DatePeriodEnd: line.periodEnd } : {}),
    ...(line.dateMove !== undefined ? { DateMove: line.dateMove } : {}),
  };
}

/** The recurring price after the change, for the period that follows the current one. */
export function presentNextTerm(
  offer: CatalogOffer,
  sub: SubscriptionRecord,
  price: RecurringPrice,
  lang: Language,
  money: (n: number) => string,
) {
  return {
    LabelLocalized: LABELS[lang].nextTerm,
    PricingLocalized: `${money(price.total)}\u00a0${perPeriod(offer.durationRecurrence, offer.unitRecurrence, lang)}`,
    AmountSubtotal: price.subtotal,
    AmountTotal: price.total,
    AmountTotalDue: price.total,
    DatePeriodStart: sub.periodEnd,
    DatePeriodEnd: iso(periodEndMs(offer, Date.parse(sub.periodEnd))),
  };
}

export function presentPricing(
  ctx: SandboxContext,
  customer: CustomerRecord,
  sub: SubscriptionRecord,
  quote: Quote,
  lang: Language,
  withNextTerm: boolean,
): PricingUsageResult {
  const currency = ctx.catalog.business.currency;
  const offer = ctx.catalog.offers.get(sub.offer);
  const labels = LABELS[lang];
  const money = (amount: number) => formatMoney(amount, currency, lang);
  const segment = ctx.catalog.segmentOf(customer.segment);
  const quantities =
    quote.type === 'OnOff'
      ? { IsEnabledCurrent: quote.enabledBefore, IsEnabledAfter: quote.enabledAfter }
      : { QuantityCurrent: quote.quantityBefore, QuantityAfter: quote.quantityAfter };
  const result: PricingUsageResult = {
    IdBusiness: ctx.catalog.business.id,
    IdSegment: segment.id,
    IdCustomer: customer.id,
    IdSubscription: sub.id,
    IdFeature: quote.featureId,
    ReferenceSegment: segment.reference,
    ReferenceCustomer: customer.reference,
    ReferenceFeature: quote.featureRef,
    TypeFeature: quote.type,
    LabelLocalized: quote.amountTotal > 0 ? labels.amountDueNow : labels.noCharge,
    PricingLocalized: money(quote.amountTotal),
    Currency: currency,
    AmountSubtotal: quote.amountSubtotal,
    AmountTotal: quote.amountTotal,
    AmountTotalDue: quote.amountTotal,
    DatePeriodStart: quote.periodStart,
    DatePeriodTerm: quote.periodEnd,
    DatePeriodEnd: quote.periodEnd,
    ...quantities,
    Details: quote.lines.map((line) => presentLine(line, lang, money)),
  };
  if (withNextTerm && offer) {
    result.NextTerm = presentNextTerm(offer, sub, quote.nextTerm, lang, money);
  }
  return result;
}

import type {
  Customer,
  Discount,
  Feature,
  Invoice,
  Link,
  PricingUsageResult,
  Subscription,
  Usage,
} from '../../contract/resources.js';
import { localize, type CatalogOffer } from '../catalog.js';
import { hostedHref, insiteQuery, type SandboxContext } from '../context.js';
import type { Language } from '../fixtures/schema.js';
import { formatMoney, fromAcceptLanguage, isLanguage, LABELS, perPeriod } from '../i18n.js';
import { recurringPrice, subscriptionDiscounts, type Quote } from '../billing/pricing.js';
import { isCappingReached, SUSPENDED_STATES } from '../billing/rules.js';
import type { RequestContext } from '../http/router.js';
import type { CustomerRecord, InvoiceRecord, SubscriptionRecord } from '../state/types.js';
import type { HostedTarget } from '../tokens.js';
import { ValidationError } from '../http/errors.js';

// Turns records into the seed's resources, with their Links.

export function resolveLanguage(
  ctx: SandboxContext,
  rc: RequestContext,
  customer?: CustomerRecord,
  bodyLanguage?: string,
): Language {
  const param = rc.query.get('Language') ?? bodyLanguage;
  if (param !== undefined && param !== null && param !== '') {
    if (!isLanguage(param)) {
      throw new ValidationError([
        {
          Code: 'Error.Api.Validation',
          Message: "Language must be 'en' or 'fr'",
          Target: 'Language',
        },
      ]);
    }
    return param;
  }
  const header = rc.req.headers['accept-language'];
  return (
    fromAcceptLanguage(Array.isArray(header) ? header.join(',') : header) ??
    customer?.language ??
    ctx.catalog.business.defaultLanguage
  );
}

const hosted = (ctx: SandboxContext, rel: string, target: HostedTarget): Link => ({
  rel,
  href: hostedHref(ctx, target),
});
const insite = (ctx: SandboxContext, rel: string, target: HostedTarget): Link => ({
  rel,
  query: insiteQuery(ctx, target),
});

export function presentCustomer(
  ctx: SandboxContext,
  customer: CustomerRecord,
  offer?: CatalogOffer,
): Customer {
  const c = customer.id;
  const sub = ctx.store.mainSubscription(c);
  const links: Link[] = [
    {
      rel: 'self',
      href: `${ctx.urls.url}/v1/Customer?ReferenceCustomer=${encodeURIComponent(customer.reference)}`,
    },
    { rel: 'insite-home', href: ctx.urls.installationUrl },
    insite(ctx, 'insite-collection-offers', { page: 'offers', c }),
    insite(ctx, 'insite-register', { page: 'register', c }),
    insite(
      ctx,
      'insite-collection-upgrade',
      sub ? { page: 'upgrade', c, s: sub.id } : { page: 'offers', c },
    ),
    insite(
      ctx,
      'insite-subscribe',
      offer ? { page: 'subscribe', c, o: offer.reference } : { page: 'offers', c },
    ),
  ];
  return {
    Id: customer.id,
    ReferenceCustomer: customer.reference,
    Name: customer.name,
    Email: customer.email,
    ReferenceSegment: customer.segment,
    IsPaymentMethodValid: customer.paymentMethod === 'valid',
    Links: links,
  };
}

function presentFeatures(
  ctx: SandboxContext,
  sub: SubscriptionRecord,
  offer: CatalogOffer,
  lang: Language,
): Feature[] {
  const currency = ctx.catalog.business.currency;
  return offer.features.flatMap((of): Feature[] => {
    const def = ctx.catalog.features.get(of.reference);
    const record = sub.features[of.reference];
    if (!def || !record) return [];
    const properties = of.updatable ? 'UpdatableAfterSubscription' : 'None';
    const base = {
      Id: def.id,
      ReferenceFeature: def.reference,
      IsVisible: of.visible ?? true,
      Properties: properties,
      TitleLocalized: localize(def.title, lang),
      ...(def.description ? { DescriptionLocalized: localize(def.description, lang) } : {}),
      TypeFeature: def.type,
    };
    if (def.type === 'OnOff') {
      return [{ ...base, IsIncluded: of.included ?? true, IsEnabled: record.enabled }];
    }
    const unit = of.unitPrice ?? 0;
    const pricing =
      record.quantityIncluded === -1 || unit === 0
        ? undefined
        : lang === 'fr'
          ? `${formatMoney(unit, currency, lang)} par unité au-delà de ${record.quantityIncluded}`
          : `${formatMoney(unit, currency, lang)} per unit above ${record.quantityIncluded}`;
    return [
      {
        ...base,
        ...(pricing ? { PricingLocalized: pricing } : {}),
        QuantityIncluded: record.quantityIncluded,
        QuantityCurrent: record.quantityCurrent,
      },
    ];
  });
}

function presentDiscounts(
  ctx: SandboxContext,
  sub: SubscriptionRecord,
  lang: Language,
): Discount[] {
  return subscriptionDiscounts(ctx.catalog, sub).map((d) => ({
    Id: d.id,
    ReferenceDiscount: d.reference,
    TargetFee: d.targetFee,
    ValueOff: d.valueOff,
    TypeOff: d.typeOff,
    Name: d.name,
    TitleLocalized: localize(d.title, lang),
  }));
}

export interface SubscriptionView {
  /** Endpoint 7: a custom subscription the current one can switch to. */
  upgradeFrom?: SubscriptionRecord;
  /** Endpoint 10: the subscription as it would be on another offer. */
  previewOffer?: CatalogOffer;
}

export function presentSubscription(
  ctx: SandboxContext,
  sub: SubscriptionRecord,
  lang: Language,
  view: SubscriptionView = {},
): Subscription {
  const { catalog, store } = ctx;
  const customer = store.customerById(sub.customerId);
  const offer = view.previewOffer ?? catalog.offers.get(sub.offer);
  if (!customer || !offer)
    throw new Error(`unreachable: subscription ${sub.id} lost its customer or offer`);
  const shown: SubscriptionRecord = view.previewOffer
    ? previewRecord(ctx, sub, view.previewOffer)
    : sub;
  const price = recurringPrice(catalog, shown);
  const c = customer.id;
  const links: Link[] = [{ rel: 'self', href: `${ctx.urls.url}/v1/Subscription/${sub.id}` }];
  if (view.upgradeFrom) {
    const from = view.upgradeFrom.id;
    links.push(
      hosted(ctx, 'hosted-upgrade', { page: 'upgrade', c, s: from, t: sub.id }),
      hosted(ctx, 'hosted-conclude', { page: 'conclude', c, s: from, t: sub.id }),
      hosted(ctx, 'hosted-register', { page: 'register', c }),
      insite(ctx, 'insite-upgrade', { page: 'upgrade', c, s: from, t: sub.id }),
    );
  } else if (view.previewOffer) {
    links.push(
      hosted(ctx, 'hosted-upgrade', {
        page: 'upgrade',
        c,
        s: sub.id,
        o: view.previewOffer.reference,
      }),
      insite(ctx, 'insite-upgrade', {
        page: 'upgrade',
        c,
        s: sub.id,
        o: view.previewOffer.reference,
      }),
    );
  } else if (sub.state === 'Running') {
    links.push(
      hosted(ctx, 'hosted-upgrade', { page: 'upgrade', c, s: sub.id }),
      hosted(ctx, 'hosted-related-subscription', { page: 'portal', c, s: sub.id }),
      insite(ctx, 'insite-related-subscription', { page: 'portal', c, s: sub.id }),
      insite(ctx, 'insite-upgrade', { page: 'upgrade', c, s: sub.id }),
    );
  } else if (SUSPENDED_STATES.has(sub.state)) {
    links.push(
      hosted(ctx, 'hosted-restart', { page: 'restart', c, s: sub.id }),
      hosted(ctx, 'hosted-related-subscription', { page: 'portal', c, s: sub.id }),
      insite(ctx, 'insite-restart', { page: 'restart', c, s: sub.id }),
      insite(ctx, 'insite-related-subscription', { page: 'portal', c, s: sub.id }),
    );
  } else if (sub.state === 'PendingSubscription') {
    links.push(
      hosted(ctx, 'hosted-subscribe', { page: 'subscribe', c, s: sub.id }),
      hosted(ctx, 'hosted-register', { page: 'register', c }),
      insite(ctx, 'insite-subscribe', { page: 'subscribe', c, s: sub.id }),
      insite(ctx, 'insite-register', { page: 'register', c }),
    );
  }
  if (!view.upgradeFrom && !view.previewOffer) {
    // Sandbox extension: the seed has no invoice list, so a subscription points at its unpaid
    // invoices (GET /v1/Invoice/{id}); callers can offer to settle them.
    for (const invoice of store.invoicesOf(c)) {
      if (invoice.state === 'PaymentDue' && (invoice.subscriptionId ?? sub.id) === sub.id) {
        links.push({ rel: 'related-invoice', href: `${ctx.urls.url}/v1/Invoice/${invoice.id}` });
      }
    }
  }
  const nowMs = store.clock.nowMs();
  return {
    Id: sub.id,
    IdSegment: catalog.segment.id,
    IdOffer: offer.id,
    IdCustomer: c,
    IdCustomerBuyer: c,
    ReferenceSegment: catalog.segment.reference,
    ReferenceOffer: offer.reference,
    ReferenceCustomer: customer.reference,
    ReferenceCustomerBuyer: customer.reference,
    StateSubscription: sub.state,
    DateStart: sub.dateStart,
    DatePeriodStart: sub.periodStart,
    DatePeriodEnd: sub.periodEnd,
    DateResetConsumption: sub.periodEnd,
    StateSubscriptionAfterTerm: 'Running',
    IsTrial: false,
    IsEngaged: false,
    IsCustomerBillable: customer.paymentMethod === 'valid',
    IsPaymentCappingReached: isCappingReached(store, customer, nowMs),
    DateNextBilling: sub.periodEnd,
    TitleLocalized: localize(offer.title, lang),
    AmountUpFront: 0,
    AmountRecurrence: price.subtotal,
    AmountRecurrenceDiscounted: price.total,
    DurationRecurrence: offer.durationRecurrence,
    UnitRecurrence: offer.unitRecurrence,
    Features: presentFeatures(ctx, shown, offer, lang),
    Discounts: presentDiscounts(ctx, shown, lang),
    DateUpdate: sub.dateUpdate,
    Links: links,
  };
}

/** The subscription as it would be after switching offer (quantities carried over). */
export function previewRecord(
  ctx: SandboxContext,
  sub: SubscriptionRecord,
  offer: CatalogOffer,
): SubscriptionRecord {
  const features: SubscriptionRecord['features'] = {};
  for (const of of offer.features) {
    const type = ctx.catalog.features.get(of.reference)?.type;
    features[of.reference] = {
      quantityCurrent: type === 'OnOff' ? 0 : (sub.features[of.reference]?.quantityCurrent ?? 0),
      quantityIncluded: type === 'OnOff' ? 0 : (of.quantityIncluded ?? 0),
      enabled: type === 'OnOff' && (of.included ?? true),
    };
  }
  return { ...sub, offer: offer.reference, features };
}

export function presentInvoice(ctx: SandboxContext, invoice: InvoiceRecord): Invoice {
  const customer = ctx.store.customerById(invoice.customerId);
  if (!customer) throw new Error(`unreachable: invoice ${invoice.id} has no customer`);
  const c = customer.id;
  const links: Link[] = [
    { rel: 'self', href: `${ctx.urls.url}/v1/Invoice/${invoice.id}` },
    hosted(ctx, 'hosted-related-invoice', { page: 'invoice', c, i: invoice.id }),
    hosted(ctx, 'hosted-collection-invoice', { page: 'invoices', c }),
  ];
  if (invoice.state === 'PaymentDue') {
    links.push(
      hosted(ctx, 'hosted-charge', { page: 'charge', c, i: invoice.id }),
      insite(ctx, 'insite-charge', { page: 'charge', c, i: invoice.id }),
    );
  }
  return {
    Id: invoice.id,
    IdSegment: ctx.catalog.segment.id,
    IdCustomer: c,
    IdSubscription: invoice.subscriptionId,
    ReferenceSegment: ctx.catalog.segment.reference,
    ReferenceCustomer: customer.reference,
    FullNumber: invoice.number,
    StateInvoice: invoice.state,
    DateIssue: invoice.dateIssue,
    DatePaymentLimit: invoice.datePaymentLimit,
    DatePaid: invoice.datePaid,
    TypePayment: invoice.typePayment,
    AmountSubtotal: invoice.amountSubtotal,
    AmountTotal: invoice.amountTotal,
    Currency: invoice.currency,
    DateUpdate: invoice.dateUpdate,
    Links: links,
  };
}

export function presentUsage(
  ctx: SandboxContext,
  sub: SubscriptionRecord,
  featureRef: string,
  customer: CustomerRecord,
  lang: Language,
): Usage | null {
  const def = ctx.catalog.features.get(featureRef);
  const offerFeature = ctx.catalog.offers.get(sub.offer)?.featureByRef.get(featureRef);
  const record = sub.features[featureRef];
  if (!def || !record || !offerFeature) return null;
  const base: Usage = {
    IdSubscription: sub.id,
    ReferenceSegment: ctx.catalog.segment.reference,
    ReferenceFeature: featureRef,
    ReferenceCustomer: customer.reference,
    TypeFeature: def.type,
    TitleLocalized: localize(def.title, lang),
    DatePeriodStart: sub.periodStart,
    DatePeriodEnd: sub.periodEnd,
  };
  if (def.type === 'OnOff')
    return { ...base, IsIncluded: offerFeature.included ?? true, IsEnabled: record.enabled };
  return {
    ...base,
    QuantityIncluded: record.quantityIncluded,
    QuantityCurrent: record.quantityCurrent,
    ...(def.type === 'Consumption' ? { DateResetConsumption: sub.periodEnd } : {}),
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
  const result: PricingUsageResult = {
    IdBusiness: ctx.catalog.business.id,
    IdSegment: ctx.catalog.segment.id,
    IdCustomer: customer.id,
    IdSubscription: sub.id,
    IdFeature: quote.featureId,
    ReferenceSegment: ctx.catalog.segment.reference,
    ReferenceCustomer: customer.reference,
    ReferenceFeature: quote.featureRef,
    LabelLocalized: quote.amountTotal > 0 ? labels.amountDueNow : labels.noCharge,
    PricingLocalized: money(quote.amountTotal),
    Currency: currency,
    AmountSubtotal: quote.amountSubtotal,
    AmountTotal: quote.amountTotal,
    DatePeriodStart: quote.periodStart,
    DatePeriodTerm: quote.periodEnd,
    QuantityCurrent: quote.quantityBefore,
    QuantityAfter: quote.quantityAfter,
    Details: quote.lines.map((line) => ({
      Type: line.type,
      LabelLocalized: line.label[lang],
      PricingLocalized: money(line.amountTotal),
      ...(line.quantity !== undefined ? { Quantity: line.quantity } : {}),
      AmountSubtotal: line.amountSubtotal,
      AmountTotal: line.amountTotal,
    })),
  };
  if (withNextTerm && offer) {
    result.NextTerm = {
      LabelLocalized: labels.nextTerm,
      PricingLocalized: `${money(quote.nextTerm.total)} ${perPeriod(offer.durationRecurrence, offer.unitRecurrence, lang)}`,
      AmountSubtotal: quote.nextTerm.subtotal,
      AmountTotal: quote.nextTerm.total,
    };
  }
  return result;
}

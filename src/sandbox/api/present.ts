import type {
  Customer,
  Discount,
  Feature,
  Invoice,
  Link,
  Subscription,
} from '../../contract/resources.js';
import { isAddOn, localize, type CatalogOffer } from '../catalog.js';
import { hostedHref, insiteQuery, type SandboxContext } from '../context.js';
import type { Language } from '../../contract/enums.js';
import type { FeatureDefinition, OfferFeature } from '../fixtures/schema.js';
import {
  formatMoney,
  fromAcceptLanguage,
  isLanguage,
  perPeriod,
  supportedLanguage,
} from '../i18n.js';
import { boughtAddOns, recurringPrice, subscriptionDiscounts } from '../billing/pricing.js';
import { isBillable } from '../billing/payment-type.js';
import { isCappingReached, SUSPENDED_STATES } from '../billing/rules.js';
import type { RequestContext } from '../http/router.js';
import { featuresForOffer } from '../state/seed.js';
import type {
  CustomerRecord,
  InvoiceRecord,
  SubscriptionFeatureRecord,
  SubscriptionRecord,
} from '../state/types.js';
import type { HostedTarget } from '../tokens.js';
import { ValidationError } from '../http/errors.js';

// Turns records into the seed's resources, with their Links.

export function resolveLanguage(
  ctx: SandboxContext,
  request: RequestContext,
  customer?: CustomerRecord,
  bodyLanguage?: string,
): Language {
  const param = request.query.get('Language') ?? bodyLanguage;
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
  const header = request.req.headers['accept-language'];
  return (
    fromAcceptLanguage(Array.isArray(header) ? header.join(',') : header) ??
    supportedLanguage(customer?.language) ??
    ctx.catalog.business.defaultLanguage
  );
}

function offerOnRequest(ctx: SandboxContext, reference: string): boolean {
  return ctx.catalog.offers.get(reference)?.onRequest !== false;
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
  // The offer asked for, else the one the customer was created with (if it is still sold).
  const subscribeTo =
    offer?.reference ??
    (customer.offer && !offerOnRequest(ctx, customer.offer) ? customer.offer : undefined);
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
      subscribeTo ? { page: 'subscribe', c, o: subscribeTo } : { page: 'offers', c },
    ),
  ];
  const segment = ctx.catalog.segmentOf(customer.segment);
  return {
    Id: customer.id,
    ReferenceCustomer: customer.reference,
    // Fields never given are left out rather than sent empty.
    ...(customer.name ? { Name: customer.name } : {}),
    ...(customer.email ? { Email: customer.email } : {}),
    IdSegment: segment.id,
    ReferenceSegment: segment.reference,
    ...(customer.language ? { Language: customer.language } : {}),
    ...(customer.offer ? { ReferenceOffer: customer.offer } : {}),
    ...(customer.affiliation ? { ReferenceAffiliation: customer.affiliation } : {}),
    Metadata: { ...customer.metadata },
    IsPaymentMethodValid: customer.paymentMethod === 'valid',
    DateCreated: customer.createdAt,
    Links: links,
  };
}

/**
 * `IsIncluded`: the subscription has the feature, because the plan includes it or because the
 * customer bought it as an add-on. `IsEnabled`: it is switched on. An add-on not bought is
 * `IsIncluded: false, IsEnabled: false`, as a feature the plan lacks.
 */
export function onOffState(
  of: OfferFeature,
  def: FeatureDefinition,
  record: SubscriptionFeatureRecord,
): { IsIncluded: boolean; IsEnabled: boolean } {
  const boughtAddOn = isAddOn(of, def) && record.enabled;
  return { IsIncluded: (of.included ?? true) || boughtAddOn, IsEnabled: record.enabled };
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
    const properties = of.updatable || isAddOn(of, def) ? 'UpdatableAfterSubscription' : 'None';
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
      const addOnPrice = isAddOn(of, def)
        ? {
            PricingLocalized: `${formatMoney(of.unitPrice ?? 0, currency, lang)}\u00a0${perPeriod(offer.durationRecurrence, offer.unitRecurrence, lang)}`,
          }
        : {};
      return [{ ...base, ...addOnPrice, ...onOffState(of, def, record) }];
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
      // The portal on a pending subscription shows it and offers to complete it.
      hosted(ctx, 'hosted-related-subscription', { page: 'portal', c, s: sub.id }),
      insite(ctx, 'insite-subscribe', { page: 'subscribe', c, s: sub.id }),
      insite(ctx, 'insite-register', { page: 'register', c }),
      insite(ctx, 'insite-related-subscription', { page: 'portal', c, s: sub.id }),
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
  const segment = catalog.segmentOf(customer.segment);
  const offerAfterTerm = sub.offerAfterTerm ? catalog.offers.get(sub.offerAfterTerm) : undefined;
  return {
    Id: sub.id,
    IdSegment: segment.id,
    IdOffer: offer.id,
    IdCustomer: c,
    IdCustomerBuyer: c,
    ReferenceSegment: segment.reference,
    ReferenceOffer: offer.reference,
    ReferenceCustomer: customer.reference,
    ReferenceCustomerBuyer: customer.reference,
    StateSubscription: sub.state,
    DateStart: sub.dateStart,
    DatePeriodStart: sub.periodStart,
    DatePeriodEnd: sub.periodEnd,
    DateResetConsumption: sub.periodEnd,
    StateSubscriptionAfterTerm: 'Running',
    // Sandbox extension: a change scheduled for the end of the period (a downgrade).
    ...(offerAfterTerm && !view.previewOffer
      ? {
          ReferenceOfferAfterTerm: offerAfterTerm.reference,
          TitleLocalizedAfterTerm: localize(offerAfterTerm.title, lang),
          DateOfferChange: sub.periodEnd,
        }
      : {}),
    IsTrial: false,
    IsEngaged: false,
    IsCustomerBillable: isBillable(customer),
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
  const quantities = Object.fromEntries(
    Object.entries(sub.features).map(([ref, f]) => [ref, f.quantityCurrent]),
  );
  const features = featuresForOffer(ctx.catalog, offer, quantities, {
    enabledAddOns: boughtAddOns(ctx.catalog, sub),
  });
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
  const segment = ctx.catalog.segmentOf(customer.segment);
  return {
    Id: invoice.id,
    IdSegment: segment.id,
    IdCustomer: c,
    IdSubscription: invoice.subscriptionId,
    ReferenceSegment: segment.reference,
    ReferenceCustomer: customer.reference,
    FullNumber: invoice.number,
    StateInvoice: invoice.state,
    DateIssue: invoice.dateIssue,
    DatePaymentLimit: invoice.datePaymentLimit,
    DatePaid: invoice.datePaid,
    TypePayment: invoice.typePayment,
    // The customer's invoice note when it was issued (POST /v1/CustomerSettingsPayment).
    ...(invoice.note ? { NoteLocalized: invoice.note } : {}),
    AmountSubtotal: invoice.amountSubtotal,
    AmountTotal: invoice.amountTotal,
    Currency: invoice.currency,
    DateUpdate: invoice.dateUpdate,
    Links: links,
  };
}

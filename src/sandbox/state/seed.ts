import { isAddOn, localize, type Catalog, type CatalogOffer } from '../catalog.js';
import { DAY_MS, iso } from '../clock.js';
import { paymentTypeOf } from '../billing/payment-type.js';
import { invoiceNumber, periodEndMs, startOfMonthMs } from '../billing/periods.js';
import type { ResolvedFixtures } from '../fixtures/schema.js';
import { timestampMs } from '../timestamps.js';
import type {
  CustomerRecord,
  InvoiceLine,
  InvoiceRecord,
  SandboxState,
  SubscriptionFeatureRecord,
  SubscriptionRecord,
} from './types.js';

const FIRST_IDS = { customer: 501, subscription: 1001, invoice: 9001 };

type FixtureInvoice = ResolvedFixtures['customers'][number]['invoices'][number];

/** Feature records of a new subscription to an offer, keeping known current quantities. */
export function featuresForOffer(
  catalog: Catalog,
  offer: CatalogOffer,
  quantities: Record<string, number> = {},
  overrides: {
    quantitiesIncluded?: Record<string, number>;
    /** Included OnOff features the customer switched off. */
    disabled?: string[];
    /** Add-ons (OnOff features the offer sells apart) switched on. */
    enabledAddOns?: string[];
  } = {},
): Record<string, SubscriptionFeatureRecord> {
  const features: Record<string, SubscriptionFeatureRecord> = {};
  for (const f of offer.features) {
    const definition = catalog.features.get(f.reference);
    const type = definition?.type;
    const switchedOn =
      (f.included ?? true) ||
      (isAddOn(f, definition) && (overrides.enabledAddOns ?? []).includes(f.reference));
    features[f.reference] = {
      quantityCurrent: type === 'OnOff' ? 0 : (quantities[f.reference] ?? 0),
      quantityIncluded:
        type === 'OnOff'
          ? 0
          : (overrides.quantitiesIncluded?.[f.reference] ?? f.quantityIncluded ?? 0),
      enabled: type === 'OnOff' && switchedOn && !(overrides.disabled ?? []).includes(f.reference),
    };
  }
  return features;
}

/** Builds the initial state of a business from its validated fixtures at the clock's time. */
/**
 * A fixture invoice's lines: one line, or, after a percentage discount, the price before it and
 * the discount's line (negative), each with its share of the tax, adding up to the invoice.
 */
function fixtureLines(catalog: Catalog, inv: FixtureInvoice): InvoiceLine[] {
  const subtotal = inv.amountSubtotal ?? inv.amountTotal;
  const label = { en: inv.label, fr: inv.label };
  const discount = inv.discount === undefined ? undefined : catalog.discounts.get(inv.discount);
  if (!discount) return [{ label, amountSubtotal: subtotal, amountTotal: inv.amountTotal }];
  const listTotal = Math.round((inv.amountTotal * 10_000) / (10_000 - discount.valueOff));
  const listSubtotal = Math.round((listTotal * subtotal) / inv.amountTotal);
  return [
    { label, amountSubtotal: listSubtotal, amountTotal: listTotal },
    {
      label: { en: localize(discount.title, 'en'), fr: localize(discount.title, 'fr') },
      amountSubtotal: subtotal - listSubtotal,
      amountTotal: inv.amountTotal - listTotal,
      discount: true,
    },
  ];
}

/**
 * The ids of the fixtures' invoices, from `firstId` in the order they were issued, whatever the
 * customer and the order the fixtures list them in: an invoice's number ends with its id, and a
 * later invoice never has a lower number. Invoices issued the same day keep the fixtures' order.
 */
function invoiceIdsByDate(
  fixtures: ResolvedFixtures,
  nowMs: number,
  firstId: number,
): Map<FixtureInvoice, number> {
  const oldestFirst = fixtures.customers
    .flatMap((customer) => customer.invoices)
    .map((invoice, order) => ({ invoice, order, issueMs: nowMs - invoice.issuedDaysAgo * DAY_MS }))
    .sort((a, b) => a.issueMs - b.issueMs || a.order - b.order);
  return new Map(oldestFirst.map(({ invoice }, rank) => [invoice, firstId + rank]));
}

export function seedState(
  fixtures: ResolvedFixtures,
  catalog: Catalog,
  nowMs: number,
  clock: SandboxState['clock'],
): SandboxState {
  const state: SandboxState = {
    version: 1,
    clock,
    nextId: { ...FIRST_IDS },
    customers: [],
    subscriptions: [],
    invoices: [],
  };
  const now = iso(nowMs);
  const invoiceIds = invoiceIdsByDate(fixtures, nowMs, state.nextId.invoice);
  state.nextId.invoice += invoiceIds.size;
  for (const c of fixtures.customers) {
    const customer: CustomerRecord = {
      id: state.nextId.customer++,
      reference: c.reference,
      name: c.name,
      email: c.email,
      segment: c.segment ?? catalog.segment.reference,
      language: c.language ?? null,
      paymentMethod: c.paymentMethod,
      paymentMethodLabel: c.paymentMethod === 'absent' ? null : 'Visa •••• 4242',
      ...(c.typePayment ? { typePayment: c.typePayment } : {}),
      ...(c.taxRate === undefined ? {} : { taxRate: c.taxRate }),
      billingAddress: c.billingAddress ?? null,
      createdAt: now,
      usageLog: [],
    };
    state.customers.push(customer);
    for (const s of c.subscriptions) {
      const offer = catalog.offers.get(s.offer);
      if (!offer) continue; // unreachable: references are validated
      const startMs = s.periodStart ? timestampMs(s.periodStart) : startOfMonthMs(nowMs);
      const sub: SubscriptionRecord = {
        id: state.nextId.subscription++,
        customerId: customer.id,
        offer: offer.reference,
        state: s.state,
        custom: s.custom,
        dateStart: iso(startMs),
        periodStart: iso(startMs),
        periodEnd: iso(periodEndMs(offer, startMs)),
        features: featuresForOffer(catalog, offer, s.quantities, s),
        discounts: [...new Set([...offer.discounts, ...s.discounts])],
        dateUpdate: now,
      };
      state.subscriptions.push(sub);
    }
    const mainSub = state.subscriptions.find((s) => s.customerId === customer.id && !s.custom);
    for (const inv of c.invoices) {
      const id = invoiceIds.get(inv)!;
      const issueMs = nowMs - inv.issuedDaysAgo * DAY_MS;
      const limitMs = issueMs + fixtures.business.paymentTermDays * DAY_MS;
      const invoice: InvoiceRecord = {
        id,
        customerId: customer.id,
        subscriptionId: mainSub?.id ?? null,
        number: invoiceNumber(id, issueMs),
        state: inv.state,
        typePayment: paymentTypeOf(customer),
        dateIssue: iso(issueMs),
        datePaymentLimit: iso(limitMs),
        // Fixture invoices past their limit record a collection that already failed.
        collectionAttempted: limitMs <= nowMs,
        datePaid: inv.state === 'Paid' ? iso(issueMs) : null,
        amountSubtotal: inv.amountSubtotal ?? inv.amountTotal,
        amountTotal: inv.amountTotal,
        ...(inv.taxRate === undefined ? {} : { taxRate: inv.taxRate }),
        currency: fixtures.business.currency,
        lines: fixtureLines(catalog, inv),
        dateUpdate: iso(issueMs),
      };
      state.invoices.push(invoice);
    }
  }
  // Oldest first, as the service adds them: a customer's list reads in the order issued.
  state.invoices.sort((a, b) => a.id - b.id);
  return state;
}

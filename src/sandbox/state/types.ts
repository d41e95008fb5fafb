import type { TYPE_TRIGGERS } from '../../contract/notifications.js';
import type { ClockState } from '../clock.js';

// The mutable state of the sandbox. Plain JSON-serialisable records so that it can be persisted
// as is; the catalogue (offers, features, discounts) stays in the fixtures.

export type PaymentMethodState = 'valid' | 'invalid' | 'absent';

/** How a customer pays: the card on file, or a manual way the business set (billing/payment-type.ts). */
export type PaymentType =
  'Card' | 'ExternalBank' | 'ExternalCash' | 'ExternalCheck' | 'ExternalOther';

export interface BillingAddressRecord {
  Company?: string | undefined;
  FirstName?: string | undefined;
  LastName?: string | undefined;
  AddressLine1?: string | undefined;
  AddressLine2?: string | undefined;
  ZipCode?: string | undefined;
  City?: string | undefined;
  Region?: string | undefined;
  Country?: string | undefined;
  TaxInformation?: string | undefined;
  Phone?: string | undefined;
}

export interface UsageLogEntry {
  at: string;
  dateStamp: string | null;
  subscriptionId: number;
  feature: string;
  /** The change in quantity (OnOff: 0; a QuantityCurrent change is logged as its difference). */
  increment: number;
  /** OnOff changes: the state asked for. */
  isEnabled?: boolean | undefined;
  quantityBefore: number;
  quantityAfter: number;
  amountSubtotal: number;
  amountTotal: number;
  invoiceId: number | null;
}

export interface CustomerRecord {
  id: number;
  reference: string;
  /** '' when never given. */
  name: string;
  /** '' when never given. */
  email: string;
  segment: string;
  /** The language tag the customer was given (`fr`, `pt-BR`…), or null. */
  language: string | null;
  /** The offer named at creation (ReferenceOffer): the customer's default insite-subscribe. */
  offer?: string | null | undefined;
  /** ReferenceAffiliation given at creation or update. */
  affiliation?: string | null | undefined;
  /** Up to 5 string pairs of the business's own. */
  metadata?: Record<string, string> | undefined;
  paymentMethod: PaymentMethodState;
  /** What the customer sees of the saved method, e.g. "Visa •••• 4242". */
  paymentMethodLabel: string | null;
  /** How the customer pays; absent = 'Card'. */
  typePayment?: PaymentType | undefined;
  /** Grey-listed by the business (the live service then keeps them from its payment forms). */
  greyListed?: boolean | undefined;
  /** The note printed on the customer's invoices issued from now on. */
  noteInvoice?: string | null | undefined;
  /** The tax rate the customer's prices include (2000 = 20 %), when they are taxed. */
  taxRate?: number | undefined;
  billingAddress: BillingAddressRecord | null;
  createdAt: string;
  usageLog: UsageLogEntry[];
}

export interface SubscriptionFeatureRecord {
  /** Limitation/Consumption. */
  quantityCurrent: number;
  /** Limitation/Consumption; -1 = unlimited. */
  quantityIncluded: number;
  /** OnOff: switched on (an included feature the customer did not switch off, or a bought add-on). */
  enabled: boolean;
}

export interface SubscriptionRecord {
  id: number;
  customerId: number;
  offer: string;
  state: string;
  /** A custom subscription the business prepared for the customer to switch to. */
  custom: boolean;
  dateStart: string;
  periodStart: string;
  periodEnd: string;
  features: Record<string, SubscriptionFeatureRecord>;
  discounts: string[];
  dateUpdate: string;
  /** An offer change scheduled for the end of the current period (a downgrade, by default). */
  offerAfterTerm?: string | null | undefined;
  /** Charges to add to the next renewal invoice (an upgrade priced with BillNow=false). */
  deferredLines?: InvoiceLine[] | undefined;
}

export interface InvoiceLine {
  label: { en: string; fr: string };
  /** Before tax. */
  amountSubtotal: number;
  /** Tax included (the sandbox's own charges have no tax: the same as the subtotal). */
  amountTotal: number;
  /** A discount's line (a negative amount on an invoice); its label is the discount's name. */
  discount?: boolean | undefined;
}

export interface InvoiceRecord {
  id: number;
  customerId: number;
  subscriptionId: number | null;
  number: string;
  state: 'PaymentDue' | 'Paid' | 'Cancelled';
  typePayment: string;
  dateIssue: string;
  datePaymentLimit: string;
  /** True once the automatic collection at the payment limit was attempted. */
  collectionAttempted: boolean;
  datePaid: string | null;
  /** Before tax: the lines' subtotals. */
  amountSubtotal: number;
  /** Tax included: the lines' totals. */
  amountTotal: number;
  /** The tax rate, in hundredths of a percent (2000 = 20 %), when the invoice has tax. */
  taxRate?: number | undefined;
  currency: string;
  lines: InvoiceLine[];
  dateUpdate: string;
  /** The customer's invoice note when it was issued. */
  note?: string | null | undefined;
}

export interface SandboxState {
  version: 1;
  clock: ClockState;
  nextId: { customer: number; subscription: number; invoice: number };
  customers: CustomerRecord[];
  subscriptions: SubscriptionRecord[];
  invoices: InvoiceRecord[];
}

/**
 * A change the service notifies (live-service-notes.md, "Notifications"): what happened, to
 * whom, and when on the sandbox's clock. The records named are read when it is emitted.
 */
export interface StateEvent {
  /** The notification's `TypeTrigger` (one of the codes the sandbox sends). */
  type: (typeof TYPE_TRIGGERS)[number];
  customerId: number;
  subscriptionId?: number | undefined;
  invoiceId?: number | undefined;
  /** Sandbox time of the change (a catch-up emits each change at the time it happened). */
  atMs: number;
}

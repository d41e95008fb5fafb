import type { ClockState } from '../clock.js';
import type { Language } from '../fixtures/schema.js';

// The mutable state of the sandbox. Plain JSON-serialisable records so that it can be persisted
// as is; the catalogue (offers, features, discounts) stays in the fixtures.

export type PaymentMethodState = 'valid' | 'invalid' | 'absent';

export interface BillingAddressRecord {
  Company?: string | undefined;
  FirstName?: string | undefined;
  LastName?: string | undefined;
  AddressLine1?: string | undefined;
  ZipCode?: string | undefined;
  City?: string | undefined;
  Country?: string | undefined;
  TaxInformation?: string | undefined;
}

export interface UsageLogEntry {
  at: string;
  dateStamp: string | null;
  subscriptionId: number;
  feature: string;
  increment: number;
  quantityBefore: number;
  quantityAfter: number;
  amountSubtotal: number;
  amountTotal: number;
  invoiceId: number | null;
}

export interface CustomerRecord {
  id: number;
  reference: string;
  name: string;
  email: string;
  segment: string;
  language: Language | null;
  paymentMethod: PaymentMethodState;
  /** What the customer sees of the saved method, e.g. "Visa •••• 4242". */
  paymentMethodLabel: string | null;
  billingAddress: BillingAddressRecord | null;
  createdAt: string;
  usageLog: UsageLogEntry[];
}

export interface SubscriptionFeatureRecord {
  /** Limitation/Consumption. */
  quantityCurrent: number;
  /** Limitation/Consumption; -1 = unlimited. */
  quantityIncluded: number;
  /** OnOff: switched on by the customer (only meaningful when included). */
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
}

export interface InvoiceLine {
  label: { en: string; fr: string };
  amountSubtotal: number;
  amountTotal: number;
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
  amountSubtotal: number;
  amountTotal: number;
  currency: string;
  lines: InvoiceLine[];
  dateUpdate: string;
}

export interface SandboxState {
  version: 1;
  clock: ClockState;
  nextId: { customer: number; subscription: number; invoice: number };
  customers: CustomerRecord[];
  subscriptions: SubscriptionRecord[];
  invoices: InvoiceRecord[];
}

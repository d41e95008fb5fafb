import * as z from 'zod';
import { STATE_INVOICE } from '../../contract/enums.js';
import type { SandboxState } from './types.js';

// The shape of a persisted sandbox state (types.ts), checked when a state file is loaded: a
// file edited by hand or damaged fails at start with the path of the first wrong value, rather
// than later inside a request.

const Integer = z.number().int();
const Id = Integer.nonnegative();
const Text = z.string();
const Timestamp = z.string().min(1);
const Amount = Integer;

const UsageLogEntry = z.object({
  at: Timestamp,
  dateStamp: Timestamp.nullable(),
  subscriptionId: Id,
  feature: Text,
  increment: Integer,
  isEnabled: z.boolean().optional(),
  quantityBefore: Integer,
  quantityAfter: Integer,
  amountSubtotal: Amount,
  amountTotal: Amount,
  invoiceId: Id.nullable(),
});

const BillingAddress = z.object({
  Company: Text.optional(),
  FirstName: Text.optional(),
  LastName: Text.optional(),
  AddressLine1: Text.optional(),
  AddressLine2: Text.optional(),
  ZipCode: Text.optional(),
  City: Text.optional(),
  Region: Text.optional(),
  Country: Text.optional(),
  TaxInformation: Text.optional(),
  Phone: Text.optional(),
});

const Customer = z.object({
  id: Id,
  reference: Text.min(1),
  name: Text,
  email: Text,
  segment: Text,
  language: Text.nullable(),
  offer: Text.nullable().optional(),
  affiliation: Text.nullable().optional(),
  metadata: z.record(Text, Text).optional(),
  paymentMethod: z.enum(['valid', 'invalid', 'absent']),
  paymentMethodLabel: Text.nullable(),
  typePayment: z
    .enum(['Card', 'ExternalBank', 'ExternalCash', 'ExternalCheck', 'ExternalOther'])
    .optional(),
  greyListed: z.boolean().optional(),
  noteInvoice: Text.nullable().optional(),
  taxRate: Integer.optional(),
  billingAddress: BillingAddress.nullable(),
  createdAt: Timestamp,
  usageLog: z.array(UsageLogEntry),
});

const InvoiceLine = z.object({
  label: z.object({ en: Text, fr: Text }),
  amountSubtotal: Amount,
  amountTotal: Amount,
  discount: z.boolean().optional(),
});

const Subscription = z.object({
  id: Id,
  customerId: Id,
  offer: Text.min(1),
  state: Text.min(1),
  custom: z.boolean(),
  dateStart: Timestamp,
  periodStart: Timestamp,
  periodEnd: Timestamp,
  features: z.record(
    Text,
    z.object({ quantityCurrent: Integer, quantityIncluded: Integer, enabled: z.boolean() }),
  ),
  discounts: z.array(Text),
  dateUpdate: Timestamp,
  offerAfterTerm: Text.nullable().optional(),
  deferredLines: z.array(InvoiceLine).optional(),
});

const Invoice = z.object({
  id: Id,
  customerId: Id,
  subscriptionId: Id.nullable(),
  number: Text,
  state: z.enum(STATE_INVOICE),
  typePayment: Text,
  dateIssue: Timestamp,
  datePaymentLimit: Timestamp,
  collectionAttempted: z.boolean(),
  datePaid: Timestamp.nullable(),
  amountSubtotal: Amount,
  amountTotal: Amount,
  taxRate: Integer.optional(),
  currency: Text.min(1),
  lines: z.array(InvoiceLine),
  dateUpdate: Timestamp,
  note: Text.nullable().optional(),
});

export const SandboxStateSchema: z.ZodType<SandboxState> = z.object({
  version: z.literal(1),
  clock: z.object({ baseMs: z.number(), realAtBase: z.number().nullable() }),
  nextId: z.object({ customer: Id, subscription: Id, invoice: Id }),
  customers: z.array(Customer),
  subscriptions: z.array(Subscription),
  invoices: z.array(Invoice),
});

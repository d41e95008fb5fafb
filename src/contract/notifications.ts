import * as z from 'zod';
import { openEnum, type OpenEnum } from './enums.js';

// The service's notifications (webhooks), as live-service-notes.md "Notifications" describes
// them: an HTTP POST of a JSON envelope, signed by two headers. A notification is a signal to
// re-read the customer's state, never state itself: consumers read `Customer.ReferenceCustomer`
// and little else.

/** Default header names (the service's names are rename-able; these are the seed's naming). */
export const NOTIFICATION_KEY_HEADER = 'x-service-key';
export const NOTIFICATION_SIGNATURE_HEADER = 'x-service-signature';

/**
 * Event codes (`TypeTrigger`) the sandbox sends, from the live service's list. An open
 * enumeration: the live service sends more, and unknown values are normal.
 */
export const TYPE_TRIGGERS = [
  'CustomerAdded',
  'CustomerUpdated',
  'CustomerBillingAddressUpdated',
  'CustomerPaymentMethodUpdated',
  'CustomerChargingFailed',
  'SubscriptionStarted',
  'SubscriptionUpgraded',
  'SubscriptionUpdated',
  'SubscriptionFeaturesUpdated',
  'SubscriptionDateTermUpdated',
  'SubscriptionSuspendedAgent',
  'SubscriptionSuspendedPaymentDue',
  'SubscriptionSuspendedPaymentInfoMissing',
  'SubscriptionRestarted',
  'InvoiceDebitIssued',
  'InvoiceDebitPaid',
] as const;
export type TypeTrigger = OpenEnum<(typeof TYPE_TRIGGERS)[number]>;

/** The blocks every family carries besides `Customer`. */
const Block = z.looseObject({});

/** The `Customer` block: on every event; `ReferenceCustomer` joins back to the host's user. */
export const NotificationCustomerSchema = z.looseObject({
  ReferenceCustomer: z.string().min(1),
  Id: z.number().optional(),
  Name: z.string().optional(),
  Email: z.string().optional(),
  Language: z.string().optional(),
  IdSegment: z.number().optional(),
  ReferenceSegment: z.string().optional(),
});

/** An event's envelope. */
export const NotificationEnvelopeSchema = z.looseObject({
  /** The notification's id: duplicates and replays share it (the key to deduplicate on). */
  Id: z.string().min(1),
  IdBusiness: z.number(),
  IdSegment: z.number(),
  ReferenceSegment: z.string(),
  /** When the change happened, on the service's clock (ISO 8601). */
  DateTrigger: z.iso.datetime({ offset: true }),
  TypeTrigger: openEnum(TYPE_TRIGGERS),
  Customer: NotificationCustomerSchema,
  /** Subscription events. */
  CustomerBuyer: Block.optional(),
  Offer: Block.optional(),
  Subscription: Block.optional(),
  /** Invoice events. */
  InvoiceDebit: Block.optional(),
  /** Payment method events. */
  GatewayPermission: Block.optional(),
});
export type NotificationEnvelope = z.infer<typeof NotificationEnvelopeSchema>;

/** The post that validates a new webhook: no `TypeTrigger`; the operator confirms the code. */
export const NotificationVerificationSchema = z.strictObject({
  Id: z.string().min(1),
  DateTrigger: z.iso.datetime({ offset: true }),
  VerificationCode: z.string().min(1),
});
export type NotificationVerification = z.infer<typeof NotificationVerificationSchema>;

import * as z from 'zod';
import { LANGUAGES } from './constants.js';

/**
 * The seed lists only the enum values it has "seen"; the real service uses more. An open enum
 * accepts any string at run time while keeping the known values for autocompletion.
 */
export type OpenEnum<T extends string> = T | (string & {});

export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.custom<OpenEnum<T[number]>>((value) => typeof value === 'string', {
    message: `Expected a string (known values: ${values.join(', ')})`,
  });
}

export { LANGUAGES };
export type Language = (typeof LANGUAGES)[number];

export const STATE_SUBSCRIPTION = [
  'Running',
  'SuspendedPaymentDue',
  'SuspendedPaymentMethodInvalid',
  'SuspendedByBusiness',
  'PendingSubscription',
  'Ended',
] as const;
export type StateSubscription = OpenEnum<(typeof STATE_SUBSCRIPTION)[number]>;
export const StateSubscriptionSchema = openEnum(STATE_SUBSCRIPTION);

export const STATE_SUBSCRIPTION_AFTER_TERM = ['Running', 'Ended'] as const;
export const StateSubscriptionAfterTermSchema = openEnum(STATE_SUBSCRIPTION_AFTER_TERM);

export const UNIT_RECURRENCE = ['Month', 'Year', 'Week', 'Day'] as const;
export type UnitRecurrence = OpenEnum<(typeof UNIT_RECURRENCE)[number]>;
export const UnitRecurrenceSchema = openEnum(UNIT_RECURRENCE);

export const UNIT_TRIAL = ['Day', 'Month'] as const;
export const UnitTrialSchema = openEnum(UNIT_TRIAL);

export const STATE_INVOICE = ['PaymentDue', 'Paid', 'Cancelled'] as const;
export type StateInvoice = OpenEnum<(typeof STATE_INVOICE)[number]>;
export const StateInvoiceSchema = openEnum(STATE_INVOICE);

export const TYPE_PAYMENT = ['ExternalBank', 'Card', 'DirectDebit'] as const;
export const TypePaymentSchema = openEnum(TYPE_PAYMENT);

/** Feature properties; the service sends several comma-separated ("None, UpdatableAfterSubscription"). */
export const FEATURE_PROPERTIES = [
  'None',
  'UpdatableBeforeSubscription',
  'UpdatableAfterSubscription',
] as const;
export type FeatureProperty = OpenEnum<(typeof FEATURE_PROPERTIES)[number]>;

/** Splits the comma-separated `Properties` field of a feature into its values. */
export function parseFeatureProperties(properties: string): FeatureProperty[] {
  return properties
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

export const TYPE_FEATURE = ['OnOff', 'Limitation', 'Consumption'] as const;
/** The feature types the sandbox knows and produces (the service may send others). */
export type KnownTypeFeature = (typeof TYPE_FEATURE)[number];
export type TypeFeature = OpenEnum<KnownTypeFeature>;
export const TypeFeatureSchema = openEnum(TYPE_FEATURE);

export const TARGET_FEE = ['All', 'Recurring', 'UpFront', 'Usage'] as const;
export type TargetFee = OpenEnum<(typeof TARGET_FEE)[number]>;
export const TargetFeeSchema = openEnum(TARGET_FEE);

/** `PerTenThousand`: ValueOff in ten-thousandths (2000 = 20 %). `Flat`: ValueOff in hundredths of the currency unit. */
export const TYPE_OFF = ['PerTenThousand', 'Flat'] as const;
export type TypeOff = OpenEnum<(typeof TYPE_OFF)[number]>;
export const TypeOffSchema = openEnum(TYPE_OFF);

export const LINK_RELS = [
  'self',
  'hosted-related-subscription',
  'hosted-restart',
  'hosted-register',
  'hosted-upgrade',
  'hosted-conclude',
  'hosted-subscribe',
  'hosted-related-invoice',
  'hosted-charge',
  'hosted-collection-invoice',
  'insite-home',
  'insite-collection-offers',
  'insite-register',
  'insite-collection-upgrade',
  'insite-subscribe',
  'insite-related-subscription',
  'insite-upgrade',
  'insite-restart',
  'insite-charge',
] as const;
export type LinkRel = OpenEnum<(typeof LINK_RELS)[number]>;
export const LinkRelSchema = openEnum(LINK_RELS);

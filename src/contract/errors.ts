import * as z from 'zod';
import { openEnum, type OpenEnum } from './enums.js';

/** Error codes the seed documents on the usage and pricing calls, with their HTTP status. */
export const SEED_ERRORS = {
  'Error.Api.Usage.NoneMatching': 404,
  'Error.Customer.PaymentSettings.Missing': 403,
  'Error.Customer.Billing.CappingReached': 403,
} as const;
export type SeedErrorCode = keyof typeof SEED_ERRORS;

/**
 * Codes the sandbox uses beyond the seed's three, for what the seed leaves "not shown"
 * (authentication, validation, unknown resources, state conflicts).
 */
export const SERVICE_ERROR_CODES = [
  'Error.Api.Usage.NoneMatching',
  'Error.Customer.PaymentSettings.Missing',
  'Error.Customer.Billing.CappingReached',
  'Error.Api.Authentication.Failed',
  'Error.Api.Request.Malformed',
  'Error.Api.Validation',
  'Error.Api.NotFound',
  'Error.Api.MethodNotAllowed',
  'Error.Customer.NotFound',
  'Error.Offer.NotFound',
  'Error.Subscription.NotFound',
  'Error.Subscription.NotActive',
  /** 409: the customer's subscription has started; its plan is changed, never doubled. */
  'Error.Subscription.Exists',
  /** 409: another subscription waits for its checkout; that one is completed first. */
  'Error.Subscription.Pending',
  'Error.Invoice.NotFound',
  'Error.Api.Usage.QuantityOutOfRange',
  'Error.Api.Internal',
] as const;
export type ServiceErrorCode = OpenEnum<(typeof SERVICE_ERROR_CODES)[number]>;

/** One error of the billing service: `{ Code, Message, Target? }`. */
export const ServiceErrorSchema = z.looseObject({
  Code: openEnum(SERVICE_ERROR_CODES),
  Message: z.string(),
  Target: z.optional(z.string()),
});
export type ServiceError = z.infer<typeof ServiceErrorSchema>;

/** An error body: one error, or (with 422) an array of them. */
export const ServiceErrorBodySchema = z.union([ServiceErrorSchema, z.array(ServiceErrorSchema)]);
export type ServiceErrorBody = z.infer<typeof ServiceErrorBodySchema>;

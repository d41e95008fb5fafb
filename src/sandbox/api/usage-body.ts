import * as z from 'zod';
import type { ServiceError } from '../../contract/errors.js';
import { MAX_INCREMENT } from '../billing/pricing.js';
import type { UsageChange } from '../billing/usage-quote.js';
import { ValidationError } from '../http/errors.js';
import type { Store } from '../state/store.js';
import { parseTimestamp, TimestampSchema } from '../timestamps.js';
import { check, jsonNumber, LanguageFieldSchema, ReferenceSchema } from './validate.js';

// The body of pricing (14) and applying (15) a usage change: exactly one of Increment,
// QuantityCurrent or IsEnabled; an optional IdSubscription; an optional DateStamp, refused when it
// lies in the future.

const CHANGE_FIELDS = ['Increment', 'QuantityCurrent', 'IsEnabled'] as const;

/** A DateStamp may run ahead of the sandbox's clock by this much (clients' clocks drift). */
export const DATESTAMP_TOLERANCE_MS = 5 * 60_000;

const IncrementSchema = z
  .number({ error: 'must be an integer' })
  .int('must be an integer')
  .refine((n) => n !== 0, 'must not be 0')
  .refine(
    (n) => Math.abs(n) <= MAX_INCREMENT,
    `must be between -${MAX_INCREMENT} and ${MAX_INCREMENT}`,
  );

const QuantityCurrentSchema = z
  .number({ error: 'must be an integer' })
  .int('must be an integer')
  .min(0, 'must not be negative')
  .max(MAX_INCREMENT, `must be at most ${MAX_INCREMENT}`);

const IdSubscriptionSchema = z
  .number('must be a positive integer')
  .int('must be a positive integer')
  .positive('must be a positive integer');

// Numbers are read as JSON numbers or numeric strings (`"Increment": "1"`), as the live service
// reads them.
export const UsageChangeBody = z.object({
  ReferenceCustomer: ReferenceSchema,
  ReferenceFeature: ReferenceSchema,
  Increment: jsonNumber(IncrementSchema).optional(),
  QuantityCurrent: jsonNumber(QuantityCurrentSchema).optional(),
  IsEnabled: z.boolean('must be true or false').optional(),
  IdSubscription: jsonNumber(IdSubscriptionSchema).optional(),
  DateStamp: TimestampSchema.optional(),
  Language: LanguageFieldSchema.optional(),
});

export const PricingBody = UsageChangeBody.extend({
  NextTerm: z.boolean('must be true or false').optional(),
  EnsureBillable: z.boolean('must be true or false').optional(),
});

/** The errors of a body that gives no change, or more than one. */
function changeCountErrors(body: Record<string, unknown>): ServiceError[] {
  const given = CHANGE_FIELDS.filter((field) => body[field] !== undefined);
  if (given.length === 1) return [];
  const message =
    given.length === 0
      ? 'is required: give exactly one of Increment, QuantityCurrent or IsEnabled'
      : `cannot be given with ${given.length === 2 ? 'another change' : 'other changes'}: give exactly one of Increment, QuantityCurrent or IsEnabled`;
  const targets = given.length === 0 ? CHANGE_FIELDS : given;
  return targets.map((field) => ({
    Code: 'Error.Api.Validation',
    Message: `${field} ${message}`,
    Target: field,
  }));
}

function futureDateStampError(store: Store, dateStamp: string | undefined): ServiceError[] {
  const ms = dateStamp === undefined ? null : parseTimestamp(dateStamp);
  if (ms === null) return [];
  // The sandbox's clock may be set behind real time: a client dating changes by its own clock
  // must not be refused for that.
  const latest = Math.max(store.clock.nowMs(), Date.now()) + DATESTAMP_TOLERANCE_MS;
  if (ms <= latest) return [];
  return [
    {
      Code: 'Error.Api.Validation',
      Message: `DateStamp must not be in the future (it is ${dateStamp})`,
      Target: 'DateStamp',
    },
  ];
}

/** Adds the checks zod cannot make across fields, answering every problem at once. */
function finish<T extends z.output<typeof UsageChangeBody>>(
  store: Store,
  body: unknown,
  parsed: { data: T | undefined; errors: ServiceError[] },
): T {
  const { data, errors } = parsed;
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const all = [
    ...errors,
    // A field already refused is not counted again.
    ...changeCountErrors(fields).filter((e) => !errors.some((x) => x.Target === e.Target)),
    ...(data ? futureDateStampError(store, data.DateStamp) : []),
  ];
  if (all.length > 0 || data === undefined) throw new ValidationError(all);
  return data;
}

/** Validates the body of applying a usage change (endpoint 15). */
export function parseUsageBody(store: Store, body: unknown): z.output<typeof UsageChangeBody> {
  return finish(store, body, check(UsageChangeBody, body));
}

/** Validates the body of pricing a usage change (endpoint 14). */
export function parsePricingBody(store: Store, body: unknown): z.output<typeof PricingBody> {
  return finish(store, body, check(PricingBody, body));
}

/** The one change a validated body asks for. */
export function changeOf(body: z.output<typeof UsageChangeBody>): UsageChange {
  if (body.Increment !== undefined) return { kind: 'Increment', increment: body.Increment };
  if (body.QuantityCurrent !== undefined)
    return { kind: 'QuantityCurrent', quantity: body.QuantityCurrent };
  return { kind: 'IsEnabled', enabled: body.IsEnabled === true };
}

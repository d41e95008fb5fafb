import * as z from 'zod';
import { LANGUAGES } from '../../contract/enums.js';
import type { ServiceError } from '../../contract/errors.js';
import { ValidationError } from '../http/errors.js';

export const ReferenceSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(128, 'must be at most 128 characters');

/**
 * A JSON number as written in JSON text: no spaces, no `+`, no leading zero, no hexadecimal, no
 * `Infinity` or `NaN`.
 */
const JSON_NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A numeric field of a JSON body: a JSON number, or a string holding one (`"1"`, `"1.5"`), as
 * the live service's JSON reader takes it (a PHP form hands every field over as a string). A
 * numeric string becomes its number before `schema` checks it, so `"1.5"` is refused where an
 * integer is expected exactly as `1.5` is. Anything else (`"abc"`, `""`, `" 1"`, `"1e999"`, an
 * array, a boolean) reaches `schema` unchanged and is refused with the field's own message.
 */
export function jsonNumber<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => {
    if (typeof value !== 'string' || !JSON_NUMBER_TEXT.test(value)) return value;
    const number = Number(value);
    return Number.isFinite(number) ? number : value;
  }, schema);
}

export const LanguageFieldSchema = z.enum(LANGUAGES, {
  error: `must be ${LANGUAGES.map((language) => `'${language}'`).join(' or ')}`,
});

/** Parses with zod; on failure a 422 listing every invalid field as `{ Code, Message, Target }`. */
export function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = check(schema, value);
  if (result.errors.length > 0) throw new ValidationError(result.errors);
  return result.data as z.output<T>;
}

/** Parses with zod and returns the errors instead of throwing them, to merge with other checks. */
export function check<T extends z.ZodType>(
  schema: T,
  value: unknown,
): { data: z.output<T> | undefined; errors: ServiceError[] } {
  const result = schema.safeParse(value);
  if (result.success) return { data: result.data, errors: [] };
  return {
    data: undefined,
    errors: result.error.issues.map((issue) => toServiceError(issue, value)),
  };
}

/** An optional boolean query parameter (`true` or `false`, any case), or a 422. */
export function boolParam(query: URLSearchParams, name: string): boolean | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  const lower = raw.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  throw new ValidationError([
    { Code: 'Error.Api.Validation', Message: `${name} must be true or false`, Target: name },
  ]);
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function toServiceError(issue: z.core.$ZodIssue, input: unknown): ServiceError {
  const target = issue.path.map(String).join('.');
  let message = issue.message;
  if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined)
    message = 'is required';
  if (issue.code === 'unrecognized_keys') message = `unknown field(s): ${issue.keys.join(', ')}`;
  return target
    ? { Code: 'Error.Api.Validation', Message: `${target} ${message}`, Target: target }
    : { Code: 'Error.Api.Validation', Message: message };
}

/** An integer query parameter within bounds, or a 422. */
export function intParam(
  query: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw) || value < min || value > max) {
    throw new ValidationError([
      {
        Code: 'Error.Api.Validation',
        Message: `${name} must be an integer from ${min} to ${max}`,
        Target: name,
      },
    ]);
  }
  return value;
}

export function requiredParam(query: URLSearchParams, name: string): string {
  const value = query.get(name);
  if (value === null || value.trim() === '') {
    throw new ValidationError([
      { Code: 'Error.Api.Validation', Message: `${name} is required`, Target: name },
    ]);
  }
  return value;
}

export function idParam(raw: string | undefined, name: string): number {
  if (raw === undefined || !/^\d{1,15}$/.test(raw)) {
    throw new ValidationError([
      { Code: 'Error.Api.Validation', Message: `${name} must be a positive integer`, Target: name },
    ]);
  }
  return Number(raw);
}

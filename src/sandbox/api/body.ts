import type * as z from 'zod';
import type { SandboxContext } from '../context.js';
import { readJson } from '../http/io.js';
import type { RequestContext } from '../http/router.js';
import { parse } from './validate.js';

// How the API reads a JSON body, the way the live service does:
// - `null` means "not given": clients send null for every field they do not set, so a null
//   field is dropped before validation (in nested objects too, such as Metadata);
// - unknown fields are accepted and ignored, as JSON APIs of this kind do (a client built for a
//   newer version of the service keeps working), and the sandbox's log names them so that a
//   misspelt field does not go unnoticed during development.

type ObjectSchema = z.ZodObject<z.ZodRawShape>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value with every null field of every (nested) object removed. */
export function withoutNulls(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    // defineProperty: a field named "__proto__" stays a field instead of replacing the prototype.
    if (field !== null) {
      Object.defineProperty(out, key, {
        value: withoutNulls(field),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return out;
}

/** Fields of `body` that `schema` does not know, in the order the client sent them. */
export function unknownFields(schema: ObjectSchema, body: unknown): string[] {
  if (!isPlainObject(body)) return [];
  return Object.keys(body).filter((key) => !Object.hasOwn(schema.shape, key));
}

/** Logs the unknown fields of a body (one line naming them and the route); returns them. */
export function noteUnknownFields(
  ctx: SandboxContext,
  route: string,
  schema: ObjectSchema,
  body: unknown,
): string[] {
  const unknown = unknownFields(schema, body);
  if (unknown.length > 0) {
    ctx.log(`[sandbox] ${route}: ignored unknown field(s) ${unknown.join(', ')}`);
  }
  return unknown;
}

/**
 * Reads, cleans and validates the JSON body of an API request: nulls dropped, unknown fields
 * logged and ignored, every invalid field answered at once as a 422 array.
 */
export async function readApiBody<S extends ObjectSchema>(
  ctx: SandboxContext,
  request: RequestContext,
  schema: S,
  options: { allowEmpty?: boolean } = {},
): Promise<z.output<S>> {
  const body = withoutNulls(await readJson(request.req, options.allowEmpty ?? false));
  noteUnknownFields(ctx, request.route, schema, body);
  return parse(schema, body);
}

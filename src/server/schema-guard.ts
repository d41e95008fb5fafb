import type * as z from 'zod';

// A fast path for validating the service's answers. zod parses a document into a new one
// (objects and arrays copied, every field checked through its schema's machinery, issues
// gathered along the way), which was about half of the proxy's own work on `GET /usages`. For
// the shapes the contract's answer schemas use (loose objects, arrays, records, strings,
// numbers, integers, booleans, string enums, optional and nullable fields) a valid document
// comes out of zod equal to what went in, so a plain predicate over the JSON tells all a
// successful parse would: `guardedParser` answers with the document itself when the predicate
// holds, and asks zod only when it does not, so that a refusal keeps zod's issues. A schema
// with anything the predicate cannot mirror (a transform, a default, a refinement, a check it
// does not know, an object that strips unknown keys) is always parsed by zod.
//
// The predicates are closures, not generated code: Workers forbid `new Function`.

type Guard = (value: unknown) => boolean;

/** The parts of zod's schema definitions the guards read (zod 4's `_zod.def`). */
interface Definition {
  type: string;
  format?: string;
  checks?: unknown[];
  innerType?: Schema;
  element?: Schema;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  keyType?: Schema;
  valueType?: Schema;
  entries?: Record<string, unknown>;
  values?: unknown[];
  fn?: (value: unknown) => unknown;
}
interface Schema {
  _zod: { def: Definition };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A predicate true exactly where the schema's parse succeeds and returns its input; undefined if it cannot be told. */
function guardOf(schema: Schema): Guard | undefined {
  const def = schema._zod.def;
  // A check beyond the type itself (a length, a pattern, a refinement): zod's to run.
  if ((def.checks?.length ?? 0) > 0) return undefined;
  switch (def.type) {
    case 'string':
      return (value) => typeof value === 'string';
    case 'boolean':
      return (value) => typeof value === 'boolean';
    case 'number':
      if (def.format === 'safeint') return (value) => Number.isSafeInteger(value);
      if (def.format === undefined) return (value) => Number.isFinite(value);
      return undefined;
    case 'unknown':
    case 'any':
      return () => true;
    case 'enum': {
      const values = new Set(Object.values(def.entries ?? {}));
      return (value) => values.has(value);
    }
    case 'literal': {
      const values = new Set(def.values);
      return (value) => values.has(value);
    }
    case 'custom': {
      // A predicate of the contract's own (an open enum: any string).
      const fn = def.fn;
      return fn === undefined ? undefined : (value) => fn(value) === true;
    }
    case 'optional': {
      const inner = def.innerType && guardOf(def.innerType);
      return inner && ((value) => value === undefined || inner(value));
    }
    case 'nullable': {
      const inner = def.innerType && guardOf(def.innerType);
      return inner && ((value) => value === null || inner(value));
    }
    case 'array': {
      const element = def.element && guardOf(def.element);
      return element && ((value) => Array.isArray(value) && value.every(element));
    }
    case 'record': {
      // Keys of any string only: a record over an enum must have every key, zod's to check.
      const keys = def.keyType?._zod.def;
      const entry = def.valueType && guardOf(def.valueType);
      if (keys?.type !== 'string' || (keys.checks?.length ?? 0) > 0 || entry === undefined)
        return undefined;
      return (value) => {
        if (!isObject(value)) return false;
        for (const name in value) if (!entry(value[name])) return false;
        return true;
      };
    }
    case 'object':
      return objectGuard(def);
    default:
      return undefined;
  }
}

function objectGuard(def: Definition): Guard | undefined {
  // Only a loose object keeps the keys it does not name, as the predicate does.
  if (def.catchall?._zod.def.type !== 'unknown') return undefined;
  const fields: [string, Guard][] = [];
  for (const [name, field] of Object.entries(def.shape ?? {})) {
    const guard = guardOf(field);
    if (guard === undefined) return undefined;
    fields.push([name, guard]);
  }
  return (value) => {
    if (!isObject(value)) return false;
    for (const [name, guard] of fields) if (!guard(value[name])) return false;
    return true;
  };
}

/** Whether `guardedParser` has a fast path for this schema (or always asks zod). */
export function hasFastPath(schema: z.ZodType): boolean {
  return guardOf(schema as unknown as Schema) !== undefined;
}

export type Parser<T> = (value: unknown) => z.ZodSafeParseResult<T>;

const parsers = new WeakMap<z.ZodType, Parser<unknown>>();

/**
 * `schema.safeParse`, with the guard's fast path for the documents it can tell valid: the same
 * result for every input (the property tests check it against zod), the document itself as
 * `data` when it is valid.
 */
export function guardedParser<T>(schema: z.ZodType<T>): Parser<T> {
  let parser = parsers.get(schema) as Parser<T> | undefined;
  if (parser === undefined) {
    const guard = guardOf(schema as unknown as Schema);
    const slow: Parser<T> = (value) => schema.safeParse(value);
    parser =
      guard === undefined
        ? slow
        : (value) => (guard(value) ? { success: true, data: value as T } : slow(value));
    parsers.set(schema, parser as Parser<unknown>);
  }
  return parser;
}

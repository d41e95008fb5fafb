import * as z from 'zod';

/* eslint-disable @typescript-eslint/no-explicit-any -- walks zod's definitions generically */

/**
 * The same schema with its objects compiled: the contract's schemas are zod/mini (small in the
 * browser), whose objects are parsed by an interpreter; classic zod's objects generate a parser
 * per shape (zod's own JIT), about 3 times faster on the service's answers. Every definition is
 * kept as it is (shape, catchall, checks, messages), so results and issues are the same
 * (test/server/compiled-schema.test.ts compares them on generated input); where code generation
 * is not allowed, zod falls back to the interpreter by itself.
 */
export function compiled<T extends z.core.$ZodType>(schema: T): T {
  const def = schema._zod.def as any;
  switch (def.type) {
    case 'object': {
      const shape: Record<string, z.core.$ZodType> = {};
      for (const key of Object.keys(def.shape)) shape[key] = compiled(def.shape[key]);
      const catchall = def.catchall === undefined ? undefined : compiled(def.catchall);
      return new z.ZodObject({ ...def, shape, catchall }) as any;
    }
    case 'array':
      return new z.ZodArray({ ...def, element: compiled(def.element) }) as any;
    case 'optional':
      return new z.ZodOptional({ ...def, innerType: compiled(def.innerType) }) as any;
    case 'union':
      return new z.ZodUnion({ ...def, options: def.options.map(compiled) }) as any;
    default:
      return schema;
  }
}

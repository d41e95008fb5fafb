import * as z from 'zod';
import {
  AddOnChangeRequestSchema,
  AddOnPricingRequestSchema,
  DecreasePricingRequestSchema,
  DecreaseRequestSchema,
  FEATURE_REFERENCE_PATTERN,
  PORTAL_PAGES,
  PricingRequestSchema,
  PurchaseRequestSchema,
  type AddOnChangeRequest,
  type AddOnPricingRequest,
  type DecreasePricingRequest,
  type DecreaseRequest,
  type PortalRequest,
  type PricingRequest,
  type PurchaseRequest,
} from '../contract/index.js';
import { ProxyError } from './errors.js';
import type { ResolvedOptions } from './options.js';

type Issue = z.core.$ZodIssue;

/** One readable message for the first problem, naming the field. */
function validationError(issues: readonly Issue[]): ProxyError {
  const issue = issues[0];
  if (issue === undefined) return new ProxyError(400, 'validation', 'The request is invalid.');
  if (issue.code === 'unrecognized_keys') {
    const field = issue.keys[0] ?? '';
    return new ProxyError(400, 'validation', `Unknown field "${field}".`, { field });
  }
  const field = issue.path.map(String).join('.');
  if (field === '') return new ProxyError(400, 'validation', 'The body must be a JSON object.');
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    return new ProxyError(400, 'validation', `The field "${field}" is required.`, { field });
  }
  // The contract's messages name the rule (e.g. the feature format); zod's generic ones are prefixed.
  const message =
    issue.code === 'invalid_format' ? issue.message : `Invalid "${field}": ${issue.message}.`;
  return new ProxyError(400, 'validation', message, { field });
}

/** A body parsed with a contract schema, or 400 validation naming the first problem. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error.issues);
  return parsed.data;
}

function checkIncrement(increment: number, options: ResolvedOptions): void {
  const { minIncrement, maxIncrement } = options.limits;
  if (increment === 0 || increment < minIncrement || increment > maxIncrement) {
    throw new ProxyError(
      400,
      'validation',
      `increment must be a non-zero integer between ${minIncrement} and ${maxIncrement}.`,
      { field: 'increment' },
    );
  }
}

/** The change a body asks for, by the one field that names it. */
type ChangeKind = 'increment' | 'quantity' | 'enabled';
const CHANGE_FIELDS: readonly ChangeKind[] = ['increment', 'quantity', 'enabled'];

/**
 * Whether a body asks to add to a quantity (`increment`), to lower a Limitation to a quantity
 * (`quantity`) or to switch an on/off feature (`enabled`). Two at once is refused here, with a
 * message naming the choice: the schemas alone would call one of them an unknown field.
 */
function changeKind(body: unknown): ChangeKind {
  if (typeof body !== 'object' || body === null) return 'increment';
  const given = CHANGE_FIELDS.filter((field) => Object.hasOwn(body, field));
  if (given.length > 1) {
    throw new ProxyError(
      400,
      'validation',
      'Give one of increment (a quantity to add), quantity (a lower quantity) or enabled (an on/off feature), not several.',
      { field: given[1] ?? 'enabled' },
    );
  }
  return given[0] ?? 'increment';
}

/** `POST /pricing`: a quantity to add, a lower quantity, or an on/off feature to switch. */
export function parsePricingRequest(
  body: unknown,
  options: ResolvedOptions,
): PricingRequest | AddOnPricingRequest | DecreasePricingRequest {
  const kind = changeKind(body);
  if (kind === 'enabled') return parseBody(AddOnPricingRequestSchema, body);
  if (kind === 'quantity') return parseBody(DecreasePricingRequestSchema, body);
  const parsed = parseBody(PricingRequestSchema, body);
  checkIncrement(parsed.increment, options);
  return parsed;
}

function checkAmount(amount: number, field: string): void {
  if (!Number.isSafeInteger(amount))
    throw new ProxyError(400, 'validation', `${field} is out of range.`, { field });
}

/**
 * `POST /usage`: a confirmed purchase of a quantity, a confirmed decrease, or a confirmed switch
 * of an add-on.
 */
export function parseUsageChangeRequest(
  body: unknown,
  options: ResolvedOptions,
): PurchaseRequest | AddOnChangeRequest | DecreaseRequest {
  const kind = changeKind(body);
  if (kind !== 'increment') {
    const parsed = parseBody(
      kind === 'enabled' ? AddOnChangeRequestSchema : DecreaseRequestSchema,
      body,
    );
    checkAmount(parsed.confirmedAmountTotal, 'confirmedAmountTotal');
    checkAmount(parsed.confirmedNextTermAmountTotal, 'confirmedNextTermAmountTotal');
    return parsed;
  }
  const parsed = parseBody(PurchaseRequestSchema, body);
  checkIncrement(parsed.increment, options);
  checkAmount(parsed.confirmedAmountTotal, 'confirmedAmountTotal');
  if (parsed.confirmedNextTermAmountTotal !== undefined)
    checkAmount(parsed.confirmedNextTermAmountTotal, 'confirmedNextTermAmountTotal');
  return parsed;
}

const idParameter = z.pipe(
  z.string().check(z.regex(/^[1-9][0-9]{0,14}$/, 'must be a positive integer')),
  z.transform((value: string) => Number(value)),
);

const PortalQuerySchema = z.strictObject({
  page: z.enum(PORTAL_PAGES, `page must be one of ${PORTAL_PAGES.join(', ')}`),
  offer: z.optional(
    z.string().check(z.regex(FEATURE_REFERENCE_PATTERN, 'offer must be an offer reference')),
  ),
  subscription: z.optional(idParameter),
  invoice: z.optional(idParameter),
});

/** The query of GET /portal and GET /links. Unknown or repeated parameters are refused. */
export function parsePortalQuery(url: URL): PortalRequest {
  const parsed = PortalQuerySchema.safeParse(singleValued(url));
  if (!parsed.success) throw validationError(parsed.error.issues);
  const request: PortalRequest = { page: parsed.data.page };
  if (parsed.data.offer !== undefined) request.offer = parsed.data.offer;
  if (parsed.data.subscription !== undefined) request.subscription = parsed.data.subscription;
  if (parsed.data.invoice !== undefined) request.invoice = parsed.data.invoice;
  return request;
}

/** The most invoices one page of `GET /invoices` holds, and how many it holds unless asked. */
export const MAX_INVOICES_PAGE_SIZE = 50;
export const DEFAULT_INVOICES_PAGE_SIZE = 10;

const InvoicesQuerySchema = z.strictObject({
  page: z.optional(
    idParameter.check(z.refine((page) => page <= 100_000, 'must be at most 100000')),
  ),
  size: z.optional(
    idParameter.check(
      z.refine(
        (size) => size <= MAX_INVOICES_PAGE_SIZE,
        `must be at most ${MAX_INVOICES_PAGE_SIZE}`,
      ),
    ),
  ),
});

/** The query of GET /invoices: `page` from 1 and `size`, both optional; anything else refused. */
export function parseInvoicesQuery(url: URL): { page: number; size: number } {
  const parsed = InvoicesQuerySchema.safeParse(singleValued(url));
  if (!parsed.success) throw validationError(parsed.error.issues);
  return { page: parsed.data.page ?? 1, size: parsed.data.size ?? DEFAULT_INVOICES_PAGE_SIZE };
}

/** The query's parameters, each given once: a repeated one is refused, not picked. */
function singleValued(url: URL): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (Object.hasOwn(query, name)) {
      throw new ProxyError(400, 'validation', `The parameter "${name}" is repeated.`, {
        field: name,
      });
    }
    query[name] = value;
  }
  return query;
}

/** Routes without parameters refuse any query, so that nothing the browser adds is silently ignored. */
export function refuseQuery(url: URL): void {
  // Most requests have no query: checked without making the URL's URLSearchParams.
  if (url.search === '') return;
  const [first] = url.searchParams.keys();
  if (first !== undefined)
    throw new ProxyError(400, 'validation', `Unknown parameter "${first}".`, { field: first });
}

const IdentitySchema = z.object({
  reference: z.string().check(z.minLength(1), z.maxLength(256)),
  name: z.optional(z.string().check(z.maxLength(256))),
  email: z.optional(z.string().check(z.maxLength(320))),
  language: z.optional(z.string().check(z.maxLength(100))),
});

/** `identify` is the host's code: a wrong answer is a server bug (500), logged, never guessed around. */
export function checkIdentity(value: unknown) {
  const parsed = IdentitySchema.safeParse(value);
  if (!parsed.success) {
    throw new Error(
      `identify() returned an invalid identity: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

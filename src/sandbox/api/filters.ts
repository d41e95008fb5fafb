import type { SandboxContext } from '../context.js';
import { invalid, notFound } from '../http/errors.js';
import type { CustomerRecord } from '../state/types.js';

// Filters shared by the paged lists (customers, subscriptions, invoices). A filter that names
// something unknown is an error rather than an empty page: a misspelt reference shows at once.

/** `ReferenceSegment`, when given: a known segment, else a 422. */
export function segmentFilter(ctx: SandboxContext, query: URLSearchParams): string | undefined {
  const reference = query.get('ReferenceSegment');
  if (reference === null || reference === '') return undefined;
  if (!ctx.catalog.segments.has(reference)) {
    throw invalid(`Unknown segment '${reference}'.`, 'ReferenceSegment');
  }
  return reference;
}

/** A customer reference filter (`ReferenceCustomer`, `ReferenceCustomerBuyer`), when given: the customer, else a 404. */
export function customerFilter(
  ctx: SandboxContext,
  query: URLSearchParams,
  name: string,
): CustomerRecord | undefined {
  const reference = query.get(name);
  if (reference === null || reference === '') return undefined;
  const customer = ctx.store.findCustomer(reference);
  if (!customer) {
    throw notFound('Error.Customer.NotFound', `No customer with reference '${reference}'.`, name);
  }
  return customer;
}

import type { SandboxContext } from '../context.js';
import { invalid, notFound } from '../http/errors.js';
import { json } from '../http/io.js';
import type { Router } from '../http/router.js';
import type { CustomerRecord, InvoiceRecord } from '../state/types.js';
import { customerFilter, segmentFilter } from './filters.js';
import { pageParams, pagedAs } from './paging.js';
import { presentInvoice } from './present.js';
import { idParam } from './validate.js';

/** Newest first: by issue date, then by id (invoices issued at the same instant). */
const newestFirst = (a: InvoiceRecord, b: InvoiceRecord) =>
  Date.parse(b.dateIssue) - Date.parse(a.dateIssue) || b.id - a.id;

export function registerInvoiceRoutes(router: Router, ctx: SandboxContext): void {
  const { store } = ctx;

  /** The customer the request names by `ReferenceCustomer` or `IdCustomer` (both: the same one). */
  const namedCustomer = (query: URLSearchParams): CustomerRecord | undefined => {
    const byReference = customerFilter(ctx, query, 'ReferenceCustomer');
    const idRaw = query.get('IdCustomer');
    if (idRaw === null || idRaw === '') return byReference;
    const id = idParam(idRaw, 'IdCustomer');
    const byId = store.customerById(id);
    if (!byId)
      throw notFound('Error.Customer.NotFound', `No customer with id ${id}.`, 'IdCustomer');
    if (byReference && byReference !== byId) {
      throw invalid(
        `IdCustomer ${id} is not customer '${byReference.reference}': give one of them, or both naming the same customer`,
        'IdCustomer',
      );
    }
    return byId;
  };

  // The invoices, paged, newest first; filtered by customer (ReferenceCustomer or IdCustomer),
  // subscription and segment. Each item is what GET /v1/Invoice/{id} answers.
  router.add('GET', '/v1/Invoices', ({ query }) => {
    const page = pageParams(query, { minSize: 0 });
    const segment = segmentFilter(ctx, query);
    const customer = namedCustomer(query);
    const subscriptionRaw = query.get('IdSubscription');
    let subscriptionId: number | undefined;
    if (subscriptionRaw !== null && subscriptionRaw !== '') {
      const id = idParam(subscriptionRaw, 'IdSubscription');
      const sub = store.findSubscription(id);
      if (!sub || (customer && sub.customerId !== customer.id)) {
        throw notFound(
          'Error.Subscription.NotFound',
          `No subscription ${id}${customer ? ` for customer '${customer.reference}'` : ''}.`,
          'IdSubscription',
        );
      }
      subscriptionId = id;
    }
    const source = customer ? store.invoicesOf(customer.id) : store.state.invoices;
    const invoices = source
      .filter(
        (invoice) =>
          (subscriptionId === undefined || invoice.subscriptionId === subscriptionId) &&
          (segment === undefined || store.customerById(invoice.customerId)?.segment === segment),
      )
      .sort(newestFirst);
    return json(
      200,
      pagedAs(invoices, page, (invoice) => presentInvoice(ctx, invoice)),
    );
  });

  // 12.
  router.add('GET', '/v1/Invoice/{id}', ({ params }) =>
    json(200, presentInvoice(ctx, ctx.store.invoice(idParam(params.id, 'IdInvoice')))),
  );
}

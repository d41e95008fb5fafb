import {
  findLink,
  type Invoice,
  type InvoiceStatus,
  type InvoiceSummary,
  type InvoicesResponse,
} from '../../contract/index.js';
import { isMissing, withCustomer, type RouteContext } from '../context.js';
import { parseInvoicesQuery } from '../validation.js';

/**
 * The invoice in the customer's words. A due invoice is overdue once its payment limit has
 * passed on the service's clock; a negative total is a credit note (what the service owes the
 * customer), whatever its state.
 */
export function invoiceStatus(invoice: Invoice, serviceNow: number): InvoiceStatus {
  if (invoice.AmountTotal < 0) return 'credit-note';
  switch (invoice.StateInvoice) {
    case 'Paid':
      return 'paid';
    case 'Cancelled':
      return 'cancelled';
    case 'PaymentDue': {
      const limit =
        invoice.DatePaymentLimit === undefined ? Number.NaN : Date.parse(invoice.DatePaymentLimit);
      return limit < serviceNow ? 'overdue' : 'due';
    }
    default:
      return 'other';
  }
}

function summaryOf(invoice: Invoice, serviceNow: number): InvoiceSummary {
  const status = invoiceStatus(invoice, serviceNow);
  const document = findLink(invoice.Links, 'hosted-related-invoice')?.href;
  return {
    id: invoice.Id,
    number: invoice.FullNumber,
    status,
    state: invoice.StateInvoice,
    dateIssue: invoice.DateIssue,
    datePaymentLimit: invoice.DatePaymentLimit ?? null,
    datePaid: invoice.DatePaid ?? null,
    amountSubtotal: invoice.AmountSubtotal,
    amountTotal: invoice.AmountTotal,
    currency: invoice.Currency,
    // What GET /portal?page=pay-invoice opens: the service's charge workflow of that invoice.
    payable:
      (status === 'due' || status === 'overdue') &&
      findLink(invoice.Links, 'insite-charge')?.query !== undefined,
    documentUrl: document === undefined || document === '' ? null : document,
  };
}

/**
 * GET /invoices?page=N&size=M: one page of the signed-in customer's invoices, newest first,
 * and whether the subscription is suspended (the history says why the account is stopped). The
 * customer is always the identified one: the list is asked for that customer only, and any item
 * the service attributes to another never leaves (defence in depth, as for the usages).
 */
export async function getInvoices(context: RouteContext): Promise<InvoicesResponse> {
  const { page, size } = parseInvoicesQuery(context.url);
  const { upstream, identity, call, suspensions, options } = context;
  const reference = identity.reference;
  try {
    const [list, suspended] = await Promise.all([
      withCustomer(context, () => upstream.invoices(reference, page, size, call)),
      suspensions.suspensionOf(reference, call),
    ]);
    const now = upstream.serviceNow();
    const answer: InvoicesResponse = {
      invoices: list.Items.filter((invoice) => invoice.ReferenceCustomer === reference).map(
        (invoice) => summaryOf(invoice, now),
      ),
      page,
      size,
      total: list.TotalItems,
      hostedOrigin: options.hostedOrigin,
    };
    if (suspended !== null) answer.suspended = suspended;
    return answer;
  } catch (error) {
    // A customer the service does not know (and may not create) has no invoice yet.
    if (isMissing(error))
      return { invoices: [], page, size, total: 0, hostedOrigin: options.hostedOrigin };
    throw error;
  }
}

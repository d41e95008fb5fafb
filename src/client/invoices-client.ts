import type { InvoiceSummary, InvoicesResponse } from '../contract/proxy-api.js';
import { getProxyClient, invalid } from './proxy-client.js';

// The invoices route of the proxy, for <billing-history>: a function over the page's proxy client
// rather than a method of it, so that a page without the history carries none of it.

/**
 * `GET /invoices?page=N&size=M`: one page of the signed-in customer's invoices, newest first.
 * Dates are the service's; amounts in hundredths of each invoice's currency.
 */
export async function getInvoices(
  page: number,
  size: number,
  endpoint?: string | null,
  signal?: AbortSignal,
): Promise<InvoicesResponse> {
  const body = await getProxyClient(endpoint).request<InvoicesResponse>(
    `/invoices?page=${page}&size=${size}`,
    signal,
  );
  if (!body || !Array.isArray(body.invoices) || !Number.isInteger(body.total))
    throw invalid('/invoices');
  return { ...body, invoices: body.invoices.filter(isInvoiceLike) };
}

function isInvoiceLike(value: unknown): value is InvoiceSummary {
  if (typeof value !== 'object' || value === null) return false;
  const invoice = value as Record<string, unknown>;
  return (
    Number.isInteger(invoice.id) &&
    typeof invoice.number === 'string' &&
    typeof invoice.status === 'string' &&
    Number.isInteger(invoice.amountTotal) &&
    typeof invoice.currency === 'string'
  );
}

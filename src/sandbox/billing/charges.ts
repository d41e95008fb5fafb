import { forbidden, type ApiError } from '../http/errors.js';
import type { Store } from '../state/store.js';
import type {
  CustomerRecord,
  InvoiceLine,
  InvoiceRecord,
  SubscriptionRecord,
} from '../state/types.js';
import type { PriceLine } from './pricing.js';
import { issueInvoice } from './rules.js';

/** The refusal of a billable change for a customer without a valid payment method. */
export function missingPaymentMethod(): ApiError {
  return forbidden(
    'Error.Customer.PaymentSettings.Missing',
    'The change is billable and the customer has no valid payment method.',
  );
}

/** Price lines as invoice lines. */
export function invoiceLines(lines: PriceLine[]): InvoiceLine[] {
  return lines.map((l) => ({
    label: l.label,
    amountSubtotal: l.amountSubtotal,
    amountTotal: l.amountTotal,
    ...(l.type === 'Discount' ? { discount: true } : {}),
  }));
}

/** Issues the invoice of a priced change when it costs something; null when it is free. */
export function invoiceCharge(
  store: Store,
  customer: CustomerRecord,
  sub: SubscriptionRecord,
  nowMs: number,
  charge: { amountTotal: number; lines: PriceLine[] },
): InvoiceRecord | null {
  if (charge.amountTotal <= 0) return null;
  return issueInvoice(store, customer, sub, nowMs, invoiceLines(charge.lines));
}

import { iso } from '../clock.js';
import { notFound } from '../http/errors.js';
import type { Store } from '../state/store.js';
import type { CustomerRecord, InvoiceRecord, SubscriptionRecord } from '../state/types.js';
import { invoiceCharge, missingPaymentMethod } from './charges.js';
import { assertCanChange } from './pricing.js';
import { isBillable } from './payment-type.js';
import { isCappingReached } from './rules.js';
import { quoteUsageChange, type Quote, type UsageChange } from './usage-quote.js';

// Pricing (endpoint 14) and applying (endpoint 15) a usage change, with every refusal of the
// seed. Pricing never changes anything; applying checks everything before its first mutation.

/**
 * What `EnsureBillable` asks of a pricing call: `default` refuses a billable change without a
 * payment method (the seed's rule), `ensure` refuses it even when the change costs nothing,
 * `skip` answers the price whatever the payment method.
 */
export type Billability = 'default' | 'ensure' | 'skip';

/**
 * The subscription a usage change is about: the one given by IdSubscription (it must be one of
 * the customer's own, not a custom offer prepared for them), else the customer's main one.
 */
export function usageSubscription(
  store: Store,
  customer: CustomerRecord,
  idSubscription?: number,
): SubscriptionRecord {
  if (idSubscription !== undefined) {
    const sub = store.findSubscription(idSubscription);
    if (!sub || sub.customerId !== customer.id || sub.custom) {
      throw notFound(
        'Error.Subscription.NotFound',
        `Customer '${customer.reference}' has no subscription ${idSubscription}.`,
        'IdSubscription',
      );
    }
    return sub;
  }
  return mainSubscriptionOf(store, customer);
}

/** The customer's running or suspended subscription, else the pending one; 404 without one. */
export function mainSubscriptionOf(store: Store, customer: CustomerRecord): SubscriptionRecord {
  const sub = store.mainSubscription(customer.id);
  if (!sub) {
    throw notFound(
      'Error.Subscription.NotFound',
      `Customer '${customer.reference}' has no subscription.`,
      'ReferenceCustomer',
    );
  }
  return sub;
}

export interface UsageRequest {
  featureRef: string;
  change: UsageChange;
  idSubscription?: number | undefined;
}

/** The price of a change. Order of refusals: subscription, feature, capping, state, quantity, payment method. */
export function priceUsage(
  store: Store,
  customer: CustomerRecord,
  request: UsageRequest,
  billability: Billability = 'default',
): { sub: SubscriptionRecord; quote: Quote } {
  const nowMs = store.clock.nowMs();
  const sub = usageSubscription(store, customer, request.idSubscription);
  // Feature first: a plan that lacks the feature is the answer whatever the state.
  const quote = quoteUsageChange(store.catalog, sub, request.featureRef, request.change, nowMs);
  assertCanChange(sub, isCappingReached(store, customer, nowMs));
  const billable = billability === 'ensure' || quote.amountTotal > 0;
  if (billability !== 'skip' && billable && !isBillable(customer)) {
    throw missingPaymentMethod();
  }
  return { sub, quote };
}

/** Applies a change; a billable one issues its invoice. */
export function applyUsage(
  store: Store,
  customer: CustomerRecord,
  request: UsageRequest,
  dateStamp: string | null,
): { sub: SubscriptionRecord; quote: Quote; invoice: InvoiceRecord | null } {
  const { sub, quote } = priceUsage(store, customer, request);
  const nowMs = store.clock.nowMs();
  const feature = sub.features[request.featureRef];
  if (!feature) throw new Error('unreachable: priced feature has no record');
  if (quote.type === 'OnOff') feature.enabled = quote.enabledAfter === true;
  else feature.quantityCurrent = quote.quantityAfter;
  sub.dateUpdate = iso(nowMs);
  const invoice = invoiceCharge(store, customer, sub, nowMs, quote);
  customer.usageLog.push({
    at: iso(nowMs),
    dateStamp,
    subscriptionId: sub.id,
    feature: request.featureRef,
    increment: quote.type === 'OnOff' ? 0 : quote.quantityAfter - quote.quantityBefore,
    ...(quote.type === 'OnOff' ? { isEnabled: quote.enabledAfter === true } : {}),
    quantityBefore: quote.quantityBefore,
    quantityAfter: quote.quantityAfter,
    amountSubtotal: quote.amountSubtotal,
    amountTotal: quote.amountTotal,
    invoiceId: invoice?.id ?? null,
  });
  store.changed();
  store.emit({
    type: 'SubscriptionFeaturesUpdated',
    customerId: customer.id,
    subscriptionId: sub.id,
    atMs: nowMs,
  });
  return { sub, quote, invoice };
}

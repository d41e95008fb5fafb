import type { Subscription, SuspensionReason } from '../contract/index.js';
import type { CallContext, UpstreamClient } from './upstream.js';

// Why a subscription is suspended, so that the elements name the cause and offer its remedy:
// a payment method that no longer works is replaced (the portal's `register` page), overdue
// invoices are paid, anything else is a restart.

const STATE_REASONS: Readonly<Record<string, SuspensionReason>> = {
  SuspendedPaymentDue: 'payment-due',
  SuspendedPaymentMethodInvalid: 'payment-method-invalid',
  SuspendedByBusiness: 'business',
};

/** The cause a suspended state names by itself (`other` for a state it does not know). */
export function reasonOfState(state: string): SuspensionReason {
  return STATE_REASONS[state] ?? 'other';
}

/**
 * The cause of a suspended subscription's suspension that still stands. The sandbox names it in
 * the state (SuspendedPaymentMethodInvalid, SuspendedPaymentDue, SuspendedByBusiness); the live
 * service documents only SuspendedPaymentDue, "the value shown with a payment-caused
 * suspension", whether the card stopped working or invoices stayed unpaid. So a payment-caused
 * suspension is told by what the service does give: the unpaid-invoice threshold reached
 * (`IsPaymentCappingReached`) is `payment-due`; otherwise the customer's record says whether its
 * payment method is valid (`IsPaymentMethodValid`): false is `payment-method-invalid`, and true
 * after a card suspension means the card was replaced, leaving only the restart (`other`).
 * Without that field, or when the customer cannot be read, the state's own cause stands. Costs
 * one customer read, only for a suspension the unpaid invoices do not explain.
 */
export async function suspensionReason(
  upstream: Pick<UpstreamClient, 'customer'>,
  subscription: Pick<
    Subscription,
    'StateSubscription' | 'IsPaymentCappingReached' | 'ReferenceCustomer'
  >,
  call?: CallContext,
): Promise<SuspensionReason> {
  const stated = reasonOfState(subscription.StateSubscription);
  if (subscription.IsPaymentCappingReached === true) return 'payment-due';
  if (stated !== 'payment-due' && stated !== 'payment-method-invalid') return stated;
  const valid = await upstream.customer(subscription.ReferenceCustomer, undefined, call).then(
    (customer) => customer.IsPaymentMethodValid,
    () => undefined,
  );
  if (valid === false) return 'payment-method-invalid';
  if (valid === true && stated === 'payment-method-invalid') return 'other';
  return stated;
}

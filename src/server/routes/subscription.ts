import type {
  DueInvoice,
  Invoice,
  Subscription,
  SubscriptionStatus,
  SubscriptionStatusResponse,
  SuspensionReason,
} from '../../contract/index.js';
import { isMissing, withCustomer, type RouteContext } from '../context.js';
import { reasonOfState, suspensionReason } from '../suspension.js';

const MAX_DUE_INVOICES = 20;
const INVOICE_HREF = /\/v1\/Invoice\/(\d+)(?:[/?#]|$)/i;

/** The subscription's state in the widgets' terms, and the cause its suspended state names. */
export function statusOf(state: string): {
  status: SubscriptionStatus;
  reason: SuspensionReason | null;
} {
  if (state === 'Running') return { status: 'running', reason: null };
  if (state === 'PendingSubscription') return { status: 'pending', reason: null };
  if (state === 'Ended') return { status: 'ended', reason: null };
  if (state.startsWith('Suspended')) return { status: 'suspended', reason: reasonOfState(state) };
  return { status: 'other', reason: null };
}

/**
 * The due invoices of the subscription. The seed has no invoice list; the subscription's
 * Links point at its invoices (`/v1/Invoice/{id}` hrefs), each read with GET /v1/Invoice/{id}
 * and kept only when it is the customer's own and PaymentDue. Oldest first.
 */
export async function dueInvoices(
  context: RouteContext,
  subscription: Subscription | null,
): Promise<{ invoice: Invoice; due: DueInvoice }[]> {
  if (subscription === null) return [];
  const ids = new Set<number>();
  for (const link of subscription.Links ?? []) {
    const match = link.href === undefined ? null : INVOICE_HREF.exec(link.href);
    if (match?.[1] !== undefined) ids.add(Number(match[1]));
  }
  const invoices = await Promise.all(
    [...ids].slice(0, MAX_DUE_INVOICES).map((id) => context.upstream.invoice(id, context.call)),
  );
  return invoices
    .filter(
      (invoice) =>
        invoice.ReferenceCustomer === context.identity.reference &&
        invoice.StateInvoice === 'PaymentDue',
    )
    .sort((a, b) => a.DateIssue.localeCompare(b.DateIssue) || a.Id - b.Id)
    .map((invoice) => ({
      invoice,
      due: {
        id: invoice.Id,
        number: invoice.FullNumber,
        amountTotal: invoice.AmountTotal,
        currency: invoice.Currency,
        dateIssue: invoice.DateIssue,
        ...(invoice.DatePaymentLimit === undefined
          ? {}
          : { datePaymentLimit: invoice.DatePaymentLimit }),
      },
    }));
}

/** GET /subscription: the state of the customer's subscription, in terms the widgets act on. */
export async function getSubscription(context: RouteContext): Promise<SubscriptionStatusResponse> {
  let subscription: Subscription;
  try {
    subscription = await withCustomer(context, () =>
      context.upstream.subscriptionOf(context.identity.reference, context.call),
    );
  } catch (error) {
    if (!isMissing(error)) throw error;
    return {
      status: 'none',
      state: null,
      suspensionReason: null,
      paymentCappingReached: false,
      subscriptionId: null,
      offer: null,
      title: null,
      periodEnd: null,
      offerAfterTerm: null,
      titleAfterTerm: null,
      dateOfferChange: null,
      dueInvoices: [],
      discounts: [],
    };
  }
  const { status } = statusOf(subscription.StateSubscription);
  return {
    status,
    state: subscription.StateSubscription,
    suspensionReason:
      status === 'suspended'
        ? await suspensionReason(context.upstream, subscription, context.call)
        : null,
    paymentCappingReached: subscription.IsPaymentCappingReached === true,
    subscriptionId: subscription.Id,
    offer: subscription.ReferenceOffer,
    title: subscription.TitleLocalized ?? null,
    periodEnd: subscription.DatePeriodEnd ?? null,
    offerAfterTerm: subscription.ReferenceOfferAfterTerm ?? null,
    titleAfterTerm: subscription.TitleLocalizedAfterTerm ?? null,
    dateOfferChange: subscription.ReferenceOfferAfterTerm
      ? (subscription.DateOfferChange ?? subscription.DatePeriodEnd ?? null)
      : null,
    dueInvoices: (await dueInvoices(context, subscription)).map((entry) => entry.due),
    discounts: (subscription.Discounts ?? [])
      .filter((discount) => discount.TargetFee === 'All' || discount.TargetFee === 'Recurring')
      .map((discount) => {
        const off =
          discount.TypeOff === 'PerTenThousand'
            ? { perTenThousand: discount.ValueOff }
            : discount.TypeOff === 'Flat'
              ? { amount: discount.ValueOff }
              : undefined;
        return {
          reference: discount.ReferenceDiscount,
          title: discount.TitleLocalized ?? discount.Name ?? discount.ReferenceDiscount,
          ...(off ? { off } : {}),
          fees: discount.TargetFee === 'All' ? ('all' as const) : ('recurring' as const),
        };
      }),
  };
}

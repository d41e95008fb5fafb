import {
  PlanChangeRequestSchema,
  PlanQuoteRequestSchema,
  type OffersResponse,
  type PlanChangeRequest,
  type PlanQuoteResponse,
  type Offer,
  type PreparedOffer,
  type Subscription,
} from '../../contract/index.js';
import {
  chargeRateLimit,
  isMissing,
  taxesOf,
  withCustomer,
  type RouteContext,
} from '../context.js';
import { ProxyError, UpstreamError } from '../errors.js';
import { parseBody } from '../validation.js';
import { ExactlyOnceChange, type Outcome, type Settlement } from './exactly-once.js';

// The customer's plan: the offers it can move to (GET /offers), the price of a move (POST
// /plan/quote, the live service's quote of an upgrade) and the move itself (POST /plan), which
// is re-quoted before it is applied and applied at most once per confirmation, with the same
// machinery and stores as purchases (exactly-once.ts). The proxy uses the quote of an upgrade
// (POST /v1/Quoting/Subscription/{id}/Upgrade) and seed endpoint 9 (POST
// /v1/Subscription/{id}/Upgrade?ReferenceOffer=) to apply it.

/**
 * GET /offers: the visible offers of the customer's segment, the current one marked, and the
 * subscriptions the business prepared for the customer. The customer's own plan is always
 * among the offers: one outside the visible grid (a custom subscription taken, a plan sold on
 * request) is added from the subscription, marked current.
 */
export async function getOffers(context: RouteContext): Promise<OffersResponse> {
  const [offers, subscriptions] = await Promise.all([
    withCustomer(context, () => context.upstream.offers(context.identity.reference, context.call)),
    subscriptionsOrNone(context),
  ]);
  const started = subscriptions.find(
    (subscription) =>
      subscription.StateSubscription !== 'PendingSubscription' &&
      subscription.StateSubscription !== 'Ended',
  );
  // The pending subscriptions beside a running one are the business's: a customer cannot start
  // a second subscription while one runs. Without a running one there is nothing to switch
  // from, and a pending subscription is the customer's own, to complete.
  const prepared: PreparedOffer[] =
    started?.StateSubscription === 'Running'
      ? subscriptions
          .filter((subscription) => subscription.StateSubscription === 'PendingSubscription')
          .map((subscription) => ({
            subscription: subscription.Id,
            offer: asOffer(subscription, 'discounted'),
          }))
      : [];
  // The card's price before discounts, as every other card: the picker takes them off.
  if (started !== undefined && !offers.some((offer) => offer.IsCurrent))
    offers.push({ ...asOffer(started, 'list'), IsCurrent: true });
  // A subscription names no currency: its plan's, else the segment's (its offers').
  const priced = offers.filter((offer) => offer.Currency !== undefined);
  const currencyOf = (reference: string) =>
    (priced.find((offer) => offer.ReferenceOffer === reference) ?? priced[0])?.Currency;
  for (const offer of [...offers, ...prepared.map((custom) => custom.offer)]) {
    const currency = offer.Currency ?? currencyOf(offer.ReferenceOffer);
    if (currency !== undefined) offer.Currency = currency;
  }
  return { offers, prepared, taxes: taxesOf(context) };
}

/**
 * The customer's subscriptions (the prepared ones among them). A service that cannot list them
 * leaves the plans as they are: logged, never a failure of the plans.
 */
async function subscriptionsOrNone(context: RouteContext): Promise<Subscription[]> {
  try {
    return await context.upstream.subscriptionsOf(context.identity.reference, context.call);
  } catch (error) {
    // A customer the service does not know yet has none.
    if (isMissing(error)) return [];
    context.options.logger({
      level: 'warn',
      event: 'subscriptions-unread',
      message: `The subscriptions could not be read: ${error instanceof Error ? error.message : String(error)}`,
    });
    return [];
  }
}

/**
 * A subscription as an offer of its own: its plan's reference, its title and features, and its
 * own recurring price, after its discounts or before them (`list`).
 */
function asOffer(subscription: Subscription, price: 'discounted' | 'list'): Offer {
  const discounted = subscription.AmountRecurrenceDiscounted;
  const amount =
    price === 'discounted' && typeof discounted === 'number'
      ? discounted
      : subscription.AmountRecurrence;
  const { Currency: currency } = subscription;
  return {
    Id: subscription.IdOffer,
    ReferenceOffer: subscription.ReferenceOffer,
    IsOnRequest: false,
    ...(subscription.TitleLocalized !== undefined
      ? { TitleLocalized: subscription.TitleLocalized }
      : {}),
    ...(amount !== undefined ? { AmountRecurrence: amount } : {}),
    ...(typeof currency === 'string' ? { Currency: currency } : {}),
    ...(subscription.DurationRecurrence !== undefined
      ? { DurationRecurrence: subscription.DurationRecurrence }
      : {}),
    ...(subscription.UnitRecurrence !== undefined
      ? { UnitRecurrence: subscription.UnitRecurrence }
      : {}),
    ...(subscription.Features !== undefined ? { Features: subscription.Features } : {}),
  };
}

/** The customer's subscription, or 404 no-subscription. */
async function subscriptionOf(context: RouteContext): Promise<Subscription> {
  try {
    return await withCustomer(context, () =>
      context.upstream.subscriptionOf(context.identity.reference, context.call),
    );
  } catch (error) {
    if (isMissing(error))
      throw new ProxyError(404, 'no-subscription', 'There is no subscription for this account.');
    throw error;
  }
}

function quoteFor(
  context: RouteContext,
  subscription: Subscription,
  offer: string,
): Promise<PlanQuoteResponse> {
  if (subscription.ReferenceOffer === offer && subscription.ReferenceOfferAfterTerm === undefined)
    throw new ProxyError(409, 'already-on-offer', 'The subscription is already on this plan.', {
      field: 'offer',
    });
  return context.upstream.upgradeQuote(subscription.Id, offer, context.call);
}

/** POST /plan/quote: what moving to `offer` costs now and per period, changing nothing. */
export async function postPlanQuote(context: RouteContext): Promise<PlanQuoteResponse> {
  const { offer } = parseBody(PlanQuoteRequestSchema, context.body);
  chargeRateLimit(context);
  return quoteFor(context, await subscriptionOf(context), offer);
}

/** POST /plan: a plan change the user confirmed, applied at most once per key. */
export async function postPlan(context: RouteContext): Promise<Outcome> {
  const request = parseBody(PlanChangeRequestSchema, context.body);
  return new PlanChange(context, request).run();
}

/** The state a plan change moves: the offer now, and the one scheduled for the period's end. */
interface PlanState {
  subscription: number;
  offer: string;
  offerAfterTerm: string | null;
  dateEffective: string | null;
}

function stateOf(subscription: Subscription): PlanState {
  return {
    subscription: subscription.Id,
    offer: subscription.ReferenceOffer,
    offerAfterTerm: subscription.ReferenceOfferAfterTerm ?? null,
    dateEffective: subscription.DateOfferChange ?? null,
  };
}

class PlanChange extends ExactlyOnceChange<PlanState> {
  protected readonly noun = 'plan change';
  protected readonly checkBeforeRetrying = 'Check your plan before changing it again.';

  readonly #request: PlanChangeRequest;

  constructor(context: RouteContext, request: PlanChangeRequest) {
    super(context, {
      record: ['plan', request.idempotencyKey],
      // One plan change of a customer at a time: the before/after comparison is then theirs.
      lock: ['plan-lock'],
      fingerprint: [
        request.offer,
        request.confirmedAmountTotal,
        request.confirmedNextTermAmountTotal,
      ],
      // A quote and two reads.
      upstreamCalls: 3,
    });
    this.#request = request;
  }

  protected async read(): Promise<PlanState | undefined> {
    return stateOf(await subscriptionOf(this.context));
  }

  protected settle(before: PlanState, now: PlanState): Settlement {
    const target = this.#request.offer;
    // Keeping the current offer cancels a scheduled change: applied once none is scheduled.
    if (target === before.offer) {
      if (now.offer === target && now.offerAfterTerm === null) return 'applied';
    } else if (now.offer === target || now.offerAfterTerm === target) return 'applied';
    return now.offer === before.offer && now.offerAfterTerm === before.offerAfterTerm
      ? 'unchanged'
      : 'other';
  }

  protected appliedFrom(now: PlanState, amountTotal: number): Promise<Outcome> {
    return this.#succeed(now, amountTotal);
  }

  protected async attempt(
    previous: PlanState | undefined,
    previousAmount: number | undefined,
  ): Promise<Outcome> {
    const { upstream, call } = this.context;
    const { offer, confirmedAmountTotal, confirmedNextTermAmountTotal } = this.#request;
    if (previous !== undefined) {
      const settled = await this.settlePrevious(previous, previousAmount ?? confirmedAmountTotal);
      if (settled !== undefined) return settled;
    }
    const subscription = await subscriptionOf(this.context);
    const quote = await quoteFor(this.context, subscription, offer);
    if (
      quote.AmountTotalDue !== confirmedAmountTotal ||
      quote.NextTerm.AmountTotal !== confirmedNextTermAmountTotal
    ) {
      throw new ProxyError(409, 'price-changed', 'The price changed. Confirm the new price.', {
        quote,
      });
    }
    const before = stateOf(subscription);
    // Recorded before the change: whoever holds the key next can reconcile from it.
    await this.saveBeforeApply(before, quote.AmountTotalDue);
    try {
      await upstream.changeOffer(subscription.Id, offer, call);
    } catch (error) {
      if (error instanceof UpstreamError && error.ambiguous)
        return this.reconcile(error, before, quote.AmountTotalDue);
      throw error;
    }
    // A 2xx: changed. What the subscription is now is read back for the answer.
    const now = await this.read().catch(() => undefined);
    return this.#succeed(
      now ?? { ...before, offer: quote.IsImmediate ? offer : before.offer },
      quote.AmountTotalDue,
    );
  }

  #succeed(now: PlanState, amountTotal: number): Promise<Outcome> {
    this.context.options.logger({
      level: 'info',
      event: 'plan-changed',
      message: `Moved to ${this.#request.offer}`,
      customer: this.context.identity.reference,
      amountTotal,
    });
    return this.done({
      offer: now.offer,
      offerAfterTerm: now.offerAfterTerm,
      dateEffective: now.dateEffective,
      amountTotal,
    });
  }
}

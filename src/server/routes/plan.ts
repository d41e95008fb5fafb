import {
  PlanChangeRequestSchema,
  PlanQuoteRequestSchema,
  type OffersResponse,
  type PlanChangeRequest,
  type PlanQuoteResponse,
  type Subscription,
} from '../../contract/index.js';
import { chargeRateLimit, isMissing, withCustomer, type RouteContext } from '../context.js';
import { ProxyError, UpstreamError } from '../errors.js';
import { parseBody } from '../validation.js';
import { ExactlyOnceChange, type Outcome, type Settlement } from './exactly-once.js';

// The customer's plan: the offers it can move to (GET /offers), the price of a move (POST
// /plan/quote, the live service's quote of an upgrade) and the move itself (POST /plan), which
// is re-quoted before it is applied and applied at most once per confirmation, with the same
// machinery and stores as purchases (exactly-once.ts). The proxy uses the quote of an upgrade
// (POST /v1/Quoting/Subscription/{id}/Upgrade) and seed endpoint 9 (POST
// /v1/Subscription/{id}/Upgrade?ReferenceOffer=) to apply it.

/** GET /offers: the visible offers of the customer's segment, the current one marked. */
export async function getOffers(context: RouteContext): Promise<OffersResponse> {
  const offers = await withCustomer(context, () =>
    context.upstream.offers(context.identity.reference, context.call),
  );
  return { offers };
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

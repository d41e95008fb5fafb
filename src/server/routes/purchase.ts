import type { PurchaseRequest, Usage } from '../../contract/index.js';
import type { RouteContext } from '../context.js';
import { UpstreamError } from '../errors.js';
import { parseUsageChangeRequest } from '../validation.js';
import { AddOnChange } from './add-on.js';
import { Decrease } from './decrease.js';
import { ExactlyOnceChange, type Outcome, type Settlement } from './exactly-once.js';
import { PERIOD_TURN_WAIT_MS, priceForApply } from './period-turn.js';
import { matchesConfirmation, priceChanged } from './pricing-confirmation.js';

// POST /usage: a purchase the user confirmed, applied at most once per (customer, key): the
// key's record, the per-feature lock and the reconciliation are ExactlyOnceChange's
// (exactly-once.ts). What a purchase adds: the state it moves is the feature's quantity
// (applied = before + increment), and the money rules below.
//
// Money, beyond exactly once:
// - Any 2xx from the apply means applied, whatever its body (empty, an HTML page from a gateway,
//   another shape): the usage is read back, the outcome stored as done, never applied again.
// - The service prices the apply when it processes it. A price confirmed in the last moments of
//   a billing period could be charged at the next period's price, which nobody saw: when the
//   period ends within the time an apply can take, the proxy waits for it to turn and prices
//   again (409 price-changed with the new price when it differs; see period-turn.ts).
// - The apply's answer carries the new quantity, not an amount. When it shows that something
//   else changed the feature in between (quantity != before + increment), the amount charged may
//   not be the one confirmed: the answer says so (`amountConfirmed: false`) and a warning is logged.

interface Before {
  quantity: number;
  usage: Usage;
}

function quantityOf(usages: readonly Usage[], feature: string): Before | undefined {
  const usage = usages.find((candidate) => candidate.ReferenceFeature === feature);
  if (usage === undefined || usage.QuantityCurrent === undefined) return undefined;
  return { quantity: usage.QuantityCurrent, usage };
}

/**
 * POST /usage: answers 200 with the PurchaseResponse (for an add-on switched on or off, the
 * AddOnChangeResponse: see add-on.ts; for a decrease, the DecreaseResponse: see decrease.ts), or
 * the (possibly stored) refusal.
 */
export async function postUsage(context: RouteContext): Promise<Outcome> {
  const request = parseUsageChangeRequest(context.body, context.options);
  if ('enabled' in request) return new AddOnChange(context, request).run();
  if ('quantity' in request) return new Decrease(context, request).run();
  return new Purchase(context, request).run();
}

class Purchase extends ExactlyOnceChange<Before> {
  protected readonly noun = 'purchase';
  protected readonly checkBeforeRetrying = 'Check the usage before buying again.';

  readonly #request: PurchaseRequest;

  constructor(context: RouteContext, request: PurchaseRequest) {
    super(context, {
      record: ['purchase', request.idempotencyKey],
      lock: ['apply-lock', request.feature],
      // The recurring price confirmed only when sent: a request without it (an earlier page's,
      // re-sent with its key) keeps the fingerprint earlier versions recorded.
      fingerprint: [
        request.feature,
        request.increment,
        request.confirmedAmountTotal,
        ...(request.confirmedNextTermAmountTotal === undefined
          ? []
          : [request.confirmedNextTermAmountTotal]),
      ],
      // Two price checks around a period's turn and two reads, and the wait for the turn.
      upstreamCalls: 4,
      waitMs: context.options.timeouts.applyMs + PERIOD_TURN_WAIT_MS,
    });
    this.#request = request;
  }

  // Records written before `amountConfirmed` existed lack it: read as confirmed, as they were.
  protected override replay(response: object): object {
    return { amountConfirmed: true, ...response, replayed: true };
  }

  protected settle(before: Before, now: Before): Settlement {
    if (now.quantity === before.quantity + this.#request.increment) return 'applied';
    return now.quantity === before.quantity ? 'unchanged' : 'other';
  }

  protected appliedFrom(now: Before, amountTotal: number): Promise<Outcome> {
    return this.#succeed(now.usage, amountTotal, true);
  }

  protected async read(): Promise<Before | undefined> {
    const { upstream, identity, call } = this.context;
    return quantityOf(await upstream.usages(identity.reference, call), this.#request.feature);
  }

  protected async attempt(
    previous: Before | undefined,
    previousAmount: number | undefined,
  ): Promise<Outcome> {
    const { upstream, identity, call } = this.context;
    const { feature, increment, confirmedAmountTotal } = this.#request;

    if (previous !== undefined) {
      // An earlier owner may have applied: look before doing anything.
      const settled = await this.settlePrevious(previous, previousAmount ?? confirmedAmountTotal);
      if (settled !== undefined) return settled;
    }

    const pricing = await priceForApply(this.context, feature, { increment });
    // The recurring price confirmed is checked as the amount due now is, when the page sent it
    // (every page of this version does) and the service said it: a purchase confirmed at "$59.00
    // a month" is not applied at $68.00 (another change made meanwhile, another customer).
    if (!matchesConfirmation(pricing, this.#request)) throw priceChanged(this.context, pricing);
    const before = await this.read();
    // Recorded before the apply call: whoever holds the key next can reconcile from it.
    await this.saveBeforeApply(before, pricing.AmountTotal);

    let answer: { usage: Usage | undefined };
    try {
      answer = await upstream.applyUsage(identity.reference, feature, { increment }, call);
    } catch (error) {
      if (error instanceof UpstreamError && error.ambiguous)
        return this.reconcile(error, before, pricing.AmountTotal);
      throw error;
    }
    // A 2xx: applied. An answer without a readable usage is completed by reading it back.
    const usage = answer.usage ?? (await this.read().catch(() => undefined))?.usage;
    const confirmed =
      before !== undefined &&
      usage?.QuantityCurrent !== undefined &&
      usage.QuantityCurrent === before.quantity + increment;
    return this.#succeed(usage ?? this.#expected(before), pricing.AmountTotal, confirmed);
  }

  #expected(before: Before | undefined): Usage {
    if (before === undefined) {
      // Applied, but neither the answer nor a read-back gave the usage: the minimal truthful one.
      return {
        IdSubscription: 0,
        ReferenceFeature: this.#request.feature,
        TypeFeature: 'Limitation',
      };
    }
    return { ...before.usage, QuantityCurrent: before.quantity + this.#request.increment };
  }

  async #succeed(usage: Usage, amountTotal: number, amountConfirmed: boolean): Promise<Outcome> {
    const response = { usage, amountTotal, amountConfirmed };
    if (!amountConfirmed) {
      this.context.options.logger({
        level: 'warn',
        event: 'purchase-amount-unconfirmed',
        message: `Applied ${this.#request.increment} × ${this.#request.feature}, but the quantity after it (${usage.QuantityCurrent ?? 'unknown'}) is not the one before plus the purchase: something else changed the feature in between, so the amount charged may differ from the ${amountTotal} confirmed`,
        customer: this.context.identity.reference,
        feature: this.#request.feature,
      });
    }
    this.context.options.logger({
      level: 'info',
      event: 'purchase-applied',
      message: `Applied ${this.#request.increment} × ${this.#request.feature}`,
      customer: this.context.identity.reference,
      feature: this.#request.feature,
      increment: this.#request.increment,
      amountTotal,
    });
    return this.done(response);
  }
}

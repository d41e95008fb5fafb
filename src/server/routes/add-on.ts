import type { AddOnChangeRequest, AddOnChangeResponse, Usage } from '../../contract/index.js';
import type { RouteContext } from '../context.js';
import { ProxyError, UpstreamError } from '../errors.js';
import { ExactlyOnceChange, type Outcome, type Settlement } from './exactly-once.js';
import { PERIOD_TURN_WAIT_MS, priceForApply } from './period-turn.js';
import { matchesConfirmation, priceChanged } from './pricing-confirmation.js';

// POST /usage with `enabled`: an on/off add-on ("Priority support") switched on (bought) or off
// (removed) after the customer confirmed its price, applied at most once per (customer, key) by
// the same machinery as purchases (exactly-once.ts), under the same per-feature lock.
//
// What a switch adds:
// - The state it moves is the feature's `IsEnabled`: applied means it reads as asked after the
//   apply, and differed before.
// - A switch to the state the feature is already in is refused (409 `add-on-already-on` or
//   `add-on-already-off`), before anything is priced: a second tab confirming the same purchase
//   with its own key must not be asked to "confirm" a price of nothing.
// - Two prices are confirmed: due now (a removal costs nothing now) and the recurring price
//   from the next term (what a removal changes). Either differing from the service's is 409
//   `price-changed` with the current price.

interface Switch {
  enabled: boolean;
  usage: Usage;
}

export class AddOnChange extends ExactlyOnceChange<Switch> {
  protected readonly noun = 'add-on change';
  protected readonly checkBeforeRetrying = 'Check your plan before changing it again.';

  readonly #request: AddOnChangeRequest;

  constructor(context: RouteContext, request: AddOnChangeRequest) {
    super(context, {
      record: ['add-on', request.idempotencyKey],
      // The purchases' lock: a feature changes through one request at a time, whatever the kind.
      lock: ['apply-lock', request.feature],
      fingerprint: [
        request.feature,
        request.enabled,
        request.confirmedAmountTotal,
        request.confirmedNextTermAmountTotal,
      ],
      // A read, two price checks around a period's turn and a read back.
      upstreamCalls: 4,
      waitMs: context.options.timeouts.applyMs + PERIOD_TURN_WAIT_MS,
    });
    this.#request = request;
  }

  protected settle(before: Switch, now: Switch): Settlement {
    if (now.enabled === before.enabled) return 'unchanged';
    return now.enabled === this.#request.enabled ? 'applied' : 'other';
  }

  protected appliedFrom(now: Switch, amountTotal: number): Promise<Outcome> {
    return this.#succeed(now.usage, amountTotal);
  }

  protected async read(): Promise<Switch | undefined> {
    const { upstream, identity, call } = this.context;
    const usages = await upstream.usages(identity.reference, call);
    const usage = usages.find((candidate) => candidate.ReferenceFeature === this.#request.feature);
    if (usage === undefined || usage.TypeFeature !== 'OnOff') return undefined;
    return { enabled: usage.IsEnabled === true, usage };
  }

  protected async attempt(
    previous: Switch | undefined,
    previousAmount: number | undefined,
  ): Promise<Outcome> {
    const { upstream, identity, call } = this.context;
    const { feature, enabled } = this.#request;

    if (previous !== undefined) {
      const settled = await this.settlePrevious(
        previous,
        previousAmount ?? this.#request.confirmedAmountTotal,
      );
      if (settled !== undefined) return settled;
    }

    const before = await this.read();
    if (before !== undefined && before.enabled === enabled) {
      throw new ProxyError(
        409,
        enabled ? 'add-on-already-on' : 'add-on-already-off',
        enabled ? 'This add-on is already in your plan.' : 'This add-on is already removed.',
      );
    }
    const pricing = await priceForApply(this.context, feature, { enabled });
    if (!matchesConfirmation(pricing, this.#request)) {
      throw priceChanged(this.context, pricing);
    }
    // Recorded before the apply call: whoever holds the key next can reconcile from it.
    await this.saveBeforeApply(before, pricing.AmountTotal);

    let answer: { usage: Usage | undefined };
    try {
      answer = await upstream.applyUsage(identity.reference, feature, { enabled }, call);
    } catch (error) {
      if (error instanceof UpstreamError && error.ambiguous)
        return this.reconcile(error, before, pricing.AmountTotal);
      throw error;
    }
    // A 2xx: applied. An answer without a readable usage is completed by reading it back.
    const usage =
      answer.usage ?? (await this.read().catch(() => undefined))?.usage ?? this.#expected(before);
    return this.#succeed(usage, pricing.AmountTotal);
  }

  /** The usage as the switch leaves it, when neither the answer nor a read-back gave it. */
  #expected(before: Switch | undefined): Usage {
    const { feature, enabled } = this.#request;
    const base: Usage = before?.usage ?? {
      IdSubscription: 0,
      ReferenceFeature: feature,
      TypeFeature: 'OnOff',
    };
    return { ...base, IsEnabled: enabled, ...(enabled ? { IsIncluded: true } : {}) };
  }

  async #succeed(usage: Usage, amountTotal: number): Promise<Outcome> {
    const { feature, enabled, confirmedNextTermAmountTotal } = this.#request;
    const response: Omit<AddOnChangeResponse, 'replayed'> = {
      usage,
      amountTotal,
      nextTermAmountTotal: confirmedNextTermAmountTotal,
    };
    this.context.options.logger({
      level: 'info',
      event: 'add-on-changed',
      message: `Switched ${feature} ${enabled ? 'on' : 'off'}`,
      customer: this.context.identity.reference,
      feature,
      enabled,
      amountTotal,
    });
    return this.done(response);
  }
}

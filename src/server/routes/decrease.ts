import type {
  DecreasePricingRequest,
  DecreaseRequest,
  DecreaseResponse,
  PricingUsageResult,
  Usage,
} from '../../contract/index.js';
import type { RouteContext } from '../context.js';
import { ProxyError, UpstreamError } from '../errors.js';
import { ExactlyOnceChange, type Outcome, type Settlement } from './exactly-once.js';
import { PERIOD_TURN_WAIT_MS, priceForApply } from './period-turn.js';
import { matchesConfirmation, priceChanged } from './pricing-confirmation.js';

// A decrease: a Limitation feature the customer owns ("seats") lowered to a new quantity, priced
// by POST /pricing with `quantity` and applied by POST /usage with `quantity` once the customer
// confirmed it, at most once per (customer, key) by the machinery of purchases (exactly-once.ts),
// under the same per-feature lock.
//
// Why an absolute quantity rather than a negative increment: the service reads it as
// `QuantityCurrent`, so the change says what the customer confirmed ("5 seats"), and an apply
// that lands twice at the service leaves the same 5 seats, where a second -2 would take two more.
//
// What a decrease adds:
// - It is checked against what the customer owns before anything is priced: the feature must be
//   a Limitation of their plan (404 NoneMatching otherwise), the quantity below the current one
//   (409 `not-a-decrease`: a second tab confirming the same decrease meets it), and not below the
//   floor: what is in use (409 `below-in-use`, from the `inUse` option, else the page's `inUse`),
//   or when nobody says, the plan's included quantity (409 `below-included`). A refused decrease
//   changes nothing.
// - Two prices are confirmed, as for an add-on: due now (the service credits nothing for a
//   decrease: 0) and the recurring price from the next term (what a decrease changes). Either
//   differing from the service's is 409 `price-changed` with the current price.
// - Applied means the quantity reads as confirmed after the apply, and differed before.

interface Holding {
  quantity: number;
  usage: Usage;
}

/** How many the feature counts, and its usage, from the customer's usages. */
function holdingOf(usages: readonly Usage[], feature: string): Holding | undefined {
  const usage = usages.find((candidate) => candidate.ReferenceFeature === feature);
  if (usage === undefined) return undefined;
  return { quantity: usage.QuantityCurrent ?? 0, usage };
}

/** What is in use: the host's `inUse` option and the page's figure, the larger; undefined when neither says. */
async function inUseOf(
  context: RouteContext,
  request: DecreasePricingRequest,
): Promise<number | undefined> {
  const told = await context.options.inUse?.(context.identity, request.feature);
  const figures = [told, request.inUse].filter(
    (figure): figure is number => typeof figure === 'number' && Number.isFinite(figure),
  );
  return figures.length ? Math.max(...figures) : undefined;
}

/**
 * The customer's holding of the feature, when `request` may lower it: refused with a specific
 * error otherwise (see above). Reads the usages once.
 */
export async function checkDecrease(
  context: RouteContext,
  request: DecreasePricingRequest,
): Promise<Holding> {
  const { upstream, identity, call } = context;
  const { feature, quantity } = request;
  const holding = holdingOf(await upstream.usages(identity.reference, call), feature);
  if (holding === undefined) {
    throw new ProxyError(
      404,
      'Error.Api.Usage.NoneMatching',
      'Your plan does not include this feature: there is nothing to lower.',
    );
  }
  const { usage } = holding;
  if (usage.TypeFeature !== 'Limitation') {
    throw new ProxyError(
      400,
      'validation',
      `Only a quantity you choose (a Limitation feature) can be lowered; "${feature}" is ${usage.TypeFeature === 'OnOff' ? 'an on/off feature (remove it with enabled: false)' : 'counted use'}.`,
      { field: 'quantity' },
    );
  }
  if (quantity >= holding.quantity) {
    throw new ProxyError(
      409,
      'not-a-decrease',
      `You have ${holding.quantity}: a decrease goes below that, and ${quantity} does not.`,
      { field: 'quantity' },
    );
  }
  const inUse = await inUseOf(context, request);
  if (inUse !== undefined && quantity < inUse) {
    throw new ProxyError(
      409,
      'below-in-use',
      `${inUse} are in use: you cannot go below ${inUse}.`,
      { field: 'quantity' },
    );
  }
  const included = usage.QuantityIncluded;
  if (inUse === undefined && included !== undefined && included >= 0 && quantity < included) {
    throw new ProxyError(
      409,
      'below-included',
      `Your plan includes ${included}: you cannot go below ${included}.`,
      { field: 'quantity' },
    );
  }
  return holding;
}

/** POST /pricing with `quantity`: the price of a decrease the customer may make. */
export async function priceDecrease(
  context: RouteContext,
  request: DecreasePricingRequest,
): Promise<PricingUsageResult> {
  await checkDecrease(context, request);
  const { upstream, identity, call } = context;
  return upstream.pricing(
    identity.reference,
    request.feature,
    { quantity: request.quantity },
    call,
  );
}

export class Decrease extends ExactlyOnceChange<Holding> {
  protected readonly noun = 'decrease';
  protected readonly checkBeforeRetrying = 'Check the usage before lowering it again.';

  readonly #request: DecreaseRequest;

  constructor(context: RouteContext, request: DecreaseRequest) {
    super(context, {
      record: ['decrease', request.idempotencyKey],
      // The purchases' lock: a feature changes through one request at a time, whatever the kind.
      lock: ['apply-lock', request.feature],
      fingerprint: [
        request.feature,
        request.quantity,
        request.inUse ?? null,
        request.confirmedAmountTotal,
        request.confirmedNextTermAmountTotal,
      ],
      // A read, two price checks around a period's turn and a read back.
      upstreamCalls: 4,
      waitMs: context.options.timeouts.applyMs + PERIOD_TURN_WAIT_MS,
    });
    this.#request = request;
  }

  protected settle(before: Holding, now: Holding): Settlement {
    if (now.quantity === before.quantity) return 'unchanged';
    return now.quantity === this.#request.quantity ? 'applied' : 'other';
  }

  protected appliedFrom(now: Holding, amountTotal: number): Promise<Outcome> {
    return this.#succeed(now.usage, amountTotal);
  }

  protected async read(): Promise<Holding | undefined> {
    const { upstream, identity, call } = this.context;
    return holdingOf(await upstream.usages(identity.reference, call), this.#request.feature);
  }

  protected async attempt(
    previous: Holding | undefined,
    previousAmount: number | undefined,
  ): Promise<Outcome> {
    const { upstream, identity, call } = this.context;
    const { feature, quantity } = this.#request;

    if (previous !== undefined) {
      // An earlier owner may have applied: look before doing anything.
      const settled = await this.settlePrevious(
        previous,
        previousAmount ?? this.#request.confirmedAmountTotal,
      );
      if (settled !== undefined) return settled;
    }

    const before = await checkDecrease(this.context, this.#request);
    const pricing = await priceForApply(this.context, feature, { quantity });
    if (!matchesConfirmation(pricing, this.#request)) {
      throw priceChanged(this.context, pricing);
    }
    // Recorded before the apply call: whoever holds the key next can reconcile from it.
    await this.saveBeforeApply(before, pricing.AmountTotal);

    let answer: { usage: Usage | undefined };
    try {
      answer = await upstream.applyUsage(identity.reference, feature, { quantity }, call);
    } catch (error) {
      if (error instanceof UpstreamError && error.ambiguous)
        return this.reconcile(error, before, pricing.AmountTotal);
      throw error;
    }
    // A 2xx: applied. An answer without a readable usage is completed by reading it back.
    const usage = answer.usage ??
      (await this.read().catch(() => undefined))?.usage ?? {
        ...before.usage,
        QuantityCurrent: quantity,
      };
    return this.#succeed(usage, pricing.AmountTotal);
  }

  async #succeed(usage: Usage, amountTotal: number): Promise<Outcome> {
    const { feature, quantity, confirmedNextTermAmountTotal } = this.#request;
    const response: Omit<DecreaseResponse, 'replayed'> = {
      usage,
      amountTotal,
      nextTermAmountTotal: confirmedNextTermAmountTotal,
    };
    this.context.options.logger({
      level: 'info',
      event: 'decrease-applied',
      message: `Lowered ${feature} to ${quantity}`,
      customer: this.context.identity.reference,
      feature,
      quantity,
      amountTotal,
    });
    return this.done(response);
  }
}

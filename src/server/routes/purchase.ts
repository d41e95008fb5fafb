import type {
  PricingUsageResult,
  ProxyErrorBody,
  PurchaseRequest,
  PurchaseResponse,
  Usage,
} from '../../contract/index.js';
import type { RouteContext } from '../context.js';
import { ProxyError, UpstreamError, toProxyError } from '../errors.js';
import { JsonResult } from '../http.js';
import { poll, sleep } from '../timing.js';
import { parsePurchaseRequest } from '../validation.js';

// POST /usage: a purchase the user confirmed, applied at most once per (customer, key).
//
// Every request with a key goes through one record in the idempotency store. Its states:
//   pending  an owner is working on it until `leaseUntil`; duplicates wait and poll.
//            `before` is the feature's quantity read just before applying: it is written to
//            the store BEFORE the apply call, so whoever later holds the key can tell whether
//            that apply landed (quantity = before + increment) or not (quantity = before).
//   done     applied; the stored answer is replayed to every later duplicate.
//   failed   refused before anything was applied; replayed to identical duplicates for a few
//            seconds (they share the outcome), then forgotten so that a retry can succeed
//            once the cause is fixed (payment method added...).
//   unknown  an apply may or may not have landed and nothing can tell: never applied again
//            under this key.
//
// Exactly once, and the races considered:
// - Claims are atomic (setIfAbsent / compareAndSet on the whole stored value), so among any
//   number of concurrent duplicates, on any number of instances sharing the store, one owns
//   the key at a time; the others only read until it settles.
// - Applies to one (customer, feature) are serialized by a lock in the same store, so the
//   before/after comparison cannot be confused by another purchase made through the proxy.
// - POST /v1/Usage is never retried blindly. When it fails ambiguously (timeout, dropped
//   connection, 5xx), the owner reads the usage back for up to `timeouts.reconcileMs`:
//   before + increment means applied (answer success and store it); any other change means
//   someone else touched the feature and the outcome cannot be known (state unknown). If the
//   quantity stays at `before`, the lease is given up but `before` is kept: the next request
//   with this key (a waiting duplicate or the user's retry) becomes owner and reads the
//   quantity again FIRST, so an apply that landed late is found and answered, not repeated.
// - An owner that dies mid-way leaves a pending record whose lease expires; the next request
//   takes it over the same way (reading back first when `before` was recorded; a record
//   without `before` never reached the apply call, so starting over is safe).
// The one window no client of an API without idempotency keys can close: the service applying
// a request more than reconcileMs after the proxy gave up on it, after a retry was applied.
// Keep reconcileMs above the service's worst processing time.
//
// Money, beyond exactly once:
// - Any 2xx from the apply means applied, whatever its body (empty, an HTML page from a gateway,
//   another shape): the usage is read back, the outcome stored as done, never applied again.
// - The service prices the apply when it processes it. A price confirmed in the last moments of
//   a billing period could be charged at the next period's price, which nobody saw: when the
//   period ends within the time an apply can take, the proxy waits for it to turn and prices
//   again (409 price-changed with the new price when it differs; see priceForApply).
// - The apply's answer carries the new quantity, not an amount. When it shows that something
//   else changed the feature in between (quantity != before + increment), the amount charged may
//   not be the one confirmed: the answer says so (`amountConfirmed: false`) and a warning is logged.

/**
 * How long past `timeouts.applyMs` a period's end still counts as "within an apply": the price
 * is read, the lock and record written and the request sent before the apply's own timeout runs.
 */
const PERIOD_END_MARGIN_MS = 2_000;
/** Waited past the period's end (as the service's clock tells it) before pricing again. */
const PERIOD_TURN_SETTLE_MS = 500;

interface Before {
  quantity: number;
  usage: Usage;
}

interface PendingRecord {
  state: 'pending';
  fingerprint: string;
  owner: string;
  leaseUntil: number;
  before?: Before;
  amountTotal?: number;
}

type PurchaseRecord =
  | PendingRecord
  // Records written before `amountConfirmed` existed lack it: read as confirmed, as they were.
  | { state: 'done'; fingerprint: string; response: Omit<PurchaseResponse, 'replayed'> }
  | { state: 'failed'; fingerprint: string; status: number; body: ProxyErrorBody }
  | { state: 'unknown'; fingerprint: string };

function fingerprintOf(request: PurchaseRequest): string {
  return JSON.stringify([request.feature, request.increment, request.confirmedAmountTotal]);
}

function quantityOf(usages: readonly Usage[], feature: string): Before | undefined {
  const usage = usages.find((candidate) => candidate.ReferenceFeature === feature);
  if (usage === undefined || usage.QuantityCurrent === undefined) return undefined;
  return { quantity: usage.QuantityCurrent, usage };
}

class Outcome extends JsonResult {
  declare readonly body: PurchaseResponse | ProxyErrorBody;
}

/** POST /usage: answers 200 with the PurchaseResponse, or the (possibly stored) refusal. */
export async function postUsage(context: RouteContext): Promise<Outcome> {
  const request = parsePurchaseRequest(context.body, context.options);
  return new Purchase(context, request).run();
}

class Purchase {
  private readonly key: string;
  private readonly lockKey: string;
  private readonly fingerprint: string;
  private readonly token = crypto.randomUUID();
  private readonly leaseMs: number;
  /** The stored value this owner last wrote: every update is a compare-and-set from it. */
  private current = '';
  /** An earlier ambiguous apply not yet read back (takeover): errors must keep it recorded. */
  private unresolved: { before: Before; amountTotal: number | undefined } | undefined;

  constructor(
    private readonly context: RouteContext,
    private readonly request: PurchaseRequest,
  ) {
    const customer = encodeURIComponent(context.identity.reference);
    this.key = `purchase:${customer}:${request.idempotencyKey}`;
    this.lockKey = `apply-lock:${customer}:${encodeURIComponent(request.feature)}`;
    this.fingerprint = fingerprintOf(request);
    const { timeouts, limits } = context.options;
    // Long enough for two price checks around a period's turn, two reads, the apply and the
    // reconciliation.
    this.leaseMs =
      timeouts.upstreamMs * (limits.upstreamRetries + 1) * 4 +
      (timeouts.applyMs + PERIOD_END_MARGIN_MS + PERIOD_TURN_SETTLE_MS) +
      timeouts.applyMs +
      timeouts.reconcileMs +
      5_000;
  }

  private get store() {
    return this.context.store;
  }

  async run(): Promise<Outcome> {
    // Settles at once unless another request holds the key: then waits for its outcome.
    const outcome = await poll(() => this.settle(), {
      timeoutMs: this.context.options.timeouts.idempotencyWaitMs,
      firstWaitMs: 5,
      maxWaitMs: 200,
    });
    return (
      outcome ??
      new Outcome(504, {
        code: 'upstream-timeout',
        message: 'The same purchase is still being processed. Try again with the same key.',
      })
    );
  }

  /**
   * One look at the key's record: its outcome, this request's own outcome once it owns the key,
   * or undefined while another request holds it (or won a race for it) and the outcome is to
   * be waited for.
   */
  private async settle(): Promise<Outcome | undefined> {
    const stored = await this.store.get(this.key);
    if (stored === null) {
      const record = this.pending();
      // Only a request that may reach the service costs a token: duplicates that wait or replay do not.
      this.context.chargeRateLimit();
      if (!(await this.store.setIfAbsent(this.key, JSON.stringify(record)))) return undefined;
      this.current = JSON.stringify(record);
      return this.own(undefined);
    }
    const record = JSON.parse(stored) as PurchaseRecord;
    if (record.fingerprint !== this.fingerprint) {
      // A refused attempt applied nothing: its key may be reused with other values (a new price).
      if (record.state === 'failed')
        return (await this.takeOver(stored)) ? this.own(undefined) : undefined;
      return new Outcome(422, {
        code: 'idempotency-key-reused',
        message: 'This idempotency key was used for a different purchase.',
      });
    }
    switch (record.state) {
      case 'done':
        return new Outcome(200, { amountConfirmed: true, ...record.response, replayed: true });
      case 'failed':
        return new Outcome(record.status, record.body);
      case 'unknown':
        return new Outcome(502, {
          code: 'upstream-error',
          message:
            'The outcome of this purchase could not be confirmed. Check the usage before buying again.',
        });
      case 'pending':
        if (record.leaseUntil > Date.now()) return undefined;
        // The owner's lease ran out: take the key over, reading back first if it got as far as
        // recording the quantity before its apply.
        return (await this.takeOver(stored, record.before, record.amountTotal))
          ? this.own(record.before, record.amountTotal)
          : undefined;
    }
  }

  private pending(before?: Before, amountTotal?: number): PendingRecord {
    return {
      state: 'pending',
      fingerprint: this.fingerprint,
      owner: this.token,
      leaseUntil: Date.now() + this.leaseMs,
      ...(before === undefined ? {} : { before }),
      ...(amountTotal === undefined ? {} : { amountTotal }),
    };
  }

  private async takeOver(stored: string, before?: Before, amountTotal?: number): Promise<boolean> {
    const record = this.pending(before, amountTotal);
    this.context.chargeRateLimit();
    if (!(await this.store.compareAndSet(this.key, stored, JSON.stringify(record)))) return false;
    this.current = JSON.stringify(record);
    return true;
  }

  /** Writes the record if this owner still holds the key; losing it means our lease ran out. */
  private async save(record: PurchaseRecord, ttlMs?: number): Promise<void> {
    const next = JSON.stringify(record);
    const saved = await this.store.compareAndSet(this.key, this.current, next, ttlMs);
    if (!saved) {
      this.context.options.logger({
        level: 'error',
        event: 'idempotency-lease-lost',
        message: 'A purchase outlived its lease; another request took the key over',
        customer: this.context.identity.reference,
      });
      return;
    }
    this.current = next;
  }

  /** This request owns the key: check the price, apply once, or find out what happened. */
  private async own(previous: Before | undefined, previousAmount?: number): Promise<Outcome> {
    this.unresolved =
      previous === undefined ? undefined : { before: previous, amountTotal: previousAmount };
    try {
      const lock = await this.lock();
      try {
        return await this.apply(previous, previousAmount);
      } finally {
        await this.store.compareAndDelete(this.lockKey, lock).catch(() => {});
      }
    } catch (error) {
      const proxyError = error instanceof UpstreamError ? toProxyError(error) : error;
      if (!(proxyError instanceof ProxyError)) throw error;
      const body = proxyError.toBody();
      if (this.unresolved !== undefined) {
        // An earlier apply is still unaccounted for (the read-back failed): keep what is needed
        // to check it, so that the next attempt reads back first too. Never "failed" here.
        await this.save({
          ...this.pending(this.unresolved.before, this.unresolved.amountTotal),
          leaseUntil: 0,
        });
        return new Outcome(proxyError.status, body);
      }
      // Reached only before the apply call or after a definite refusal of it: nothing applied.
      await this.save(
        { state: 'failed', fingerprint: this.fingerprint, status: proxyError.status, body },
        this.context.options.limits.failedPurchaseTtlMs,
      );
      return new Outcome(proxyError.status, body);
    }
  }

  private async lock(): Promise<string> {
    const locked = await poll(
      async () =>
        (await this.store.setIfAbsent(this.lockKey, this.token, this.leaseMs))
          ? this.token
          : undefined,
      {
        timeoutMs: this.context.options.timeouts.idempotencyWaitMs,
        firstWaitMs: 5,
        maxWaitMs: 200,
      },
    );
    if (locked === undefined) {
      throw new ProxyError(
        504,
        'upstream-timeout',
        'Another purchase of this feature is still being processed.',
      );
    }
    return locked;
  }

  private async read(): Promise<Before | undefined> {
    const { upstream, identity, call } = this.context;
    return quantityOf(await upstream.usages(identity.reference, call), this.request.feature);
  }

  private async apply(
    previous: Before | undefined,
    previousAmount: number | undefined,
  ): Promise<Outcome> {
    const { upstream, identity, call } = this.context;
    const { feature, increment, confirmedAmountTotal } = this.request;

    if (previous !== undefined) {
      // An earlier owner may have applied: look before doing anything.
      const now = await this.read();
      if (now?.quantity === previous.quantity + increment) {
        return this.succeed(now.usage, previousAmount ?? confirmedAmountTotal, true);
      }
      if (now?.quantity !== previous.quantity) return this.unknown();
      // Not applied: from here on this attempt is a fresh one.
      this.unresolved = undefined;
    }

    const pricing = await this.priceForApply();
    if (pricing.AmountTotal !== confirmedAmountTotal) {
      throw new ProxyError(
        409,
        'price-changed',
        'The price changed. Confirm the new price to continue.',
        { pricing },
      );
    }
    const before = await this.read();
    // Recorded before the apply call: whoever holds the key next can reconcile from it.
    await this.save(this.pending(before, pricing.AmountTotal));

    let answer: { usage: Usage | undefined };
    try {
      answer = await upstream.applyUsage(identity.reference, feature, increment, call);
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
    return this.succeed(usage ?? this.expected(before), pricing.AmountTotal, confirmed);
  }

  /**
   * The price to apply at. When the service's billing period ends within the time an apply can
   * take, the apply could land in the next period and be charged at a price nobody saw: wait
   * for the period to turn, as the service's clock (its answers' Date header) tells it, and
   * price again. A period still ending after that wait (a service clock that does not move)
   * is refused with `period-ending` and the fresh price.
   */
  private async priceForApply(): Promise<PricingUsageResult> {
    const { upstream, identity, call, options } = this.context;
    const { feature, increment } = this.request;
    const price = () => upstream.pricing(identity.reference, feature, increment, call);
    const window = options.timeouts.applyMs + PERIOD_END_MARGIN_MS;
    const untilTurn = (pricing: PricingUsageResult) => {
      const end = Date.parse(pricing.DatePeriodTerm ?? '');
      return Number.isNaN(end) ? Infinity : end - upstream.serviceNow();
    };

    const pricing = await price();
    const wait = untilTurn(pricing);
    if (wait > window) return pricing;
    options.logger({
      level: 'info',
      event: 'purchase-awaits-period-turn',
      message: `The billing period ends in ${Math.max(0, Math.round(wait))} ms, within an apply's time; pricing again once it has turned`,
      customer: identity.reference,
      feature,
    });
    await sleep(Math.max(0, wait) + PERIOD_TURN_SETTLE_MS);
    const fresh = await price();
    if (untilTurn(fresh) <= window) {
      throw new ProxyError(
        409,
        'period-ending',
        'The billing period is ending. Confirm the price again in a moment.',
        { pricing: fresh },
      );
    }
    return fresh;
  }

  /** The apply call failed without saying whether it applied: read back until the answer is clear. */
  private async reconcile(
    failure: UpstreamError,
    before: Before | undefined,
    amountTotal: number,
  ): Promise<Outcome> {
    const { logger, timeouts } = this.context.options;
    logger({
      level: 'warn',
      event: 'purchase-ambiguous',
      message: `${failure.message}; reconciling`,
      customer: this.context.identity.reference,
      feature: this.request.feature,
    });
    if (before === undefined) return this.unknown();
    const settled = await poll(
      async () => {
        const now = await this.read().catch(() => undefined);
        if (now === undefined || now.quantity === before.quantity) return undefined;
        return now.quantity === before.quantity + this.request.increment
          ? this.succeed(now.usage, amountTotal, true)
          : this.unknown();
      },
      { timeoutMs: timeouts.reconcileMs, firstWaitMs: 50, maxWaitMs: 500 },
    );
    if (settled !== undefined) return settled;
    // Not applied as far as can be seen: give the key up, keeping `before` for the next owner.
    await this.save({ ...this.pending(before, amountTotal), leaseUntil: 0 });
    const proxyError = toProxyError(failure);
    return new Outcome(proxyError.status, proxyError.toBody());
  }

  private expected(before: Before | undefined): Usage {
    if (before === undefined) {
      // Applied, but neither the answer nor a read-back gave the usage: the minimal truthful one.
      return {
        IdSubscription: 0,
        ReferenceFeature: this.request.feature,
        TypeFeature: 'Limitation',
      };
    }
    return { ...before.usage, QuantityCurrent: before.quantity + this.request.increment };
  }

  private async succeed(
    usage: Usage,
    amountTotal: number,
    amountConfirmed: boolean,
  ): Promise<Outcome> {
    const response = { usage, amountTotal, amountConfirmed };
    if (!amountConfirmed) {
      this.context.options.logger({
        level: 'warn',
        event: 'purchase-amount-unconfirmed',
        message: `Applied ${this.request.increment} × ${this.request.feature}, but the quantity after it (${usage.QuantityCurrent ?? 'unknown'}) is not the one before plus the purchase: something else changed the feature in between, so the amount charged may differ from the ${amountTotal} confirmed`,
        customer: this.context.identity.reference,
        feature: this.request.feature,
      });
    }
    this.context.options.logger({
      level: 'info',
      event: 'purchase-applied',
      message: `Applied ${this.request.increment} × ${this.request.feature}`,
      customer: this.context.identity.reference,
      feature: this.request.feature,
      increment: this.request.increment,
      amountTotal,
    });
    try {
      await this.save({ state: 'done', fingerprint: this.fingerprint, response });
    } catch (error) {
      // Applied: the answer is success even if the store cannot record it.
      this.context.options.logger({
        level: 'error',
        event: 'idempotency-store-failed',
        message: String(error),
      });
    }
    // Every open page of this customer (other tabs, other devices) re-reads its billing.
    this.context.signals.publish(this.context.identity.reference).catch((error: unknown) =>
      this.context.options.logger({
        level: 'error',
        event: 'signal-failed',
        message: String(error),
      }),
    );
    return new Outcome(200, { ...response, replayed: false });
  }

  private async unknown(): Promise<Outcome> {
    this.context.options.logger({
      level: 'error',
      event: 'purchase-outcome-unknown',
      message: 'Could not tell whether a purchase was applied; the key will not apply again',
      customer: this.context.identity.reference,
      feature: this.request.feature,
    });
    await this.save({ state: 'unknown', fingerprint: this.fingerprint });
    return new Outcome(502, {
      code: 'upstream-error',
      message:
        'The outcome of this purchase could not be confirmed. Check the usage before buying again.',
    });
  }
}

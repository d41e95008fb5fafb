import type { ProxyErrorBody } from '../../contract/index.js';
import { chargeRateLimit, type RouteContext } from '../context.js';
import { ProxyError, UpstreamError, toProxyError } from '../errors.js';
import { JsonResult } from '../http.js';
import { poll } from '../timing.js';

// A change the customer confirmed, applied at most once per (customer, idempotency key): a
// purchase (POST /usage) or a plan change (POST /plan). The service has no idempotency keys, so
// the proxy keeps one record per key in the idempotency store. Its states:
//   pending  an owner is working on it until `leaseUntil`; duplicates wait and poll.
//            `before` is the state the change moves, read just before applying: it is written
//            to the store BEFORE the apply call, so whoever later holds the key can tell
//            whether that apply landed (the state moved as the change moves it) or not
//            (unchanged).
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
// - Changes of one thing (a customer's feature, a customer's plan) are serialized by a lock in
//   the same store, so the before/after comparison cannot be confused by another change made
//   through the proxy.
// - The apply call is never retried blindly. When it fails ambiguously (timeout, dropped
//   connection, 5xx), the owner reads the state back for up to `timeouts.reconcileMs`: moved as
//   the change moves it means applied (answer success and store it); any other change means
//   someone else touched it and the outcome cannot be known (state unknown). If it stays as it
//   was, the lease is given up but `before` is kept: the next request with this key (a waiting
//   duplicate or the user's retry) becomes owner and reads the state again FIRST, so an apply
//   that landed late is found and answered, not repeated.
// - An owner that dies mid-way leaves a pending record whose lease expires; the next request
//   takes it over the same way (reading back first when `before` was recorded; a record
//   without `before` never reached the apply call, so starting over is safe).
// The one window no client of an API without idempotency keys can close: the service applying
// a request more than reconcileMs after the proxy gave up on it, after a retry was applied.
// Keep reconcileMs above the service's worst processing time.

interface PendingRecord<Snapshot> {
  state: 'pending';
  fingerprint: string;
  owner: string;
  leaseUntil: number;
  before?: Snapshot;
  amountTotal?: number;
}

type ChangeRecord<Snapshot> =
  | PendingRecord<Snapshot>
  | { state: 'done'; fingerprint: string; response: object }
  | { state: 'failed'; fingerprint: string; status: number; body: ProxyErrorBody }
  | { state: 'unknown'; fingerprint: string };

/** Added to every lease, for the store's own round trips and a slow event loop. */
const LEASE_MARGIN_MS = 5_000;

export class Outcome extends JsonResult {
  declare readonly body: object;
}

/** How the state read after an ambiguous apply compares with the one read before it. */
export type Settlement = 'applied' | 'unchanged' | 'other';

/** What a change is, as a subclass describes it. */
export interface ChangeSpec {
  /** The kind of change and its idempotency key: its record is kept under them and the customer. */
  record: [kind: string, idempotencyKey: string];
  /**
   * The lock that serializes changes of the same thing: its name, and what of the customer's it
   * is about beyond the customer (a feature), if anything.
   */
  lock: [name: string, about?: string];
  /** The values that identify this change among requests with the same key (its price too). */
  fingerprint: unknown[];
  /** Reads and price checks an attempt makes at most (each retried as the options say). */
  upstreamCalls: number;
  /** Any wait of the attempt's own on top of them (the end of a billing period, say). */
  waitMs?: number;
}

interface ChangeKeys {
  /** The store key of this change's record. */
  key: string;
  /** The store key of the lock that serializes changes of the same thing. */
  lockKey: string;
  fingerprint: string;
}

/** The store keys of a customer's change: `kind:customer:idempotencyKey` and `lock:customer[:about]`. */
function keysOf(spec: ChangeSpec, customer: string): ChangeKeys {
  const [kind, idempotencyKey] = spec.record;
  const [lockName, about] = spec.lock;
  const owner = encodeURIComponent(customer);
  return {
    key: `${kind}:${owner}:${idempotencyKey}`,
    lockKey:
      about === undefined
        ? `${lockName}:${owner}`
        : `${lockName}:${owner}:${encodeURIComponent(about)}`,
    fingerprint: JSON.stringify(spec.fingerprint),
  };
}

/**
 * How long an owner may hold a key before another request takes it over: long enough for its
 * reads and price checks, its own waits, the apply and the reconciliation, plus a margin.
 */
function leaseMsOf(spec: ChangeSpec, { timeouts, limits }: RouteContext['options']): number {
  return (
    timeouts.upstreamMs * (limits.upstreamRetries + 1) * spec.upstreamCalls +
    (spec.waitMs ?? 0) +
    timeouts.applyMs +
    timeouts.reconcileMs +
    LEASE_MARGIN_MS
  );
}

export abstract class ExactlyOnceChange<Snapshot> {
  readonly #token = crypto.randomUUID();
  /** The stored value this owner last wrote: every update is a compare-and-set from it. */
  #current = '';
  /** An earlier ambiguous apply not yet read back (takeover): errors must keep it recorded. */
  protected unresolved: { before: Snapshot; amountTotal: number | undefined } | undefined;

  /** "purchase" or "plan change", for logs and messages. */
  protected abstract readonly noun: string;
  /** What the customer should check when an outcome cannot be known. */
  protected abstract readonly checkBeforeRetrying: string;

  readonly #leaseMs: number;

  readonly #keys: ChangeKeys;

  protected constructor(
    protected readonly context: RouteContext,
    spec: ChangeSpec,
  ) {
    this.#keys = keysOf(spec, context.identity.reference);
    this.#leaseMs = leaseMsOf(spec, context.options);
  }

  /**
   * Owning the key: price, apply once, answer. `previous` is the state an earlier owner read
   * before an apply whose outcome is still unknown: look before doing anything.
   */
  protected abstract attempt(
    previous: Snapshot | undefined,
    previousAmount: number | undefined,
  ): Promise<Outcome>;

  /** The state the change moves, now (undefined when it cannot be read there). */
  protected abstract read(): Promise<Snapshot | undefined>;

  /** Whether `now` shows the change applied over `before`, nothing yet, or something else. */
  protected abstract settle(before: Snapshot, now: Snapshot): Settlement;

  /** The answer for a change found applied by a read-back. */
  protected abstract appliedFrom(now: Snapshot, amountTotal: number): Promise<Outcome>;

  /** The answer replayed from a stored success. */
  protected replay(response: object): object {
    return { ...response, replayed: true };
  }

  get #store() {
    return this.context.store;
  }

  async run(): Promise<Outcome> {
    // Settles at once unless another request holds the key: then waits for its outcome.
    const outcome = await poll(() => this.#look(), {
      timeoutMs: this.context.options.timeouts.idempotencyWaitMs,
      firstWaitMs: 5,
      maxWaitMs: 200,
    });
    return (
      outcome ??
      new Outcome(504, {
        code: 'upstream-timeout',
        message: `The same ${this.noun} is still being processed. Try again with the same key.`,
      })
    );
  }

  /**
   * One look at the key's record: its outcome, this request's own outcome once it owns the key,
   * or undefined while another request holds it (or won a race for it) and the outcome is to
   * be waited for.
   */
  async #look(): Promise<Outcome | undefined> {
    const { key, fingerprint } = this.#keys;
    const stored = await this.#store.get(key);
    if (stored === null) {
      const record = this.pending();
      // Only a request that may reach the service costs a token: duplicates that wait or replay do not.
      chargeRateLimit(this.context);
      if (!(await this.#store.setIfAbsent(key, JSON.stringify(record)))) return undefined;
      this.#current = JSON.stringify(record);
      return this.#own(undefined);
    }
    const record = JSON.parse(stored) as ChangeRecord<Snapshot>;
    if (record.fingerprint !== fingerprint) {
      // A refused attempt applied nothing: its key may be reused with other values (a new price).
      if (record.state === 'failed')
        return (await this.#takeOver(stored)) ? this.#own(undefined) : undefined;
      return new Outcome(422, {
        code: 'idempotency-key-reused',
        message: `This idempotency key was used for a different ${this.noun}.`,
      });
    }
    switch (record.state) {
      case 'done':
        return new Outcome(200, this.replay(record.response));
      case 'failed':
        return new Outcome(record.status, record.body);
      case 'unknown':
        return this.#unknownOutcome();
      case 'pending':
        if (record.leaseUntil > Date.now()) return undefined;
        // The owner's lease ran out: take the key over, reading back first if it got as far as
        // recording the state before its apply.
        return (await this.#takeOver(stored, record.before, record.amountTotal))
          ? this.#own(record.before, record.amountTotal)
          : undefined;
    }
  }

  protected pending(before?: Snapshot, amountTotal?: number): PendingRecord<Snapshot> {
    return {
      state: 'pending',
      fingerprint: this.#keys.fingerprint,
      owner: this.#token,
      leaseUntil: Date.now() + this.#leaseMs,
      ...(before === undefined ? {} : { before }),
      ...(amountTotal === undefined ? {} : { amountTotal }),
    };
  }

  async #takeOver(stored: string, before?: Snapshot, amountTotal?: number): Promise<boolean> {
    const record = this.pending(before, amountTotal);
    chargeRateLimit(this.context);
    if (!(await this.#store.compareAndSet(this.#keys.key, stored, JSON.stringify(record))))
      return false;
    this.#current = JSON.stringify(record);
    return true;
  }

  /** Writes the record if this owner still holds the key; losing it means our lease ran out. */
  protected async save(record: ChangeRecord<Snapshot>, ttlMs?: number): Promise<void> {
    const next = JSON.stringify(record);
    const saved = await this.#store.compareAndSet(this.#keys.key, this.#current, next, ttlMs);
    if (!saved) {
      this.context.options.logger({
        level: 'error',
        event: 'idempotency-lease-lost',
        message: `A ${this.noun} outlived its lease; another request took the key over`,
        customer: this.context.identity.reference,
      });
      return;
    }
    this.#current = next;
  }

  /**
   * Records the state the change moves, just before the apply call: the call is made only once
   * this write is confirmed. An owner that lost its lease meanwhile (another request took the
   * key over) must not apply: it answers as a duplicate still being processed would.
   */
  protected async saveBeforeApply(
    before: Snapshot | undefined,
    amountTotal: number,
  ): Promise<void> {
    const next = JSON.stringify(this.pending(before, amountTotal));
    if (await this.#store.compareAndSet(this.#keys.key, this.#current, next)) {
      this.#current = next;
      return;
    }
    this.context.options.logger({
      level: 'error',
      event: 'idempotency-lease-lost',
      message: `A ${this.noun} lost its key before its apply call; not applied by this request`,
      customer: this.context.identity.reference,
    });
    throw new ProxyError(
      504,
      'upstream-timeout',
      `The same ${this.noun} is still being processed. Try again with the same key.`,
    );
  }

  /** This request owns the key: check the price, apply once, or find out what happened. */
  async #own(previous: Snapshot | undefined, previousAmount?: number): Promise<Outcome> {
    this.unresolved =
      previous === undefined ? undefined : { before: previous, amountTotal: previousAmount };
    try {
      const lock = await this.#lock();
      try {
        return await this.attempt(previous, previousAmount);
      } finally {
        await this.#store.compareAndDelete(this.#keys.lockKey, lock).catch(() => {});
      }
    } catch (error) {
      const proxyError = error instanceof UpstreamError ? toProxyError(error) : error;
      // A store failure (StoreUnavailableError) is not a refusal: nothing is recorded, and the
      // record stays as it was for the next owner (answered 503 store-unavailable).
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
        { state: 'failed', fingerprint: this.#keys.fingerprint, status: proxyError.status, body },
        this.context.options.limits.failedPurchaseTtlMs,
      );
      return new Outcome(proxyError.status, body);
    }
  }

  async #lock(): Promise<string> {
    const { lockKey } = this.#keys;
    const leaseMs = this.#leaseMs;
    const locked = await poll(
      async () =>
        (await this.#store.setIfAbsent(lockKey, this.#token, leaseMs)) ? this.#token : undefined,
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
        `Another ${this.noun} of the same kind is still being processed.`,
      );
    }
    return locked;
  }

  /**
   * Before anything else, when an earlier owner's apply is unaccounted for: its outcome if the
   * state shows it, or undefined when it did not land (this attempt is then a fresh one).
   */
  protected async settlePrevious(
    previous: Snapshot,
    amountTotal: number,
  ): Promise<Outcome | undefined> {
    const now = await this.read();
    const settled = now === undefined ? 'other' : this.settle(previous, now);
    if (settled === 'applied' && now !== undefined) return this.appliedFrom(now, amountTotal);
    if (settled === 'other') return this.unknown();
    this.unresolved = undefined;
    return undefined;
  }

  /** The apply call failed without saying whether it applied: read back until the answer is clear. */
  protected async reconcile(
    failure: UpstreamError,
    before: Snapshot | undefined,
    amountTotal: number,
  ): Promise<Outcome> {
    const { logger, timeouts } = this.context.options;
    logger({
      level: 'warn',
      event: `${this.noun.replace(' ', '-')}-ambiguous`,
      message: `${failure.message}; reconciling`,
      customer: this.context.identity.reference,
    });
    if (before === undefined) return this.unknown();
    const settled = await poll(
      async () => {
        const now = await this.read().catch(() => undefined);
        if (now === undefined) return undefined;
        switch (this.settle(before, now)) {
          case 'applied':
            return this.appliedFrom(now, amountTotal);
          case 'other':
            return this.unknown();
          case 'unchanged':
            return undefined;
        }
      },
      { timeoutMs: timeouts.reconcileMs, firstWaitMs: 50, maxWaitMs: 500 },
    );
    if (settled !== undefined) return settled;
    // Not applied as far as can be seen: give the key up, keeping `before` for the next owner.
    await this.save({ ...this.pending(before, amountTotal), leaseUntil: 0 });
    const proxyError = toProxyError(failure);
    return new Outcome(proxyError.status, proxyError.toBody());
  }

  /** Records the success (replayed to every retry) and tells the customer's other pages. */
  protected async done(response: object): Promise<Outcome> {
    try {
      await this.save({ state: 'done', fingerprint: this.#keys.fingerprint, response });
    } catch (error) {
      // Applied: the answer is success even if the store cannot record it.
      this.context.options.logger({
        level: 'error',
        event: 'idempotency-store-failed',
        message: String(error),
      });
    }
    // Every open page of this customer (other tabs, other devices) re-reads its billing. Not
    // awaited: the answer does not wait for the bus (a Worker keeps it going with waitUntil).
    const signalled = this.context.signals
      .publish(this.context.identity.reference)
      .catch((error: unknown) =>
        this.context.options.logger({
          level: 'error',
          event: 'signal-failed',
          message: String(error),
        }),
      );
    this.context.waitUntil?.(signalled);
    return new Outcome(200, { ...response, replayed: false });
  }

  protected async unknown(): Promise<Outcome> {
    this.context.options.logger({
      level: 'error',
      event: `${this.noun.replace(' ', '-')}-outcome-unknown`,
      message: `Could not tell whether a ${this.noun} was applied; the key will not apply again`,
      customer: this.context.identity.reference,
    });
    await this.save({ state: 'unknown', fingerprint: this.#keys.fingerprint });
    return this.#unknownOutcome();
  }

  #unknownOutcome(): Outcome {
    return new Outcome(502, {
      code: 'upstream-error',
      message: `The outcome of this ${this.noun} could not be confirmed. ${this.checkBeforeRetrying}`,
    });
  }
}

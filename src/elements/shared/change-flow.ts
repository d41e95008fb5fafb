import type { ReactiveControllerHost } from 'lit';
import { resolveEndpoint } from '../../client/config.js';
import { toBillingError, type BillingError } from '../../client/errors.js';
import { BillingErrorEvent } from '../../client/events.js';
import { remedyFor } from '../../client/portal.js';
import { getProxyClient } from '../../client/proxy-client.js';
import type { Language } from '../../client/i18n.js';
import { getUsageStore } from '../../client/usage-store.js';
import type { PricingResponse } from '../../contract/proxy-api.js';
import type { Usage } from '../../contract/resources.js';
import { warnOnce } from './warn.js';

// What every flow that changes billing after the customer confirmed a price has in common (a
// purchase of a quantity, an add-on switched, a decrease, a plan change): its phases, the price
// asked before the dialog, the quote the dialog shows, the dialog's opening and closing, the
// page's say before a confirmed change goes, the sending of a recorded change and the handling of
// its failure (reported as `billing-error`, kept with its key while its outcome is unknown), and
// the checks around a change confirmed before a reload. Each flow adds what it prices and sends.

/**
 * Where a change stands:
 * - `idle`: nothing under way;
 * - `preparing`: the change is being priced before anything is asked;
 * - `confirming`: the dialog asks the user to confirm the quote;
 * - `applying`: a confirmed change is being sent;
 * - `resuming`: a change confirmed earlier (before a reload, say) is being checked and sent
 *   again, to learn its outcome.
 */
export type ChangePhase = 'idle' | 'preparing' | 'confirming' | 'applying' | 'resuming';

/**
 * The element a flow runs in: it re-renders on every change of phase and hears the events;
 * `endpoint` is its own proxy (unset, the page's).
 */
export type ChangeHost = ReactiveControllerHost &
  EventTarget & {
    readonly endpoint: string | undefined;
    /** The feature the change concerns, when it concerns one: its failures name it. */
    readonly feature?: string;
  };

/** What every flow needs of the element's view: its dialog and its language. */
export interface ChangeView {
  /** Opens the confirmation dialog on the quote, or refreshes it; the focus goes to Cancel. */
  openDialog(): Promise<void>;
  /** Closes it; nothing happens when it is closed. */
  closeDialog(): void;
  /** The element's language: the service writes its price lines (and a changed price's) in it. */
  language(): Language;
}

/**
 * Whether a failed change may have been applied: then only the same request, same key, may be
 * sent again. The proxy's `upstream-error` means it could not tell and will never apply that key
 * again: re-sending it is pointless. A refusal for too many requests (429) comes before anything
 * is sent to the service: nothing was applied.
 */
export function outcomeUnknown({ code, retryable, status }: BillingError): boolean {
  return (
    code !== 'upstream-error' &&
    status !== 429 &&
    (retryable || code === 'aborted' || code === 'invalid-response')
  );
}

/**
 * The customer signed in now, as the proxy tells it (the usages carry the reference), to check
 * that a change confirmed before a reload is that customer's. Rejects when it cannot be told.
 */
export async function signedInCustomer(endpoint: string): Promise<string | undefined> {
  const { usages } = await getProxyClient(endpoint).getUsages();
  return usages.find((usage) => usage.ReferenceCustomer)?.ReferenceCustomer;
}

/** A failure of a change itself; `pending` when its outcome is unknown. */
export interface ChangeFailure<Pending> {
  error: BillingError;
  /** Set when the outcome is unknown: a retry re-sends this very request, same key. */
  pending?: Pending | undefined;
  /** A resumed change whose customer could not be checked yet: a retry checks first. */
  verify?: boolean;
}

/** A change confirmed earlier, as recorded: the customer its price was quoted for, if named. */
export interface ConfirmedEarlier {
  customer?: string;
}

/** The new price a refusal quotes, and why the price is asked again. */
export interface NewPrice {
  changed: 'price-changed' | 'period-ending';
  pricing: PricingResponse;
}

/**
 * The new price a refusal quotes instead of the one confirmed, when it quotes one: the service's
 * price changed (`price-changed`), or the billing period was ending (`period-ending`). Nothing
 * was applied: the flow shows it and asks again, with a new key.
 */
export function newPriceOf({ code, pricing }: BillingError): NewPrice | undefined {
  if ((code === 'price-changed' || code === 'period-ending') && pricing)
    return { changed: code, pricing };
  return undefined;
}

/** How a flow applies a quote (see ConfirmedChange.apply). */
export interface Application<Pending> {
  /** The cancelable `billing-before-…` event that tells the page first, if the flow has one. */
  before?: Event;
  /** Records the change with a fresh key; called only once the page let it go. */
  record(): Pending;
}

/** Said once when a change confirmed earlier names no customer and so cannot be re-sent. */
const NO_CUSTOMER_RECORDED =
  '[billing-elements] A change confirmed before the page reloaded names no customer, so it was ' +
  'not sent again: the price the proxy quoted carried no ReferenceCustomer.';

/**
 * The phases, the dialog and the outcome of a confirmed change, in `host` (the element) and
 * `view` (what the flow needs of its DOM, the dialog at least): `Quote` is what the dialog shows,
 * `Success` what an applied change answered, `Pending` the record of a confirmed change (its
 * request and key). A flow prices its change (through `prepare`) and asks (`ask`); it says how a
 * confirmed quote is announced to the page and recorded (`applying`), how its record is
 * sent (`send`, through `sendRecorded`) and forgotten (`settle`), and what a failure calls for
 * beyond what every flow does with it (`askAgain`, `followUp`). A subclass that follows the
 * host's lifecycle registers itself as its controller.
 */
export abstract class ConfirmedChange<
  Quote,
  Success,
  Pending extends ConfirmedEarlier,
  Host extends ChangeHost = ChangeHost,
  View extends ChangeView = ChangeView,
> {
  protected readonly host: Host;
  protected readonly view: View;
  #phase: ChangePhase = 'idle';
  #quote: Quote | undefined;
  #success: Success | undefined;
  #failure: ChangeFailure<Pending> | undefined;
  /** The proxy and subject whose recorded change was already looked for (see resumeRecorded). */
  #resumeCheckedFor: string | undefined;

  constructor(host: Host, view: View) {
    this.host = host;
    this.view = view;
  }

  /** The proxy the change goes through: the element's own, else the page's. */
  protected get endpoint(): string {
    return resolveEndpoint(this.host.endpoint);
  }

  get phase(): ChangePhase {
    return this.#phase;
  }

  /** What the dialog asks the user to confirm, while it is open or being applied. */
  get quote(): Quote | undefined {
    return this.#quote;
  }

  /** What the last change applied answered, until the next change or another choice. */
  get success(): Success | undefined {
    return this.#success;
  }

  /** The last change's failure, kept with its key while its outcome is unknown. */
  get failure(): ChangeFailure<Pending> | undefined {
    return this.#failure;
  }

  /** A confirmed change is being sent: it can no longer be called off. */
  get underWay(): boolean {
    return this.#phase === 'applying' || this.#phase === 'resuming';
  }

  /** Waiting for the proxy: a price before asking, or a change's outcome. */
  get busy(): boolean {
    return this.#phase === 'preparing' || this.underWay;
  }

  /** The dialog closed: a quote that was only being confirmed is called off. */
  dialogClosed(): void {
    if (this.#phase === 'confirming') this.#phase = 'idle';
    if (!this.underWay) this.#quote = undefined;
    this.host.requestUpdate();
  }

  /** The dialog's Confirm: applies the quote shown. Only the first click of several counts. */
  async confirm(): Promise<void> {
    const quote = this.#quote;
    if (this.#phase !== 'confirming' || !quote) return;
    await this.apply(quote);
  }

  /**
   * How the change `quote` prices is applied: what the page is told first, and how the change is
   * recorded. Both are made of the host as it is now, before the page hears of it.
   */
  protected abstract applying(quote: Quote): Application<Pending>;

  /** Sends a recorded change (first time, retry or resume) and shows its outcome. */
  protected abstract send(pending: Pending): Promise<void>;

  /** Forgets the record of a change sent to `endpoint` once its outcome is known. */
  protected abstract readonly settle: (endpoint: string, pending: Pending) => void;

  /**
   * The change was refused for a price that is no longer the service's, and the refusal quotes
   * the new one (see `newPriceOf`): the flow shows it and asks again, with a new key. False when
   * the refusal is not that.
   */
  protected abstract askAgain(error: BillingError, pending: Pending): boolean;

  /**
   * What a failure of the change sent to `endpoint` calls for beside being shown (the usages
   * read again after a refusal that says they moved elsewhere, say).
   */
  protected abstract followUp(code: string, endpoint: string): void;

  protected setSuccess(success: Success | undefined): void {
    this.#success = success;
  }

  protected setFailure(failure: ChangeFailure<Pending> | undefined): void {
    this.#failure = failure;
  }

  protected setPhase(phase: ChangePhase): void {
    this.#phase = phase;
    this.host.requestUpdate();
  }

  /**
   * Starts a new change: the last outcome goes, and the flow is `preparing` while `price` asks
   * what the change costs. Gives that price; undefined when it was refused (reported and shown,
   * see notPriced). The flow is idle again either way.
   */
  protected async prepare<Price>(price: () => Promise<Price>): Promise<Price | undefined> {
    this.setSuccess(undefined);
    this.setFailure(undefined);
    this.setPhase('preparing');
    let priced: Price;
    try {
      priced = await price();
    } catch (caught) {
      this.notPriced(toBillingError(caught));
      return undefined;
    }
    this.setPhase('idle');
    return priced;
  }

  /** Opens the dialog (or refreshes it) on `quote`. */
  protected async ask(quote: Quote): Promise<void> {
    this.#quote = quote;
    this.setPhase('confirming');
    await this.view.openDialog();
  }

  /** Back to idle once an outcome is known or the change was called off: the dialog closes. */
  protected finish(): void {
    this.setPhase('idle');
    this.view.closeDialog();
  }

  /**
   * The price asked before the dialog was refused (nothing was confirmed, nothing sent): the
   * refusal is reported and shown, and the flow is idle again.
   */
  protected notPriced(error: BillingError): void {
    this.setFailure({ error });
    this.report(error);
    this.setPhase('idle');
  }

  /**
   * Sends `pending` with `transmit` to the proxy and shows its outcome: `applied` is given the
   * answer once the record is forgotten; a failure is handled as every flow handles it.
   */
  protected async sendRecorded<Answer>(
    pending: Pending,
    transmit: (endpoint: string) => Promise<Answer>,
    applied: (answer: Answer, endpoint: string) => void,
  ): Promise<void> {
    const endpoint = this.endpoint;
    this.setFailure(undefined);
    // A resumed change says so until its outcome is known.
    this.setPhase(this.#phase === 'resuming' ? 'resuming' : 'applying');
    let answer: Answer;
    try {
      answer = await transmit(endpoint);
    } catch (caught) {
      this.#failed(endpoint, pending, toBillingError(caught));
      return;
    }
    this.settle(endpoint, pending);
    applied(answer, endpoint);
  }

  /**
   * A confirmed change sent to `endpoint` failed. When its outcome is unknown (see
   * outcomeUnknown) its record stays, so that "Try again" or a later page re-sends the very same
   * request, same key; otherwise nothing was applied and the record goes. The failure is reported
   * as `billing-error` with its remedy; a new price is asked again (`askAgain`); any other
   * failure is kept and shown, with its key while its outcome is unknown, and the dialog closes.
   */
  #failed(endpoint: string, pending: Pending, error: BillingError): void {
    // After `upstream-error` only the usage shows what happened (see outcomeUnknown).
    const unknown = outcomeUnknown(error);
    if (!unknown) this.settle(endpoint, pending);
    this.report(error);
    if (this.askAgain(error, pending)) return;
    this.followUp(error.code, endpoint);
    this.setFailure({ error, pending: unknown ? pending : undefined });
    this.finish();
  }

  /**
   * The customer signed in now, to check a resumed change against: by default, as the proxy's
   * usages name them. Rejects when it cannot be told (the proxy did not answer).
   */
  protected whoIsSignedIn(endpoint: string): Promise<string | undefined> {
    return signedInCustomer(endpoint);
  }

  /**
   * Who is signed in could not be told: the change is kept as the failure shown, and "Try
   * again" checks first. What a flow does beside; by default nothing more.
   */
  protected unverified(_error: BillingError): void {}

  /**
   * Resumes `pending`, a change confirmed before a reload (or a resume whose check failed), only
   * when it is proven to be the signed-in customer's: it names a customer and the proxy names the
   * same one now. A tab outlives a sign-out, and the proxy keys changes per customer, so a change
   * confirmed by customer A and re-sent in customer B's session would be a new change for B, at
   * the price A confirmed. So:
   * - no customer recorded (the quote named none): nothing can prove it, it is dropped unsent;
   * - the proxy cannot be asked now: the change is kept, and "Try again" checks first;
   * - another customer, or none, is signed in (a customer without a subscription has no usages
   *   to name them): it is dropped unsent, never applied to the wrong customer;
   * - the same customer: sent again with its key, which tells its outcome, applied at most once.
   * Dropping costs the same customer only the message of a change whose outcome the meters show.
   */
  protected async resume(pending: Pending): Promise<void> {
    const endpoint = this.endpoint;
    if (!pending.customer) {
      warnOnce(NO_CUSTOMER_RECORDED);
      this.settle(endpoint, pending);
      return;
    }
    this.setPhase('resuming');
    let customer: string | undefined;
    try {
      customer = await this.whoIsSignedIn(endpoint);
    } catch (caught) {
      const error = toBillingError(caught);
      this.setFailure({ error, pending, verify: true });
      this.unverified(error);
      this.setPhase('idle');
      return;
    }
    if (customer !== pending.customer) {
      this.settle(endpoint, pending);
      this.setPhase('idle');
      return;
    }
    await this.send(pending);
  }

  /**
   * Applies `quote`, confirmed (or needing no confirmation): the page is told first and may
   * call it off, and then the dialog closes; else the change is recorded with a fresh key and
   * sent.
   */
  protected async apply(quote: Quote): Promise<void> {
    const { before, record } = this.applying(quote);
    if (before && !this.host.dispatchEvent(before)) {
      this.finish();
      return;
    }
    await this.send(record());
  }

  /**
   * Learns the outcome of the change of `subject` confirmed earlier (before a reload, say) and
   * still recorded, once per proxy and subject, when the flow is idle: `read` finds its record
   * on the proxy at `endpoint`.
   */
  protected resumeRecorded(subject: string, read: (endpoint: string) => Pending | undefined): void {
    const endpoint = this.endpoint;
    const target = `${endpoint}#${subject}`;
    if (this.#phase !== 'idle' || this.#resumeCheckedFor === target) return;
    this.#resumeCheckedFor = target;
    const pending = read(endpoint);
    if (pending) void this.resume(pending);
  }

  /**
   * "Try again" on the failure shown: a change of unknown outcome is sent again with its key;
   * otherwise the failure goes and the change is priced again (`reprice`), and a resumed change
   * whose customer could not be checked is checked first.
   */
  protected async retryWith(reprice: () => void): Promise<void> {
    const failure = this.#failure;
    if (failure?.pending && !failure.verify) {
      await this.send(failure.pending);
      return;
    }
    this.#failure = undefined;
    reprice();
    if (failure?.pending) await this.resume(failure.pending);
  }

  /**
   * A change was applied: its answer is the outcome shown, the dialog closes, and the page's
   * usages follow (the answer's `usage` at once when it has one, then all read again).
   */
  protected applied(success: Success, endpoint: string, usage?: Usage): void {
    this.setSuccess(success);
    this.finish();
    if (usage) getUsageStore(endpoint).applyUsage(usage);
    this.refreshUsages(endpoint);
  }

  /**
   * The page's usages of `endpoint` read again, after a change here or one a refusal says was
   * made elsewhere; when they cannot be read, the meters keep their last usages until the next
   * read (the outcome is shown already).
   */
  protected refreshUsages(endpoint: string): void {
    getUsageStore(endpoint)
      .refresh()
      .catch(() => undefined);
  }

  /**
   * Reports a failure as `billing-error`, with the host's feature, if it has one, and the portal
   * page that remedies it, if any.
   */
  protected report(error: BillingError | undefined): void {
    if (!error || error.code === 'aborted') return;
    const { feature } = this.host;
    const remedy = remedyFor(error.code);
    const event = new BillingErrorEvent({
      error,
      ...(feature ? { feature } : {}),
      ...(remedy ? { remedy } : {}),
    });
    this.host.dispatchEvent(event);
  }
}

import type { ReactiveControllerHost } from 'lit';
import { resolveEndpoint } from '../../client/config.js';
import { toBillingError, type BillingError } from '../../client/errors.js';
import { BillingErrorEvent } from '../../client/events.js';
import { remedyFor } from '../../client/portal.js';
import { getProxyClient } from '../../client/proxy-client.js';
import { getUsageStore } from '../../client/usage-store.js';
import type { Usage } from '../../contract/resources.js';
import { warnOnce } from './warn.js';

// What every flow that changes billing after the customer confirmed a price has in common (a
// purchase of a quantity, an add-on switched, a plan change): its phases, the quote the dialog
// shows, the dialog's opening and closing, the refusals reported as `billing-error`, and the
// checks around a change confirmed before a reload. Each flow adds what it prices and sends.

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
  EventTarget & { readonly endpoint: string | undefined };

/** What a flow needs of the element's dialog. */
export interface ChangeDialog {
  /** Opens the confirmation dialog on the quote, or refreshes it; the focus goes to Cancel. */
  openDialog(): Promise<void>;
  /** Closes it; nothing happens when it is closed. */
  closeDialog(): void;
}

/**
 * Whether a failed change may have been applied: then only the same request, same key, may be
 * sent again. The proxy's `upstream-error` means it could not tell and will never apply that key
 * again: re-sending it is pointless.
 */
export function outcomeUnknown({ code, retryable }: BillingError): boolean {
  return (
    code !== 'upstream-error' && (retryable || code === 'aborted' || code === 'invalid-response')
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

/** How a flow resumes a change confirmed before a reload (see `resumeIfSameCustomer`). */
export interface ResumeSteps<Pending extends ConfirmedEarlier> {
  /**
   * The customer signed in now; rejects when it cannot be told (the proxy did not answer). By
   * default, as the proxy's usages name them.
   */
  whoIsSignedIn?(): Promise<string | undefined>;
  /** Forgets the change without sending it: it is not proven to be this customer's. */
  settle(pending: Pending): void;
  /** Who is signed in could not be told: keep the change, and let "Try again" check again. */
  cannotTell(pending: Pending, error: BillingError): void;
  /** Sends the change again, same key, to learn its outcome. */
  send(pending: Pending): Promise<void>;
}

/** Said once when a change confirmed earlier names no customer and so cannot be re-sent. */
const NO_CUSTOMER_RECORDED =
  '[billing-elements] A change confirmed before the page reloaded names no customer, so it was ' +
  'not sent again: the price the proxy quoted carried no ReferenceCustomer.';

/**
 * The phases, the dialog and the outcome of a confirmed change, in `host` (the element) and
 * `view` (what the flow needs of its DOM, the dialog at least): `Quote` is what the dialog shows,
 * `Success` what an applied change answered, `Failure` a failure of the change itself. A subclass
 * that follows the host's lifecycle registers itself as its controller.
 */
export abstract class ConfirmedChange<
  Quote,
  Success,
  Failure extends ChangeFailure<unknown>,
  Host extends ChangeHost = ChangeHost,
  View extends ChangeDialog = ChangeDialog,
> {
  protected readonly host: Host;
  protected readonly view: View;
  #phase: ChangePhase = 'idle';
  #quote: Quote | undefined;
  #success: Success | undefined;
  #failure: Failure | undefined;

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
  get failure(): Failure | undefined {
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

  protected setSuccess(success: Success | undefined): void {
    this.#success = success;
  }

  protected setFailure(failure: Failure | undefined): void {
    this.#failure = failure;
  }

  protected setPhase(phase: ChangePhase): void {
    this.#phase = phase;
    this.host.requestUpdate();
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
  protected async resumeIfSameCustomer<Pending extends ConfirmedEarlier>(
    pending: Pending,
    steps: ResumeSteps<Pending>,
  ): Promise<void> {
    if (!pending.customer) {
      warnOnce(NO_CUSTOMER_RECORDED);
      steps.settle(pending);
      return;
    }
    this.setPhase('resuming');
    let customer: string | undefined;
    try {
      customer = await (steps.whoIsSignedIn?.() ?? signedInCustomer(this.endpoint));
    } catch (caught) {
      steps.cannotTell(pending, toBillingError(caught));
      this.setPhase('idle');
      return;
    }
    if (customer !== pending.customer) {
      steps.settle(pending);
      this.setPhase('idle');
      return;
    }
    await steps.send(pending);
  }

  /**
   * Tells the page a confirmed change is about to be sent (a cancelable `billing-before-…`
   * event): false when the page called it off, and then the dialog closes.
   */
  protected pageAllows(before: Event): boolean {
    if (this.host.dispatchEvent(before)) return true;
    this.finish();
    return false;
  }

  /**
   * "Try again" on the failure shown: a change of unknown outcome is sent again with its key
   * (`send`); otherwise the failure goes and the change is priced again (`reprice`), and a
   * resumed change whose customer could not be checked is checked first (`resume`).
   */
  protected async retryWith(steps: {
    send(pending: NonNullable<Failure['pending']>): Promise<void>;
    reprice(): void;
    resume(pending: NonNullable<Failure['pending']>): Promise<void>;
  }): Promise<void> {
    const failure = this.#failure;
    if (failure?.pending && !failure.verify) {
      await steps.send(failure.pending as NonNullable<Failure['pending']>);
      return;
    }
    this.#failure = undefined;
    steps.reprice();
    if (failure?.pending) await steps.resume(failure.pending as NonNullable<Failure['pending']>);
  }

  /**
   * A change was applied: its answer is the outcome shown, the dialog closes, and the page's
   * usages follow (the answer's `usage` at once when it has one, then all read again).
   */
  protected applied(success: Success, endpoint: string, usage?: Usage): void {
    this.setSuccess(success);
    this.finish();
    const store = getUsageStore(endpoint);
    if (usage) store.applyUsage(usage);
    store.refresh().catch(() => {
      // The change is made and shown; the meters keep their last usages until the next read.
    });
  }

  /** Reports a failure as `billing-error`, with the portal page that remedies it, if any. */
  protected report(error: BillingError | undefined, feature?: string): void {
    if (!error || error.code === 'aborted') return;
    const remedy = remedyFor(error.code);
    const event = new BillingErrorEvent({
      error,
      ...(feature ? { feature } : {}),
      ...(remedy ? { remedy } : {}),
    });
    this.host.dispatchEvent(event);
  }
}

import type { ReactiveControllerHost } from 'lit';
import { toBillingError, type BillingError } from '../../client/errors.js';
import { BillingErrorEvent } from '../../client/events.js';
import { remedyFor } from '../../client/portal.js';
import { getProxyClient } from '../../client/proxy-client.js';
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

/** The element a flow runs in: it re-renders on every change of phase and hears the events. */
export type ChangeHost = ReactiveControllerHost & EventTarget;

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

/** A change confirmed earlier, as recorded: the customer its price was quoted for, if named. */
export interface ConfirmedEarlier {
  customer?: string;
}

/** How a flow resumes a change confirmed before a reload (see `resumeIfSameCustomer`). */
export interface ResumeSteps<Pending extends ConfirmedEarlier> {
  /** The customer signed in now; rejects when it cannot be told (the proxy did not answer). */
  whoIsSignedIn(): Promise<string | undefined>;
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
 * The phases and the dialog of a confirmed change; `Quote` is what the dialog shows. A subclass
 * that follows the host's lifecycle registers itself as its controller.
 */
export abstract class ConfirmedChange<Quote> {
  protected readonly host: ChangeHost;
  readonly #dialog: ChangeDialog;
  #phase: ChangePhase = 'idle';
  #quote: Quote | undefined;

  constructor(host: ChangeHost, dialog: ChangeDialog) {
    this.host = host;
    this.#dialog = dialog;
  }

  get phase(): ChangePhase {
    return this.#phase;
  }

  /** What the dialog asks the user to confirm, while it is open or being applied. */
  get quote(): Quote | undefined {
    return this.#quote;
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

  protected setPhase(phase: ChangePhase): void {
    this.#phase = phase;
    this.host.requestUpdate();
  }

  /** Opens the dialog (or refreshes it) on `quote`. */
  protected async ask(quote: Quote): Promise<void> {
    this.#quote = quote;
    this.setPhase('confirming');
    await this.#dialog.openDialog();
  }

  /** Back to idle once an outcome is known or the change was called off: the dialog closes. */
  protected finish(): void {
    this.setPhase('idle');
    this.#dialog.closeDialog();
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
      customer = await steps.whoIsSignedIn();
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

import type { ReactiveControllerHost } from 'lit';
import type { BillingError } from '../../client/errors.js';
import { BillingErrorEvent } from '../../client/events.js';
import { remedyFor } from '../../client/portal.js';
import { getProxyClient } from '../../client/proxy-client.js';

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

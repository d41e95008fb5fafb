import { html, nothing, type LitElement, type TemplateResult } from 'lit';

// The confirmation dialog of every change that costs money (a purchase, an add-on switched, a
// plan change): one template and one focus policy, so that each element asks alike. The element
// hands over what to show in words already written (its own texts, amounts formatted); the
// dialog only arranges them. Every text is rendered as text, never as markup.

/** One line of the service's breakdown of the amount due now. */
export interface QuoteLine {
  label: string;
  amount: string;
}

/** The price block: what is due now, its breakdown, and the recurring price afterwards. */
export interface QuoteView {
  /** "Due now", "Nothing to pay now"... */
  nowLabel: string;
  /** The amount due now, formatted. */
  amount: string;
  lines: readonly QuoteLine[];
  /**
   * "New recurring price" and the price per period, when known; `note` under it (part
   * `next-term-note`) says what that price counts when the title's plan price does not.
   */
  nextTerm?: { label: string; price: string; note?: string | undefined } | undefined;
  /** A line under the price (when a change takes effect), in the `effective` part. */
  effective?: string | undefined;
  /** Whether the prices include tax, when the business said (part `taxes`). */
  taxes?: string | undefined;
}

/** The dialog's content: its title, a sentence, a notice, the price block and the actions. */
export interface ConfirmView {
  /** The title's default text (the element's `dialog-title` slot replaces it). */
  title: string;
  /**
   * What is being confirmed, in a sentence ("Add 3 seats"), when the title does not say it; or
   * its consequences, one sentence each (a plan change: what goes, what stays), shown as a list.
   */
  summary?: string | readonly string[] | undefined;
  /**
   * `destructive` for a change that takes something away (removing an add-on, a plan without
   * some features): its consequence, the summary, reads as a warning, and the confirm button has
   * the critical colour.
   */
  tone?: 'destructive' | undefined;
  /** More about it ("2 included · 1 extra"), in the `split` part. */
  split?: string | undefined;
  /** Why the price is asked again (it changed since it was shown), announced. */
  changed?: string | undefined;
  quote: QuoteView;
  /** The confirmed change is being sent: neither button does anything any more. */
  applying: boolean;
  /** The buttons' default texts (the `cancel-label` and `confirm-label` slots replace them). */
  cancelLabel: string;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/** The price block, `#quote`: it describes the dialog (`aria-describedby`). */
export function quoteBlock(view: QuoteView): TemplateResult {
  const { nowLabel, amount, lines, nextTerm, effective, taxes } = view;
  return html`<div id="quote" class="quote" part="quote">
    <p class="label">${nowLabel}</p>
    <p class="amount" part="amount" data-length=${amount.length > 12 ? 'long' : nothing}>
      ${amount}
    </p>
    ${
      lines.length
        ? html`<ul class="details" part="details">
            ${lines.map((line) => html`<li><span>${line.label}</span><span>${line.amount}</span></li>`)}
          </ul>`
        : nothing
    }
    ${
      nextTerm
        ? html`<p class="next-term" part="next-term">
            ${nextTerm.label} <strong>${nextTerm.price}</strong>
          </p>`
        : nothing
    }
    ${
      nextTerm?.note
        ? html`<p class="next-term-note" part="next-term-note">${nextTerm.note}</p>`
        : nothing
    }
    ${effective ? html`<p class="effective" part="effective">${effective}</p>` : nothing}
    ${taxes ? html`<p class="taxes" part="taxes">${taxes}</p>` : nothing}
  </div>`;
}

/** The summary, `#summary`: a sentence, or a list of consequences read one by one. */
function summaryBlock({ summary, tone }: ConfirmView): TemplateResult | typeof nothing {
  const sentences = typeof summary === 'string' ? [summary] : (summary ?? []);
  if (sentences.length === 0) return nothing;
  if (sentences.length === 1)
    return html`<p id="summary" class="summary" data-tone=${tone ?? nothing}>${sentences[0]}</p>`;
  return html`<ul id="summary" class="summary consequences" data-tone=${tone ?? nothing}>
    ${sentences.map((sentence) => html`<li>${sentence}</li>`)}
  </ul>`;
}

/** What goes inside the `<dialog>`: Cancel first, and it is what gets the focus. */
export function confirmContent(view: ConfirmView): TemplateResult {
  const { applying } = view;
  return html`<h2 id="dialog-title" part="dialog-title">
      <slot name="dialog-title">${view.title}</slot>
    </h2>
    ${summaryBlock(view)}
    ${view.split ? html`<p id="split" class="split" part="split">${view.split}</p>` : nothing}
    ${
      view.changed
        ? html`<p class="changed" part="price-changed" role="alert">${view.changed}</p>`
        : nothing
    }
    ${quoteBlock(view.quote)}
    <div class="actions">
      <button
        type="button"
        class="secondary"
        part="button cancel"
        aria-disabled=${applying}
        @click=${view.onCancel}
      >
        <slot name="cancel-label">${view.cancelLabel}</slot>
      </button>
      <button
        type="button"
        class=${view.tone === 'destructive' ? 'primary destructive' : 'primary'}
        part=${view.tone === 'destructive' ? 'button confirm destructive' : 'button confirm'}
        aria-disabled=${applying}
        aria-busy=${applying}
        @click=${view.onConfirm}
      >
        <slot name="confirm-label">${view.confirmLabel}</slot>
      </button>
    </div>`;
}

/** What the dialog needs of the flow it confirms. */
export interface ConfirmFlow {
  /** A confirmed change is being sent: it can no longer be called off. */
  readonly underWay: boolean;
  /** The dialog closed (Cancel, Escape, or the outcome known). */
  dialogClosed(): void;
}

/**
 * The ids of what describes the dialog: the summary ("Add 3 seats"), its split ("2 included ·
 * 1 extra") and the price block, those it shows; a screen reader reads them after the title.
 */
const DESCRIPTION = ['summary', 'split', 'quote'];

/**
 * The `<dialog>` of an element and its focus: opened modal with the focus on Cancel (a stray
 * Enter must never spend money), kept open by Escape while the change is being sent, and the
 * focus given back on close to what had it, else to `fallback()`.
 */
export class ConfirmDialog {
  readonly #host: LitElement;
  readonly #flow: () => ConfirmFlow;
  readonly #fallback: () => HTMLElement | null;
  /** Where the focus goes back when the dialog closes: what had it when the dialog opened. */
  #returnFocus: HTMLElement | null = null;

  constructor(host: LitElement, flow: () => ConfirmFlow, fallback: () => HTMLElement | null) {
    this.#host = host;
    this.#flow = flow;
    this.#fallback = fallback;
  }

  get #dialog(): HTMLDialogElement | null {
    return this.#host.renderRoot.querySelector('dialog');
  }

  /** Opens the dialog on what the host renders in it, or refreshes it; the focus on Cancel. */
  async open(): Promise<void> {
    await this.#host.updateComplete;
    const dialog = this.#dialog;
    if (!dialog) return;
    if (!dialog.open) {
      this.#returnFocus = this.#host.shadowRoot?.activeElement as HTMLElement | null;
      dialog.showModal();
    }
    this.#host.renderRoot.querySelector<HTMLElement>('[part~="cancel"]')?.focus();
  }

  /**
   * Closes the dialog, and tells the flow at once: the dialog's `close` event comes a task
   * later, and a click in between (on Add again, say) must find the flow idle.
   */
  close(): void {
    this.#dialog?.close();
    this.#flow().dialogClosed();
  }

  /** Cancel: closes, unless the change is already being sent. */
  readonly cancel = (): void => {
    if (!this.#flow().underWay) this.close();
  };

  /** The dialog's `cancel` event (Escape): ignored while the change is being sent. */
  readonly onCancelEvent = (event: Event): void => {
    if (this.#flow().underWay) event.preventDefault();
  };

  /** The dialog's `close` event. */
  readonly onClose = (): void => {
    this.#flow().dialogClosed();
    const returnTo = this.#returnFocus?.isConnected ? this.#returnFocus : this.#fallback();
    returnTo?.focus();
  };

  /** The `<dialog>` itself, around `content`. */
  render(content: TemplateResult | typeof nothing): TemplateResult {
    // Missing ids are ignored by the accessibility tree: the summary and split only when shown.
    return html`<dialog
      part="dialog"
      aria-labelledby="dialog-title"
      aria-describedby=${DESCRIPTION.join(' ')}
      aria-busy=${this.#flow().underWay}
      @cancel=${this.onCancelEvent}
      @close=${this.onClose}
    >
      ${content}
    </dialog>`;
  }
}

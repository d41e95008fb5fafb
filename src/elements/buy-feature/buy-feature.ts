import { LitElement, html, nothing, type PropertyValues } from 'lit';
import type { PricingResponse, PurchaseResponse } from '../../contract/proxy-api.js';
import type { Usage } from '../../contract/resources.js';
import { resolveEndpoint } from '../../client/config.js';
import { toBillingError, type BillingError } from '../../client/errors.js';
import {
  BillingBeforePurchaseEvent,
  BillingErrorEvent,
  BillingPurchaseEvent,
} from '../../client/events.js';
import {
  errorMessage,
  formatNumber,
  message,
  registerTexts,
  type MessageKey,
  followLang,
} from '../../client/i18n.js';
import { remedyFor } from '../../client/portal.js';
import { getProxyClient } from '../../client/proxy-client.js';
import { getUsageStore } from '../../client/usage-store.js';
import { defineElement } from '../shared/define.js';
import { openRemedy } from '../shared/remedy.js';
import { LatestTask } from './latest-task.js';
import { buyTexts } from './messages.js';
import {
  createPendingPurchase,
  purchaseRequestOf,
  readPendingPurchase,
  settlePendingPurchase,
  type PendingPurchase,
} from './pending-purchase.js';
import { buyFeatureStyles } from './styles.js';

/** The price the dialog asks the user to confirm. */
interface Quote {
  increment: number;
  pricing: PricingResponse;
  /**
   * Why the price is asked again: the service's price differs from the one the user was last
   * shown (`price-changed`), or the billing period was ending when it was confirmed
   * (`period-ending`).
   */
  changed?: 'price-changed' | 'period-ending';
}

/** A failure of the purchase itself (the preview's failures live in the preview's state). */
interface PurchaseFailure {
  error: BillingError;
  /** Set when the outcome is unknown: a retry re-sends this very request, same key. */
  pending?: PendingPurchase | undefined;
  /** A resumed purchase whose customer could not be checked yet: a retry checks first. */
  verify?: boolean;
}

/**
 * 0 idle, 1 preparing, 2 confirming, 3 applying, 7 learning the outcome of a purchase confirmed
 * earlier (applying, said otherwise). Odd is busy; above 2 a purchase is under way. Numbers
 * ship shorter than words.
 */
type Phase = 0 | 1 | 2 | 3 | 7;

/**
 * Lets the signed-in customer buy more of a metered feature: a quantity control, a live
 * preview of the price, a confirmation dialog showing the service's price, and a purchase
 * that is applied at most once whatever the retries, double clicks or reloads.
 *
 * @tag buy-feature
 * @summary Buy more of a feature after confirming the price.
 *
 * @slot label - The quantity control's label. Default: "Quantity".
 * @slot buy-label - The text of the buy button. Default: "Buy".
 * @slot dialog-title - The title of the confirmation dialog. Default: "Confirm your purchase".
 * @slot confirm-label - The text of the dialog's confirm button. Default: "Confirm".
 * @slot cancel-label - The text of the dialog's cancel button. Default: "Cancel".
 *
 * @event billing-before-purchase - {BillingBeforePurchaseEvent} A confirmed purchase is about to be applied; `preventDefault()` stops it. `detail: { feature, increment, pricing }`.
 * @event billing-purchase - {BillingPurchaseEvent} The purchase was applied. `detail: { feature, increment, usage, amountTotal, replayed }`.
 * @event billing-error - {BillingErrorEvent} The price or the purchase was refused or failed. `detail: { error, feature, remedy }` (`error.code`, `error.message`).
 * @event billing-remedy - {BillingRemedyEvent} The user asked for the portal workflow that remedies a refusal; `preventDefault()` to open it yourself. `detail: { page, code, feature }`.
 *
 * @csspart form - The row holding the quantity control, the price and the buy button.
 * @csspart quantity - The quantity control: label, input and hints.
 * @csspart label - The quantity's label.
 * @csspart input - The quantity input.
 * @csspart hint - The allowed range under the quantity.
 * @csspart invalid - The message shown for a quantity out of range.
 * @csspart price - The live price preview.
 * @csspart price-now - The immediate cost line of the preview.
 * @csspart price-next - The next-term price line of the preview.
 * @csspart button - Every button.
 * @csspart buy - The buy button (also `button`).
 * @csspart status - The live region that reports progress and success.
 * @csspart progress - The "applying your purchase" message.
 * @csspart success - The success message.
 * @csspart error - The refusal or failure message, with its remedy.
 * @csspart remedy - The button that opens the portal workflow fixing a refusal (also `button`).
 * @csspart retry - The "try again" button (also `button`).
 * @csspart dialog - The confirmation dialog.
 * @csspart dialog-title - The dialog's title.
 * @csspart price-changed - The dialog's notice that the price changed since it was shown.
 * @csspart quote - The dialog's price block.
 * @csspart amount - The immediate price, in large type.
 * @csspart details - The service's breakdown of the immediate price, under it.
 * @csspart next-term - The next-term label and price under it.
 * @csspart confirm - The confirm button (also `button`).
 * @csspart cancel - The cancel button (also `button`).
 *
 * @cssproperty --billing-accent - The accent: buy and confirm buttons, focus rings.
 * @cssproperty --billing-on-accent - Text on the accent.
 * @cssproperty --billing-critical - Refusals and invalid input.
 * @cssproperty --billing-success - The success message.
 * @cssproperty --billing-radius - Corner radius of controls and the dialog (8px).
 * @cssproperty --billing-space - The spacing unit (4px).
 * @cssproperty --billing-font-size - Base font size (inherited by default).
 * @cssproperty --billing-border-color - Hairlines.
 * @cssproperty --billing-muted-color - Secondary text.
 * @cssproperty --billing-focus-ring - The focus ring (a box-shadow).
 * @cssproperty --billing-surface - Background of the dialog (Canvas).
 * @cssproperty --billing-on-surface - Text of the dialog (CanvasText).
 * @cssproperty --billing-backdrop - The dialog's backdrop.
 * @cssproperty --billing-duration - Length of the transitions (180ms; none with reduced motion).
 */
export class BuyFeature extends LitElement {
  static override styles = buyFeatureStyles;

  static {
    registerTexts(buyTexts);
  }

  static override properties = {
    feature: { reflect: true },
    quantity: { type: Number },
    min: { type: Number },
    max: { type: Number },
    step: { type: Number },
    confirm: {},
    label: {},
    endpoint: {},
  };

  /**
   * Registers the element under `tag`. Does nothing when this class already holds the tag, so
   * loading the library twice does not throw; a tag held by another copy of the library is kept.
   */
  static define(tag = 'buy-feature', registry: CustomElementRegistry = customElements): void {
    defineElement(tag, this, registry);
  }

  /** The feature to buy (its reference, e.g. `seats`). */
  declare feature: string;
  /** How many units to add; the user changes it with the quantity control. */
  declare quantity: number;
  /** The smallest quantity the control allows. */
  declare min: number;
  /** The largest quantity the control allows; none when unset. */
  declare max: number | null;
  /** The quantity control's step, counted from `min`. */
  declare step: number;
  /** `always` asks for confirmation even when the purchase costs nothing; `auto` only when it costs something now or raises the recurring price (the proxy's `confirmationRequired`). */
  declare confirm: 'auto' | 'always';
  /** The feature's name in the customer's words, used in sentences ("You now have 7 seats"); defaults to the usage's `TitleLocalized`, else the feature reference. */
  declare label: string;
  /** The billing proxy for this element, overriding the page's `configureBilling({ endpoint })`. */
  declare endpoint: string | undefined;

  readonly #preview = new LatestTask<number, PricingResponse>(this, (increment, signal) =>
    // The feature and proxy of the moment: a change of either starts a new run at once.
    getProxyClient(this.#endpoint).getPricing({ feature: this.feature, increment }, signal),
  );
  #phase: Phase = 0;
  #quote: Quote | undefined;
  /** The last purchase's outcome: the new usage, and whether its amount is the confirmed one. */
  #success: { usage: Usage; amountConfirmed: boolean } | undefined;
  #failure: PurchaseFailure | undefined;
  /** The quantity input holds text that is not an allowed quantity: 2 says so, 1 not yet (an emptied field). */
  #invalid: 0 | 1 | 2 = 0;
  /** The preview state last seen by `updated`, to report each preview error once. */
  #reportedPreview: unknown;
  /** The feature and endpoint whose pending purchase was already looked for. */
  #resumeCheckedFor = '';
  #unsubscribe: (() => void) | undefined;
  #returnFocus: HTMLElement | null = null;

  constructor() {
    super();
    followLang(this);
    this.feature = '';
    this.quantity = 1;
    this.min = 1;
    this.max = null;
    this.step = 1;
    this.confirm = 'auto';
    this.label = '';
  }

  /** The proxy this element talks to. */
  get #endpoint(): string {
    return resolveEndpoint(this.endpoint);
  }

  get #stepSize(): number {
    return Number.isInteger(this.step) && this.step > 0 ? this.step : 1;
  }

  get #upper(): number {
    return Number.isFinite(this.max) ? this.max! : Infinity;
  }

  get #dialog(): HTMLDialogElement {
    return this.renderRoot.querySelector('dialog')!;
  }

  /** The preview's failure, when it failed. */
  get #previewError(): BillingError | undefined {
    const state = this.#preview.state;
    return state.status === 'error' ? toBillingError(state.error) : undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // The preview drops its state on disconnect: a moved element subscribes and prices again at
    // once, as for a new proxy.
    if (this.hasUpdated) this.requestUpdate('endpoint', NaN);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Calling it again (on the next subscription) does nothing.
    this.#unsubscribe?.();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // The first update has `feature` (set in the constructor).
    const target = changed.has('feature') || changed.has('endpoint');
    if (
      target ||
      changed.has('quantity') ||
      changed.has('min') ||
      changed.has('max') ||
      changed.has('step')
    ) {
      this.#invalid = this.#isAllowed(this.quantity) ? 0 : 2;
      // A new feature, proxy or connection prices at once; a quantity being typed waits.
      this.#schedulePreview(target);
    }
    if (target && this.isConnected) {
      this.#subscribe();
      this.#resumePendingPurchase();
    }
  }

  protected override updated(): void {
    if (this.#preview.state !== this.#reportedPreview) {
      this.#reportedPreview = this.#preview.state;
      this.#reportError(this.#previewError);
    }
  }

  // Quantity

  #isAllowed(value: number): boolean {
    return (
      Number.isInteger(value) &&
      value >= this.min &&
      value <= this.#upper &&
      (value - this.min) % this.#stepSize === 0
    );
  }

  #schedulePreview(immediate: boolean): void {
    if (!this.feature || this.#invalid || this.quantity === 0) this.#preview.reset();
    else this.#preview.run(this.quantity, immediate);
  }

  #setQuantity(value: number): void {
    this.#success = undefined;
    if (!this.#failure?.pending) this.#failure = undefined;
    this.quantity = value;
    // Back to the last valid value: the property does not change, so it is marked changed to be
    // validated and priced again.
    this.requestUpdate(this.#invalid ? 'quantity' : undefined, NaN);
  }

  #onInput(event: Event): void {
    const input = event.target as HTMLInputElement;
    if (this.#isAllowed(input.valueAsNumber)) return this.#setQuantity(input.valueAsNumber);
    // Keep what the user typed on screen, say why it cannot be priced, and show no old price.
    // An emptied field is someone about to type: no message yet.
    this.#invalid = input.value !== '' || input.validity.badInput ? 2 : 1;
    this.#success = undefined;
    this.#preview.reset();
  }

  /** The − and + buttons: the input's own stepping, from its min, max and step. */
  // Purchase

  #setPhase(phase: Phase): void {
    this.#phase = phase;
    this.requestUpdate();
  }

  /** Back to idle once a purchase's outcome is known or it was called off: the dialog closes. */
  #finish(): void {
    this.#setPhase(0);
    // close() does nothing on a closed dialog (no close event).
    this.#dialog.close();
  }

  async #onSubmit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this.#phase || !this.#canBuy()) return;
    this.#success = this.#failure = undefined;
    this.#setPhase(1);
    const increment = this.quantity;
    // Typed faster than the debounce: price the current quantity now rather than wait.
    const state = await this.#preview.settled();
    this.#setPhase(0);
    if (state.status !== 'complete' || state.args !== increment) return;
    const pricing = state.value;
    // Only the proxy can tell a change that is free overall from one that costs nothing now
    // but raises the recurring price: anything short of its explicit `false` is confirmed.
    await (pricing.confirmationRequired === false && this.confirm !== 'always'
      ? this.#apply({ increment, pricing })
      : this.#ask({ increment, pricing }));
  }

  #canBuy(): boolean {
    // Only a priced quantity can be bought (the preview is idle without a feature or for a
    // quantity that cannot be bought; a refusal's remedy or "Try again" is the way on after an
    // error). While a purchase's outcome is unknown, the only way on is to learn it.
    const { status } = this.#preview.state;
    return (status === 'pending' || status === 'complete') && !this.#failure?.pending;
  }

  /** Opens the dialog (or refreshes it) with the price to confirm. */
  async #ask(quote: Quote): Promise<void> {
    this.#quote = quote;
    this.#setPhase(2);
    await this.updateComplete;
    const dialog = this.#dialog;
    if (!dialog.open) {
      // Nothing focused inside: the focus goes to the buy button when the dialog closes.
      this.#returnFocus = this.shadowRoot!.activeElement as HTMLElement | null;
      dialog.showModal();
    }
    // Cancel gets the focus: a stray Enter must never spend money.
    this.renderRoot.querySelector<HTMLElement>('[part~="cancel"]')!.focus();
  }

  #onDialogClose(): void {
    if (this.#phase === 2) this.#phase = 0;
    if (this.#phase < 3) this.#quote = undefined;
    (this.#returnFocus?.isConnected
      ? this.#returnFocus
      : this.renderRoot.querySelector<HTMLElement>('[part~="buy"]')
    )?.focus();
    this.requestUpdate();
  }

  /** The user confirmed `quote` (or it costs nothing): record a key, then apply. */
  async #apply({ increment, pricing }: Quote): Promise<void> {
    const before = new BillingBeforePurchaseEvent({ feature: this.feature, increment, pricing });
    if (!this.dispatchEvent(before)) return this.#finish();
    await this.#send(
      createPendingPurchase(
        this.#endpoint,
        this.feature,
        increment,
        pricing.AmountTotal,
        pricing.ReferenceCustomer,
      ),
    );
  }

  /** Sends a recorded purchase (first time, retry or resume) and shows its outcome. */
  async #send(pending: PendingPurchase): Promise<void> {
    const endpoint = this.#endpoint;
    const store = getUsageStore(endpoint);
    this.#failure = undefined;
    // A resumed purchase (7) says so until its outcome is known.
    this.#setPhase((this.#phase | 3) as Phase);
    let result: PurchaseResponse;
    try {
      result = await getProxyClient(endpoint).purchase(purchaseRequestOf(pending));
    } catch (caught) {
      const error = toBillingError(caught);
      const { code, pricing } = error;
      // The proxy's `upstream-error` on a purchase means it cannot tell and will never apply this
      // key again: re-sending it is pointless, and only the usage shows what happened.
      const outcomeUnknown =
        code !== 'upstream-error' &&
        (error.retryable || code === 'aborted' || code === 'invalid-response');
      if (!outcomeUnknown) settlePendingPurchase(endpoint, pending);
      this.#reportError(error);
      if ((code === 'price-changed' || code === 'period-ending') && pricing) {
        // Nothing was applied. Show the service's new price and ask again, with a new key.
        this.#preview.set(pending.increment, pricing);
        return void this.#ask({ increment: pending.increment, pricing, changed: code });
      }
      if (code === 'upstream-error') store.refresh().catch(() => {});
      this.#failure = { error, pending: outcomeUnknown ? pending : undefined };
      return this.#finish();
    }
    settlePendingPurchase(endpoint, pending);
    this.#success = { usage: result.usage, amountConfirmed: result.amountConfirmed !== false };
    this.#finish();
    store.applyUsage(result.usage);
    store.refresh().catch(() => {
      // The purchase's own answer is already in the store; a failed refresh changes nothing.
    });
    this.dispatchEvent(
      new BillingPurchaseEvent({
        feature: pending.feature,
        increment: pending.increment,
        usage: result.usage,
        amountTotal: result.amountTotal,
        amountConfirmed: result.amountConfirmed !== false,
        replayed: result.replayed,
      }),
    );
    // The next purchase starts from the new quantity: its price may differ.
    this.#schedulePreview(true);
  }

  /** A purchase confirmed earlier (before a reload, say) whose outcome is unknown: learn it. */
  #resumePendingPurchase(): void {
    const checked = `${this.#endpoint}#${this.feature}`;
    if (!this.feature || this.#resumeCheckedFor === checked || this.#phase) return;
    this.#resumeCheckedFor = checked;
    const pending = readPendingPurchase(this.#endpoint, this.feature);
    if (pending) void this.#resume(pending);
  }

  async #resume(pending: PendingPurchase): Promise<void> {
    const endpoint = this.#endpoint;
    this.#setPhase(7);
    // The same tab may now belong to another customer: never apply their predecessor's purchase.
    let customer: string | undefined;
    try {
      // The signed-in customer as the price preview tells it, else (priced nothing: refused,
      // say) as the proxy does, not a cache of another session.
      const state = await this.#preview.settled();
      customer =
        (state.status === 'complete' && state.value.ReferenceCustomer) ||
        (await getProxyClient(endpoint).getUsages()).usages.find((usage) => usage.ReferenceCustomer)
          ?.ReferenceCustomer;
    } catch (caught) {
      // Who is signed in cannot be told right now: keep the key, let "Try again" check again.
      this.#failure = { error: toBillingError(caught), pending, verify: true };
      return this.#setPhase(0);
    }
    if (!pending.customer || !customer || pending.customer === customer) return this.#send(pending);
    settlePendingPurchase(endpoint, pending);
    this.#setPhase(0);
  }

  #onRetry(): void {
    const pending = this.#failure?.pending;
    if (pending && !this.#failure!.verify) return void this.#send(pending);
    this.#failure = undefined;
    this.#schedulePreview(true);
    if (pending) void this.#resume(pending);
  }

  // Errors and remedies

  #reportError(error: BillingError | undefined): void {
    if (!error || error.code === 'aborted') return;
    const remedy = remedyFor(error.code);
    this.dispatchEvent(
      new BillingErrorEvent({ error, feature: this.feature, ...(remedy && { remedy }) }),
    );
  }

  #subscribe(): void {
    this.#unsubscribe?.();
    // After a remedy's workflow completes the usages refresh: price again, the refusal shown may
    // be gone. A purchase whose outcome is unknown stays (it has no remedy): only "Try again",
    // with its key, may send it.
    this.#unsubscribe = getUsageStore(this.endpoint).subscribe(() => {
      if (!this.#phase && remedyFor((this.#failure?.error ?? this.#previewError)?.code ?? '')) {
        this.#failure = undefined;
        this.#schedulePreview(true);
      }
    });
  }

  // Rendering

  #featureLabel(): string {
    return (
      this.label || getUsageStore(this.endpoint).get(this.feature)?.TitleLocalized || this.feature
    );
  }

  #renderQuantity(busy: boolean) {
    const upper = this.#upper;
    const hasMax = upper < Infinity;
    const shown = this.#invalid > 1;
    // One set of figures for the range and the invalid message (a text ignores what it lacks).
    const vars = {
      min: formatNumber(this, this.min),
      max: formatNumber(this, upper),
      step: formatNumber(this, this.#stepSize),
    };
    const stepped = this.#stepSize > 1;
    const describedBy = `${hasMax ? 'range' : ''} ${shown ? 'invalid' : ''}`.trim();
    // A number input: its arrow keys and spin buttons step it (from min, by step, within range).
    return html`
      <div class="quantity" part="quantity">
        <label part="label" for="quantity"
          ><slot name="label">${message(this, 'buy.quantity')}</slot></label
        >
        <input
          id="quantity"
          part="input"
          type="number"
          inputmode="numeric"
          .value=${String(this.quantity)}
          min=${this.min}
          max=${hasMax ? upper : nothing}
          step=${this.#stepSize}
          ?readonly=${busy}
          aria-invalid=${shown}
          aria-describedby=${describedBy || nothing}
          @input=${this.#onInput}
        />
        ${hasMax ? html`<span id="range" class="hint" part="hint">${message(this, 'buy.range', vars)}</span>` : nothing}
      </div>
      ${
        shown
          ? html`<p id="invalid" class="invalid" part="invalid" role="alert">
              ${message(
                this,
                `buy.invalid${hasMax ? (stepped ? '.step' : '') : stepped ? '.min-step' : '.min'}`,
                vars,
              )}
            </p>`
          : nothing
      }
    `;
  }

  #renderPrice() {
    const state = this.#preview.state;
    const pending = state.status === 'pending';
    const pricing = state.status === 'complete' && state.value;
    return html`<div class="price" part="price" aria-live="polite" aria-busy=${pending}>
      ${
        pending
          ? html`<div class="bars" aria-hidden="true">
                <span class="skeleton"></span><span class="skeleton"></span>
              </div>
              <span class="visually-hidden">${message(this, 'buy.calculating')}</span>`
          : pricing
            ? html`<dl>
                <div class="line now" part="price-now">
                  <dt>${pricing.LabelLocalized}</dt>
                  <dd>${pricing.PricingLocalized}</dd>
                </div>
                ${
                  pricing.NextTerm
                    ? html`<div class="line next" part="price-next">
                        <dt>${pricing.NextTerm.LabelLocalized}</dt>
                        <dd>${pricing.NextTerm.PricingLocalized}</dd>
                      </div>`
                    : nothing
                }
              </dl>`
            : nothing
      }
    </div>`;
  }

  #renderStatus() {
    const success = this.#success;
    const text =
      this.#phase > 2
        ? message(this, this.#phase > 3 ? 'buy.resuming' : 'buy.applying')
        : success
          ? // A purchase raises the current quantity; the service bills what goes past the included one.
            message(this, success.amountConfirmed ? 'buy.success' : 'buy.success.unconfirmed', {
              quantity: formatNumber(this, success.usage.QuantityCurrent ?? 0),
              label: this.#featureLabel(),
            })
          : '';
    return html`<div class="status" part="status" role="status">
      ${
        text
          ? html`<div
              class=${success && this.#phase < 3 ? 'outcome' : 'progress'}
              part=${success ? 'success' : 'progress'}
            >
              <p>${text}</p>
            </div>`
          : nothing
      }
    </div>`;
  }

  #renderProblem() {
    const failure = this.#failure;
    const error = failure?.error ?? this.#previewError;
    const code = error?.code ?? 'aborted';
    const page = remedyFor(code);
    const text = failure?.pending
      ? message(this, 'buy.outcome-unknown')
      : failure && code === 'upstream-error'
        ? message(this, 'buy.outcome-unverifiable')
        : errorMessage(this, code, 'error.generic');
    // A purchase's failure is retried when its outcome is unknown (same key); a preview's when
    // the way there failed, not the request itself.
    const retry = failure ? failure.pending : error?.retryable || code === 'invalid-response';
    const content =
      code === 'aborted'
        ? nothing
        : html`<div class="problem" part="error">
            <p>${text}</p>
            ${
              page
                ? html`<button
                    type="button"
                    class="secondary"
                    part="button remedy"
                    @click=${(event: Event) =>
                      void openRemedy(this, page, code, event.currentTarget as HTMLElement)}
                  >
                    ${message(this, `remedy.${page}` as MessageKey)}
                  </button>`
                : retry
                  ? html`<button
                      type="button"
                      class="secondary"
                      part="button retry"
                      @click=${this.#onRetry}
                    >
                      ${message(this, 'retry')}
                    </button>`
                  : nothing
            }
          </div>`;
    return html`<div role="alert">${content}</div>`;
  }

  #renderDialog() {
    const quote = this.#quote;
    const applying = this.#phase > 2;
    const nextTerm = quote?.pricing.NextTerm;
    // The service's breakdown of the amount (prorated units, discounts), when it gives one.
    const lines = quote?.pricing.Details?.filter((line) => line.LabelLocalized);
    const details = lines?.length
      ? html`<ul class="details" part="details">
          ${lines.map(
            (line) =>
              html`<li>
                <span>${line.LabelLocalized}</span><span>${line.PricingLocalized ?? ''}</span>
              </li>`,
          )}
        </ul>`
      : nothing;
    return html`<dialog
      part="dialog"
      aria-labelledby="dialog-title"
      aria-describedby="quote"
      aria-busy=${applying}
      @cancel=${(event: Event) => {
        // Escape while the purchase is being applied would hide its outcome: keep the dialog.
        if (this.#phase > 2) event.preventDefault();
      }}
      @close=${this.#onDialogClose}
    >
      ${
        quote
          ? html`<h2 id="dialog-title" part="dialog-title">
                <slot name="dialog-title">${message(this, 'buy.dialog.title')}</slot>
              </h2>
              <p class="summary">
                ${message(this, 'buy.dialog.summary', { quantity: formatNumber(this, quote.increment), label: this.#featureLabel() })}
              </p>
              ${
                quote.changed
                  ? html`<p class="changed" part="price-changed" role="alert">
                      ${message(this, `error.${quote.changed}`)}
                    </p>`
                  : nothing
              }
              <div id="quote" class="quote" part="quote">
                <p class="label">${quote.pricing.LabelLocalized}</p>
                <p class="amount" part="amount">${quote.pricing.PricingLocalized}</p>
                ${details}
                ${
                  nextTerm
                    ? html`<p class="next-term" part="next-term">
                        ${nextTerm.LabelLocalized} <strong>${nextTerm.PricingLocalized}</strong>
                      </p>`
                    : nothing
                }
              </div>
              <div class="actions">
                <button
                  type="button"
                  class="secondary"
                  part="button cancel"
                  aria-disabled=${applying}
                  @click=${() => this.#phase < 3 && this.#dialog.close()}
                >
                  <slot name="cancel-label">${message(this, 'buy.dialog.cancel')}</slot>
                </button>
                <button
                  type="button"
                  class="primary"
                  part="button confirm"
                  aria-disabled=${applying}
                  aria-busy=${applying}
                  @click=${() =>
                    // Only the first click of a double click gets past this test.
                    this.#phase === 2 && this.#apply(this.#quote!)}
                >
                  <slot name="confirm-label">${message(this, 'buy.dialog.confirm')}</slot>
                </button>
              </div>`
          : nothing
      }
    </dialog>`;
  }

  override render() {
    const busy = (this.#phase & 1) === 1;
    return html`
      <form part="form" novalidate aria-busy=${busy} @submit=${this.#onSubmit}>
        ${this.#renderQuantity(busy)} ${this.#renderPrice()}
        <button
          type="submit"
          class="primary"
          part="button buy"
          aria-disabled=${busy || !this.#canBuy()}
        >
          <slot name="buy-label">${message(this, 'buy.buy')}</slot>
        </button>
      </form>
      ${this.#renderStatus()} ${this.#renderProblem()} ${this.#renderDialog()}
    `;
  }
}

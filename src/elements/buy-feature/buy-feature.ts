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
import { formatNumber, localeOf, message, type MessageKey } from '../../client/i18n.js';
import { remedyFor } from '../../client/portal.js';
import { getProxyClient } from '../../client/proxy-client.js';
import { getUsageStore } from '../../client/usage-store.js';
import { defineElement } from '../shared/define.js';
import { openRemedy } from '../shared/remedy.js';
import { LatestTask, type LatestTaskState } from './latest-task.js';
import { registerBuyFeatureMessages } from './messages.js';
import {
  createPendingPurchase,
  purchaseRequestOf,
  readPendingPurchase,
  settlePendingPurchase,
  type PendingPurchase,
} from './pending-purchase.js';
import { refusalOf } from './remedies.js';
import { buyFeatureStyles } from './styles.js';

interface PreviewArgs {
  endpoint: string;
  feature: string;
  increment: number;
}

/** The price the dialog asks the user to confirm. */
interface Quote {
  increment: number;
  pricing: PricingResponse;
  /** True when the service's price differs from the one the user was last shown. */
  changed: boolean;
}

/** A failure of the purchase itself (the preview's failures live in the preview's state). */
interface PurchaseFailure {
  error: BillingError;
  /** Set when the outcome is unknown: a retry re-sends this very request, same key. */
  pending?: PendingPurchase;
  /** The proxy could not tell whether it was applied and will not try again: check the usage. */
  unverifiable?: boolean;
  /** A resumed purchase whose customer could not be checked yet: a retry checks first. */
  verify?: boolean;
}

/** 0 idle, 1 preparing, 2 confirming, 3 applying: numbers ship shorter than words. */
type Phase = 0 | 1 | 2 | 3;

/**
 * Lets the signed-in customer buy more of a metered feature: a quantity control, a live
 * preview of the price, a confirmation dialog showing the service's price, and a purchase
 * that is applied at most once whatever the retries, double clicks or reloads.
 *
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
 * @csspart quantity - The quantity control: label, stepper and hints.
 * @csspart label - The quantity's label.
 * @csspart stepper - The frame around the quantity input and its buttons.
 * @csspart input - The quantity input.
 * @csspart decrease - The "decrease quantity" button (also `button`).
 * @csspart increase - The "increase quantity" button (also `button`).
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

  readonly #preview = new LatestTask<PreviewArgs, PricingResponse>(this, (args, signal) =>
    getProxyClient(args.endpoint).getPricing(
      { feature: args.feature, increment: args.increment },
      signal,
    ),
  );
  #phase: Phase = 0;
  #quote: Quote | undefined;
  #success: Usage | undefined;
  #failure: PurchaseFailure | undefined;
  #resuming = false;
  /** The quantity input holds text that is not an allowed quantity. */
  #invalid = false;
  /** Whether to say so (not while the field is merely empty). */
  #invalidShown = false;
  /** The preview state last seen by `updated`, to report each preview error once. */
  #reportedPreview: LatestTaskState<PreviewArgs, PricingResponse> | undefined;
  /** The feature and endpoint whose pending purchase was already looked for. */
  #resumeCheckedFor = '';
  #previewOnConnect = false;
  #unsubscribe: (() => void) | undefined;
  #returnFocus: HTMLElement | undefined;

  constructor() {
    super();
    registerBuyFeatureMessages();
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
    return typeof this.max === 'number' && Number.isFinite(this.max)
      ? this.max
      : Number.MAX_SAFE_INTEGER;
  }

  get #dialog(): HTMLDialogElement | null {
    return this.renderRoot.querySelector('dialog');
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#subscribe();
    // The preview controller drops its state on disconnect; a moved element prices again.
    if (this.hasUpdated) {
      this.#previewOnConnect = true;
      this.requestUpdate();
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('endpoint') && this.hasUpdated) this.#subscribe();
    const target = changed.has('feature') || changed.has('endpoint');
    const bounds = changed.has('min') || changed.has('max') || changed.has('step');
    if (target || bounds || changed.has('quantity') || this.#previewOnConnect) {
      // A new feature, proxy or connection prices at once; a quantity being typed waits.
      const immediate = target || !this.hasUpdated || this.#previewOnConnect;
      this.#previewOnConnect = false;
      this.#invalid = !this.#isAllowed(this.quantity);
      this.#invalidShown = this.#invalid;
      this.#schedulePreview(immediate);
    }
    if (target && this.isConnected) this.#resumePendingPurchase();
  }

  protected override updated(): void {
    const state = this.#preview.state;
    if (state !== this.#reportedPreview) {
      this.#reportedPreview = state;
      if (state.status === 'error') this.#reportError(toBillingError(state.error));
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

  /** The allowed quantity nearest to `value`. */
  #nearestAllowed(value: number): number {
    const step = this.#stepSize;
    const steps = Math.round((Math.min(Math.max(value, this.min), this.#upper) - this.min) / step);
    const snapped = this.min + steps * step;
    return snapped > this.#upper ? snapped - step : snapped;
  }

  #schedulePreview(immediate: boolean): void {
    if (!this.feature || this.#invalid || this.quantity === 0) {
      this.#preview.reset();
      return;
    }
    this.#preview.run(
      { endpoint: this.#endpoint, feature: this.feature, increment: this.quantity },
      immediate,
    );
  }

  #setQuantity(value: number): void {
    this.#success = undefined;
    if (this.#failure && !this.#failure.pending) this.#failure = undefined;
    if (value === this.quantity && this.#invalid) {
      // Back to the last valid value: the property does not change, so re-validate here.
      this.#invalid = false;
      this.#invalidShown = false;
      this.#schedulePreview(false);
    }
    this.quantity = value;
    this.requestUpdate();
  }

  #onInput(event: Event): void {
    const input = event.target as HTMLInputElement;
    const value = input.valueAsNumber;
    if (this.#isAllowed(value)) {
      this.#setQuantity(value);
      return;
    }
    // Keep what the user typed on screen, say why it cannot be priced, and show no old price.
    // An emptied field is someone about to type: no message yet.
    this.#invalid = true;
    this.#invalidShown = input.value !== '' || input.validity.badInput;
    this.#success = undefined;
    this.#preview.reset();
    this.requestUpdate();
  }

  #onDecrease(): void {
    if (this.#invalid || this.quantity > this.min) this.#stepBy(-1);
  }

  #onIncrease(): void {
    if (this.#invalid || this.quantity + this.#stepSize <= this.#upper) this.#stepBy(1);
  }

  #stepBy(direction: 1 | -1): void {
    if (this.#phase !== 0) return;
    const input = this.renderRoot.querySelector('input');
    const typed = input?.valueAsNumber ?? this.quantity;
    const from = Number.isFinite(typed) ? typed : this.quantity;
    const next = this.#nearestAllowed(
      this.#isAllowed(from) ? from + direction * this.#stepSize : from,
    );
    if (input) input.value = String(next);
    this.#setQuantity(next);
  }

  // Purchase

  async #onSubmit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this.#phase !== 0 || !this.#canBuy()) return;
    this.#phase = 1;
    this.#success = undefined;
    this.#failure = undefined;
    this.requestUpdate();
    const increment = this.quantity;
    // Typed faster than the debounce: price the current quantity now rather than wait.
    const state = await this.#preview.settled();
    this.#phase = 0;
    this.requestUpdate();
    if (state.status !== 'complete' || state.args.increment !== increment) return;
    const pricing = state.value;
    // Only the proxy can tell a change that is free overall from one that costs nothing now
    // but raises the recurring price: anything short of its explicit `false` is confirmed.
    const quote = { increment, pricing, changed: false };
    await (pricing.confirmationRequired === false && this.confirm !== 'always'
      ? this.#apply(quote)
      : this.#ask(quote));
  }

  #canBuy(): boolean {
    // While a purchase's outcome is unknown, the only way on is to learn it (retry, same key).
    const unresolved = this.#failure?.pending !== undefined;
    return (
      Boolean(this.feature) &&
      !this.#invalid &&
      this.quantity !== 0 &&
      !unresolved &&
      // Nothing can be bought without a price; a refusal's remedy or "Try again" is the way on.
      this.#preview.state.status !== 'error'
    );
  }

  /** The preview was refused for a reason only a portal workflow can fix. */
  #previewRefused(): boolean {
    const state = this.#preview.state;
    return state.status === 'error' && remedyFor(toBillingError(state.error).code) !== undefined;
  }

  /** Opens the dialog (or refreshes it) with the price to confirm. */
  async #ask(quote: Quote): Promise<void> {
    this.#quote = quote;
    this.#phase = 2;
    this.requestUpdate();
    await this.updateComplete;
    const dialog = this.#dialog;
    if (!dialog) return;
    if (!dialog.open) {
      // Nothing focused inside: the focus goes to the buy button when the dialog closes.
      this.#returnFocus = (this.shadowRoot?.activeElement as HTMLElement | null) ?? undefined;
      dialog.showModal();
    }
    // Cancel gets the focus: a stray Enter must never spend money.
    this.renderRoot.querySelector<HTMLButtonElement>('[part~="cancel"]')?.focus();
  }

  #closeDialog(): void {
    // close() does nothing on a closed dialog (no close event).
    this.#dialog?.close();
  }

  #onDialogCancel(event: Event): void {
    // Escape while the purchase is being applied would hide its outcome: keep the dialog.
    if (this.#phase === 3) event.preventDefault();
  }

  #onDialogClose(): void {
    if (this.#phase === 2) this.#phase = 0;
    if (this.#phase !== 3) this.#quote = undefined;
    const target = this.#returnFocus;
    this.#returnFocus = undefined;
    if (target?.isConnected) target.focus();
    else this.renderRoot.querySelector<HTMLElement>('[part~="buy"]')?.focus();
    this.requestUpdate();
  }

  #onCancel(): void {
    if (this.#phase === 3) return;
    this.#closeDialog();
  }

  async #onConfirm(): Promise<void> {
    // Only the first click of a double click gets past this line.
    if (this.#phase !== 2 || !this.#quote) return;
    await this.#apply(this.#quote);
  }

  /** The user confirmed `quote` (or it costs nothing): record a key, then apply. */
  async #apply(quote: Quote): Promise<void> {
    const { increment, pricing } = quote;
    const before = new BillingBeforePurchaseEvent({ feature: this.feature, increment, pricing });
    this.dispatchEvent(before);
    if (before.defaultPrevented) {
      this.#phase = 0;
      this.#closeDialog();
      this.requestUpdate();
      return;
    }
    const pending = createPendingPurchase(
      this.#endpoint,
      this.feature,
      increment,
      pricing.AmountTotal,
      pricing.ReferenceCustomer,
    );
    await this.#send(pending);
  }

  /** Sends a recorded purchase (first time, retry or resume) and shows its outcome. */
  async #send(pending: PendingPurchase): Promise<void> {
    const endpoint = this.#endpoint;
    this.#phase = 3;
    this.#failure = undefined;
    this.requestUpdate();
    let result: PurchaseResponse;
    try {
      result = await getProxyClient(endpoint).purchase(purchaseRequestOf(pending));
    } catch (caught) {
      this.#onPurchaseFailed(toBillingError(caught), pending, endpoint);
      return;
    } finally {
      this.#resuming = false;
    }
    settlePendingPurchase(endpoint, pending);
    this.#phase = 0;
    this.#success = result.usage;
    this.#closeDialog();
    this.requestUpdate();
    const store = getUsageStore(endpoint);
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
        replayed: result.replayed,
      }),
    );
    // The next purchase starts from the new quantity: its price may differ.
    this.#schedulePreview(true);
  }

  #onPurchaseFailed(error: BillingError, pending: PendingPurchase, endpoint: string): void {
    // The proxy's `upstream-error` on a purchase means it cannot tell and will never apply this
    // key again: re-sending it is pointless, and only the usage shows what happened.
    const unverifiable = error.code === 'upstream-error';
    const outcomeUnknown =
      !unverifiable &&
      (error.retryable || error.code === 'aborted' || error.code === 'invalid-response');
    if (!outcomeUnknown) settlePendingPurchase(endpoint, pending);
    this.#reportError(error);
    if (error.code === 'price-changed' && error.pricing) {
      // Nothing was applied. Show the service's new price and ask again, with a new key.
      this.#preview.set(
        { endpoint: this.#endpoint, feature: pending.feature, increment: pending.increment },
        error.pricing,
      );
      this.#phase = 0;
      void this.#ask({ increment: pending.increment, pricing: error.pricing, changed: true });
      return;
    }
    if (unverifiable) {
      getUsageStore(this.endpoint)
        .refresh()
        .catch(() => {});
    }
    this.#phase = 0;
    this.#failure = { error, ...(outcomeUnknown ? { pending } : {}), unverifiable };
    this.#closeDialog();
    this.requestUpdate();
  }

  /** A purchase confirmed earlier (before a reload, say) whose outcome is unknown: learn it. */
  #resumePendingPurchase(): void {
    const checked = `${this.#endpoint}#${this.feature}`;
    if (!this.feature || this.#resumeCheckedFor === checked || this.#phase !== 0) return;
    this.#resumeCheckedFor = checked;
    const pending = readPendingPurchase(this.#endpoint, this.feature);
    if (pending) this.#startResume(pending);
  }

  #startResume(pending: PendingPurchase): void {
    this.#resuming = true;
    this.#phase = 3;
    this.requestUpdate();
    void this.#resume(pending);
  }

  async #resume(pending: PendingPurchase): Promise<void> {
    const endpoint = this.#endpoint;
    // The same tab may now belong to another customer: never apply their predecessor's purchase.
    let customer: string | undefined;
    let failure: PurchaseFailure | undefined;
    try {
      customer = await this.#currentCustomer();
    } catch (caught) {
      // Who is signed in cannot be told right now: keep the key, let "Try again" check again.
      failure = { error: toBillingError(caught), pending, verify: true };
    }
    if (!failure) {
      if (!pending.customer || !customer || pending.customer === customer) {
        await this.#send(pending);
        return;
      }
      settlePendingPurchase(endpoint, pending);
    }
    this.#resuming = false;
    this.#phase = 0;
    if (failure) this.#failure = failure;
    this.requestUpdate();
  }

  /** The signed-in customer's reference, as the price preview or else the usages tell it. */
  async #currentCustomer(): Promise<string | undefined> {
    const state = await this.#preview.settled();
    if (state.status === 'complete' && state.value.ReferenceCustomer) {
      return state.value.ReferenceCustomer;
    }
    // Priced nothing (refused, say): ask the proxy directly, not a cache of another session.
    const { usages } = await getProxyClient(this.#endpoint).getUsages();
    return usages.find((usage) => usage.ReferenceCustomer)?.ReferenceCustomer;
  }

  #onRetry(): void {
    const failure = this.#failure;
    if (failure?.pending) {
      if (!failure.verify) {
        void this.#send(failure.pending);
        return;
      }
      this.#failure = undefined;
      this.#schedulePreview(true);
      this.#startResume(failure.pending);
      return;
    }
    this.#failure = undefined;
    this.#schedulePreview(true);
  }

  // Errors and remedies

  #reportError(error: BillingError): void {
    if (error.code === 'aborted') return;
    const remedy = remedyFor(error.code);
    this.dispatchEvent(
      new BillingErrorEvent({ error, feature: this.feature, ...(remedy ? { remedy } : {}) }),
    );
  }

  #subscribe(): void {
    this.#unsubscribe?.();
    // After a remedy's workflow completes the usages refresh: price again, the refusal may be gone.
    this.#unsubscribe = getUsageStore(this.endpoint).subscribe(() => {
      const purchaseRefused = this.#failure && remedyFor(this.#failure.error.code) !== undefined;
      if (this.#phase !== 0 || !(this.#previewRefused() || purchaseRefused)) return;
      this.#failure = undefined;
      this.#schedulePreview(true);
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
    const hasMax = upper !== Number.MAX_SAFE_INTEGER;
    const atMin = !this.#invalid && this.quantity <= this.min;
    const atMax = !this.#invalid && this.quantity + this.#stepSize > upper;
    // One set of figures for the range and the invalid message (a text ignores what it lacks).
    const vars = {
      min: formatNumber(this, this.min),
      max: formatNumber(this, upper),
      step: formatNumber(this, this.#stepSize),
    };
    const stepped = this.#stepSize > 1;
    const describedBy = `${hasMax ? 'range' : ''} ${this.#invalidShown ? 'invalid' : ''}`.trim();
    // Buttons use aria-disabled, not disabled: they keep the keyboard focus while unavailable.
    return html`
      <div class="quantity" part="quantity">
        <label part="label" for="quantity"
          ><slot name="label">${message(this, 'buy.quantity')}</slot></label
        >
        <div class="stepper" part="stepper" ?data-invalid=${this.#invalidShown}>
          <button
            type="button"
            part="button decrease"
            aria-label=${message(this, 'buy.decrease')}
            aria-disabled=${String(busy || atMin)}
            @click=${this.#onDecrease}
          >
            −
          </button>
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
            aria-invalid=${String(this.#invalidShown)}
            aria-describedby=${describedBy || nothing}
            @input=${this.#onInput}
          />
          <button
            type="button"
            part="button increase"
            aria-label=${message(this, 'buy.increase')}
            aria-disabled=${String(busy || atMax)}
            @click=${this.#onIncrease}
          >
            +
          </button>
        </div>
        ${hasMax ? html`<span id="range" class="hint" part="hint">${message(this, 'buy.range', vars)}</span>` : nothing}
      </div>
      ${
        this.#invalidShown
          ? html`<p id="invalid" class="invalid" part="invalid" role="alert">
              ${message(
                this,
                hasMax
                  ? stepped
                    ? 'buy.invalid.step'
                    : 'buy.invalid'
                  : stepped
                    ? 'buy.invalid.min-step'
                    : 'buy.invalid.min',
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
    let content: unknown = nothing;
    if (pending) {
      content = html`<div class="bars" aria-hidden="true">
          <span class="skeleton"></span><span class="skeleton"></span>
        </div>
        <span class="visually-hidden">${message(this, 'buy.calculating')}</span>`;
    } else if (state.status === 'complete') {
      const pricing = state.value;
      content = html`<dl>
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
      </dl>`;
    }
    return html`<div class="price" part="price" aria-live="polite" aria-busy=${String(pending)}>
      ${content}
    </div>`;
  }

  #renderStatus() {
    let text = '';
    if (this.#phase === 3) text = message(this, this.#resuming ? 'buy.resuming' : 'buy.applying');
    else if (this.#success) {
      // A purchase raises the current quantity; the service bills what goes past the included one.
      text = message(this, 'buy.success', {
        quantity: formatNumber(this, this.#success.QuantityCurrent ?? 0),
        label: this.#featureLabel(),
      });
    }
    return html`<div class="status" part="status" role="status">
      ${
        text
          ? html`<div
              class=${this.#success && this.#phase !== 3 ? 'outcome' : 'progress'}
              part=${this.#success ? 'success' : 'progress'}
            >
              <p>${text}</p>
            </div>`
          : nothing
      }
    </div>`;
  }

  #renderProblem() {
    const previewState = this.#preview.state;
    const failure = this.#failure;
    const error =
      failure?.error ??
      (previewState.status === 'error' ? toBillingError(previewState.error) : undefined);
    let content: unknown = nothing;
    if (error && error.code !== 'aborted') {
      const refusal = refusalOf(error, localeOf(this));
      const text = message(
        this,
        failure?.pending
          ? 'buy.outcome-unknown'
          : failure?.unverifiable
            ? 'buy.outcome-unverifiable'
            : refusal.text,
      );
      content = html`<div class="problem" part="error">
        <p>${text}</p>
        ${
          refusal.page
            ? html`<button
                type="button"
                class="secondary"
                part="button remedy"
                @click=${(event: Event) =>
                  void openRemedy(
                    this,
                    refusal.page!,
                    error.code,
                    event.currentTarget as HTMLElement,
                  )}
              >
                ${message(this, `remedy.${refusal.page}` as MessageKey)}
              </button>`
            : failure?.pending || (refusal.retry && !failure?.unverifiable)
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
    }
    return html`<div role="alert">${content}</div>`;
  }

  #renderDialog() {
    const quote = this.#quote;
    const applying = this.#phase === 3;
    const nextTerm = quote?.pricing.NextTerm;
    return html`<dialog
      part="dialog"
      aria-labelledby="dialog-title"
      aria-describedby="quote"
      aria-busy=${String(applying)}
      @cancel=${this.#onDialogCancel}
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
                      ${message(this, 'error.price-changed')}
                    </p>`
                  : nothing
              }
              <div id="quote" class="quote" part="quote">
                <p class="label">${quote.pricing.LabelLocalized}</p>
                <p class="amount" part="amount">${quote.pricing.PricingLocalized}</p>
                ${this.#renderDetails(quote.pricing)}
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
                  aria-disabled=${String(applying)}
                  @click=${this.#onCancel}
                >
                  <slot name="cancel-label">${message(this, 'buy.dialog.cancel')}</slot>
                </button>
                <button
                  type="button"
                  class="primary"
                  part="button confirm"
                  aria-disabled=${String(applying)}
                  aria-busy=${String(applying)}
                  @click=${this.#onConfirm}
                >
                  <slot name="confirm-label">${message(this, 'buy.dialog.confirm')}</slot>
                </button>
              </div>`
          : nothing
      }
    </dialog>`;
  }

  /** The service's breakdown of the amount (prorated units, discounts), when it gives one. */
  #renderDetails(pricing: PricingResponse) {
    const lines = (pricing.Details ?? []).filter((line) => line.LabelLocalized);
    if (lines.length === 0) return nothing;
    return html`<ul class="details" part="details">
      ${lines.map(
        (line) =>
          html`<li>
            <span>${line.LabelLocalized}</span><span>${line.PricingLocalized ?? ''}</span>
          </li>`,
      )}
    </ul>`;
  }

  override render() {
    const busy = this.#phase === 1 || this.#phase === 3;
    const canBuy = this.#canBuy();
    return html`
      <form part="form" novalidate aria-busy=${String(busy)} @submit=${this.#onSubmit}>
        ${this.#renderQuantity(busy)} ${this.#renderPrice()}
        <button
          type="submit"
          class="primary"
          part="button buy"
          aria-disabled=${String(busy || !canBuy)}
        >
          <slot name="buy-label">${message(this, 'buy.buy')}</slot>
        </button>
      </form>
      ${this.#renderStatus()} ${this.#renderProblem()} ${this.#renderDialog()}
    `;
  }
}

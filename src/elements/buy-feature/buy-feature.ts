import { LitElement, html, nothing, type PropertyValues } from 'lit';
import type { PricingResponse } from '../../contract/proxy-api.js';
import { resolveEndpoint } from '../../client/config.js';
import { toBillingError, type BillingError } from '../../client/errors.js';
import {
  followLang,
  formatNumber,
  languageOf,
  message,
  registerTexts,
  type Language,
} from '../../client/i18n.js';
import { getProxyClient } from '../../client/proxy-client.js';
import { getUsageStore } from '../../client/usage-store.js';
import { defineElement } from '../shared/define.js';
import { warnOnce } from '../shared/warn.js';
import { LatestTask } from './latest-task.js';
import { buyTexts } from './messages.js';
import { problemRegion, statusRegion } from './outcome-templates.js';
import { previewLines, quoteBlock } from './price-templates.js';
import { PurchaseController, type Quote } from './purchase-controller.js';
import { QuantityRange } from './quantity-range.js';
import { explainRefusal, quantityRefusal, setupHint, type RefusalContext } from './refusal.js';
import { buyFeatureStyles } from './styles.js';
import { countedSentence, type FeatureNames } from './wording.js';

/**
 * What the quantity field holds: an allowed quantity, nothing (emptied by someone about to
 * type: no message yet), or text that is not an allowed quantity (it says why).
 */
type QuantityEntry = 'allowed' | 'empty' | 'invalid';

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
 * @event billing-purchase - {BillingPurchaseEvent} The purchase was applied. `detail: { feature, increment, usage, amountTotal, amountConfirmed, replayed }`.
 * @event billing-error - {BillingErrorEvent} The price or the purchase was refused or failed. `detail: { error, feature, remedy }` (`error.code`, `error.message`).
 * @event billing-remedy - {BillingRemedyEvent} The user asked for the portal workflow that remedies a refusal; `preventDefault()` to open it yourself. `detail: { page, code, feature }`.
 *
 * @attribute theme - `light` or `dark` forces a color scheme; unset, the page's `color-scheme` (see Theming).
 *
 * @csspart form - The grid of the quantity control, the price and the buy button.
 * @csspart quantity - The quantity control's group (label, input and hint), laid out by the form's grid.
 * @csspart label - The quantity's label.
 * @csspart input - The quantity input.
 * @csspart hint - The row under the quantity (always there, so nothing moves): the allowed range, or why Buy is unavailable for an empty quantity.
 * @csspart invalid - The message shown in that row for a quantity out of range.
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
 * @csspart split - The dialog's line telling how much of the quantity the plan includes ("2 included · 1 extra").
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
 * @cssproperty --billing-focus-color - The focus ring's colour (an outline 2px away from the control; the accent).
 * @cssproperty --billing-focus-ring - A box-shadow added to the focus ring (none).
 * @cssproperty --billing-color-scheme - `light` or `dark` forces a color scheme, as `theme` does.
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
    labelOne: { attribute: 'label-one' },
    endpoint: {},
  };

  /**
   * Registers the element under `tag`. Does nothing when this class already holds the tag, so
   * loading the library twice does not throw; a tag held by another copy of the library is kept.
   */
  static define(tag = 'buy-feature', registry: CustomElementRegistry = customElements): void {
    defineElement(tag, this, registry);
  }

  readonly #preview = new LatestTask<number, PricingResponse>(this, async (increment, signal) => {
    // The feature, proxy and language of the moment: a change of any starts a new run at once.
    const asked = { endpoint: this.#endpoint, feature: this.feature, increment, signal };
    try {
      return await getProxyClient(asked.endpoint).getPricing(
        { feature: asked.feature, increment },
        signal,
        this.#language,
      );
    } catch (caught) {
      const error = await explainRefusal(toBillingError(caught), asked);
      this.#hintSetup(error, asked);
      throw error;
    }
  });

  readonly #purchase = new PurchaseController(this, {
    preview: this.#preview,
    reprice: () => this.#schedulePreview(true),
    refreshPrice: () => this.#schedulePreview(true, { keepShown: true }),
    openDialog: () => this.#openDialog(),
    closeDialog: () => this.#dialog.close(),
  });

  get #dialog(): HTMLDialogElement {
    return this.renderRoot.querySelector('dialog')!;
  }

  get #cancelButton(): HTMLButtonElement {
    return this.renderRoot.querySelector('[part~="cancel"]')!;
  }

  get #buyButton(): HTMLButtonElement {
    return this.renderRoot.querySelector('[part~="buy"]')!;
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
  /** The feature's name for several units, in the customer's words ("seats"), used in sentences ("Add 3 seats"); without it, sentences name the usage's `TitleLocalized`, else the reference ("Seats: 3 more"). */
  declare label: string;
  /** The feature's name for one unit ("seat"): with `label`, sentences agree with their number (Intl.PluralRules: "Add 1 seat"). */
  declare labelOne: string;
  /** The billing proxy for this element, overriding the page's `configureBilling({ endpoint })`. */
  declare endpoint: string | undefined;

  #quantityEntry: QuantityEntry = 'allowed';
  /** Where the focus goes back when the dialog closes: what had it when the dialog opened. */
  #returnFocus: HTMLElement | null = null;
  /** The language the price is asked in (the service's own lines come in it): the element's. */
  #language: Language = 'en';

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
    this.labelOne = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // The preview drops its state on disconnect: a moved element subscribes and prices again at
    // once, as for a new proxy.
    if (this.hasUpdated) this.requestUpdate('endpoint', NaN);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // The first update has `feature` (set in the constructor).
    const retargeted = changed.has('feature') || changed.has('endpoint');
    // A `lang` change in the page (followLang) asks for the price again: the service's lines are
    // in the language they were asked in.
    const language = languageOf(this);
    const relanguaged = language !== this.#language;
    this.#language = language;
    const quantityProperties = ['quantity', 'min', 'max', 'step'] as const;
    if (retargeted || quantityProperties.some((name) => changed.has(name))) {
      this.#quantityEntry = this.#range.allows(this.quantity) ? 'allowed' : 'invalid';
      // A new feature, proxy or connection prices at once; a quantity being typed waits.
      this.#schedulePreview(retargeted);
    } else if (relanguaged && this.#preview.state.status !== 'idle') {
      this.#schedulePreview(true);
    }
    if (retargeted && this.isConnected) this.#purchase.retarget();
  }

  /** The proxy this element talks to. */
  get #endpoint(): string {
    return resolveEndpoint(this.endpoint);
  }

  /** The quantities the control allows, from `min`, `max` and `step`. */
  get #range(): QuantityRange {
    return new QuantityRange(this.min, this.max, this.step);
  }

  #schedulePreview(immediate: boolean, options?: { keepShown: boolean }): void {
    const priceable = this.feature && this.#quantityEntry === 'allowed' && this.quantity !== 0;
    if (priceable) this.#preview.run(this.quantity, immediate, options);
    else this.#preview.reset();
  }

  #onInput(event: Event): void {
    const input = event.target as HTMLInputElement;
    const value = input.valueAsNumber;
    if (this.#range.allows(value)) {
      // The last outcome goes with the old quantity.
      this.#purchase.quantityChanged();
      this.quantity = value;
      // Back to the last valid value after an invalid one, the property does not change: it is
      // marked changed, to be checked and priced again.
      if (this.#quantityEntry === 'allowed') this.requestUpdate();
      else this.requestUpdate('quantity', NaN);
      return;
    }
    // Keep what the user typed on screen, say why it cannot be priced, and show no old price.
    this.#quantityEntry = input.value === '' && !input.validity.badInput ? 'empty' : 'invalid';
    this.#purchase.forgetSuccess();
    this.#preview.reset();
  }

  /** Tells the integrator, once, a refusal that the page's setup causes. */
  #hintSetup(error: BillingError, refused: RefusalContext): void {
    if (error.code !== 'validation') return;
    const type = getUsageStore(refused.endpoint).get(refused.feature)?.TypeFeature;
    warnOnce(setupHint(quantityRefusal(error, refused.increment, type), error, refused));
  }

  #onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    void this.#purchase.buy(this.quantity);
  }

  /** Opens the dialog on the quote, or refreshes it, the focus on Cancel. */
  async #openDialog(): Promise<void> {
    await this.updateComplete;
    const dialog = this.#dialog;
    if (!dialog.open) {
      // Nothing focused inside: the focus goes to the buy button when the dialog closes.
      this.#returnFocus = this.shadowRoot!.activeElement as HTMLElement | null;
      dialog.showModal();
    }
    // Cancel gets the focus: a stray Enter must never spend money.
    this.#cancelButton.focus();
  }

  #onDialogCancel(event: Event): void {
    // Escape while the purchase is being applied would hide its outcome: keep the dialog.
    if (this.#purchase.underWay) event.preventDefault();
  }

  #onDialogClose(): void {
    this.#purchase.dialogClosed();
    const returnTo = this.#returnFocus?.isConnected ? this.#returnFocus : this.#buyButton;
    returnTo.focus();
  }

  #onCancelClick(): void {
    if (!this.#purchase.underWay) this.#dialog.close();
  }

  #onConfirmClick(): void {
    void this.#purchase.confirm();
  }

  /** The feature's names: the host's words, else the service's title, else the reference. */
  #featureNames(): FeatureNames {
    const title =
      this.label || getUsageStore(this.endpoint).get(this.feature)?.TitleLocalized || this.feature;
    return { one: this.labelOne, other: this.label, title };
  }

  /**
   * How much of the quantity the plan includes, when part of it is: what is left of the plan by
   * the usage store, which the purchase's price was quoted against. Nothing when all of it is
   * extra or all included (the summary and the amount say it all), or when it cannot be told.
   */
  #split({ increment }: Quote): string | undefined {
    const left = getUsageStore(this.endpoint).remaining(this.feature) ?? 0;
    const included = Math.min(increment, left);
    if (included <= 0 || included === increment) return undefined;
    return message(this, 'buy.dialog.split', {
      included: formatNumber(this, included),
      extra: formatNumber(this, increment - included),
    });
  }

  #renderQuantity(busy: boolean) {
    const range = this.#range;
    const entry = this.#quantityEntry;
    // One set of figures for the range and the invalid message (a text ignores what it lacks).
    const figures = {
      min: formatNumber(this, range.min),
      max: formatNumber(this, range.max),
      step: formatNumber(this, range.step),
    };
    // The row under the input is always there, so that a message appearing in it moves nothing:
    // why the quantity cannot be bought, why Buy waits for one, or the allowed range.
    let hint: unknown = nothing;
    if (entry === 'invalid') {
      hint = html`<p id="invalid" class="invalid" part="invalid" role="alert">
        ${message(this, range.invalidMessage, figures)}
      </p>`;
    } else if (entry === 'empty') {
      hint = html`<p id="empty" part="hint">${message(this, 'buy.empty')}</p>`;
    } else if (range.hasMax) {
      hint = html`<p id="range" part="hint">${message(this, 'buy.range', figures)}</p>`;
    }
    const describedBy = entry !== 'allowed' ? entry : range.hasMax ? 'range' : nothing;
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
          min=${range.min}
          max=${range.hasMax ? range.max : nothing}
          step=${range.step}
          ?readonly=${busy}
          aria-invalid=${entry === 'invalid'}
          aria-describedby=${describedBy}
          @input=${this.#onInput}
        />
        <div class="hint">${hint}</div>
      </div>
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
      content = previewLines(this, state.value, state.args);
    }
    return html`<div
      class="price"
      part="price"
      data-state=${state.status}
      aria-live="polite"
      aria-busy=${pending}
    >
      ${content}
    </div>`;
  }

  #renderQuote() {
    const quote = this.#purchase.quote;
    if (!quote) return nothing;
    const summary = countedSentence(
      this,
      quote.increment,
      this.#featureNames(),
      'buy.dialog.summary',
      'buy.dialog.summary.named',
      formatNumber(this, quote.increment),
    );
    const split = this.#split(quote);
    const applying = this.#purchase.underWay;
    return html`<h2 id="dialog-title" part="dialog-title">
        <slot name="dialog-title">${message(this, 'buy.dialog.title')}</slot>
      </h2>
      <p class="summary">${summary}</p>
      ${split ? html`<p class="split" part="split">${split}</p>` : nothing}
      ${
        quote.changed
          ? html`<p class="changed" part="price-changed" role="alert">
              ${message(this, `error.${quote.changed}`)}
            </p>`
          : nothing
      }
      ${quoteBlock(this, quote.pricing, quote.increment)}
      <div class="actions">
        <button
          type="button"
          class="secondary"
          part="button cancel"
          aria-disabled=${applying}
          @click=${this.#onCancelClick}
        >
          <slot name="cancel-label">${message(this, 'buy.dialog.cancel')}</slot>
        </button>
        <button
          type="button"
          class="primary"
          part="button confirm"
          aria-disabled=${applying}
          aria-busy=${applying}
          @click=${this.#onConfirmClick}
        >
          <slot name="confirm-label">${message(this, 'buy.dialog.confirm')}</slot>
        </button>
      </div>`;
  }

  override render() {
    const { busy, underWay, canBuy } = this.#purchase;
    const entry = this.#quantityEntry;
    const names = this.#featureNames();
    return html`
      <div class="layout">
        <form part="form" novalidate aria-busy=${busy} @submit=${this.#onSubmit}>
          ${this.#renderQuantity(busy)} ${this.#renderPrice()}
          <button
            type="submit"
            class="primary"
            part="button buy"
            aria-disabled=${busy || !canBuy}
            aria-describedby=${entry === 'allowed' ? nothing : entry}
          >
            <slot name="buy-label">${message(this, 'buy.buy')}</slot>
          </button>
        </form>
      </div>
      ${statusRegion(this, this.#purchase, names)} ${problemRegion(this, this.#purchase, names)}
      <dialog
        part="dialog"
        aria-labelledby="dialog-title"
        aria-describedby="quote"
        aria-busy=${underWay}
        @cancel=${this.#onDialogCancel}
        @close=${this.#onDialogClose}
      >
        ${this.#renderQuote()}
      </dialog>
    `;
  }
}

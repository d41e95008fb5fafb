import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { PricingResponse } from '../../contract/proxy-api.js';
import { resolveEndpoint } from '../../client/config.js';
import { BillingError, toBillingError } from '../../client/errors.js';
import {
  followLang,
  formatNumber,
  hasMessage,
  languageOf,
  message,
  registerTexts,
  type Language,
} from '../../client/i18n.js';
import { registerSharedTexts } from '../../client/shared-texts.js';
import { getProxyClient } from '../../client/proxy-client.js';
import { getUsageStore, isUnlimited } from '../../client/usage-store.js';
import { billingOf } from './priced-against.js';
import { SuggestedPlanLookup } from '../shared/suggested-plan-lookup.js';
import { ConfirmDialog, confirmContent, type ConfirmView } from '../shared/confirm-dialog.js';
import { CallToAction, type Remedy } from '../shared/call-to-action.js';
import { remedyPointer } from '../shared/remedy-pointer.js';
import { defineElement } from '../shared/define.js';
import { warnOnce } from '../shared/warn.js';
import type { ChangeView } from '../shared/change-flow.js';
import { AddOnController } from './add-on-controller.js';
import { addOnConfirmation, addOnPanel, addOnProblem, addOnStatus } from './add-on-templates.js';
import { DecreaseController } from './decrease-controller.js';
import {
  decreaseConfirmation,
  decreaseProblem,
  decreaseRow,
  decreaseStatus,
} from './decrease-templates.js';
import { LatestTask } from '../shared/latest-task.js';
import { buyTexts } from './messages.js';
import {
  problemRegion,
  purchaseStatus,
  remedyOf,
  type ProblemCallToAction,
} from './outcome-templates.js';
import { revealOutcome } from '../shared/status.js';
import { priceRegion, pricingQuote } from './price-templates.js';
import {
  readScheduledChange,
  withScheduledChange,
  type ScheduledChange,
} from './scheduled-change.js';
import { PurchaseController, type Quote } from './purchase-controller.js';
import { QuantityRange } from './quantity-range.js';
import {
  explainRefusal,
  learnPerPurchaseLimit,
  perPurchaseLimit,
  quantityRefusal,
  refusalHint,
  type RefusalContext,
} from './refusal.js';
import { changeStyles } from '../shared/change-styles.js';
import { decreaseStyles } from './decrease-styles.js';
import { capitalized, countedSentence, unitPriceSentence, type FeatureNames } from './wording.js';

/**
 * What the quantity field holds: an allowed quantity, nothing (emptied by someone about to
 * type: no message yet), or text that is not an allowed quantity (it says why).
 */
type QuantityEntry = 'allowed' | 'empty' | 'invalid';

/**
 * What the element shows, as the usages say: an on/off feature's add-on (`add-on`), unlimited
 * access with nothing to buy (`unlimited`), or a quantity to buy, and with `allow-decrease` to
 * remove (`quantity`).
 */
type Mode = 'add-on' | 'unlimited' | 'quantity';

/**
 * Lets the signed-in customer buy more of a metered feature: a quantity control, a live
 * preview of the price, a confirmation dialog showing the service's price, and a purchase
 * that is applied at most once whatever the retries, double clicks or reloads.
 *
 * On an on/off feature it is the feature's add-on ("Add Priority support"): the price of adding
 * it (now and per period), or of removing a bought one (the new recurring price), confirmed in
 * the same dialog and applied at most once; a feature the plan includes says so, and one not sold
 * separately names a plan that includes it and opens the plans.
 *
 * With `allow-decrease`, a Limitation the customer owns can also be lowered by the quantity
 * chosen ("Remove 2 seats"), never below what the page says is in use (`in-use`), else the
 * plan's included quantity, never below 0. Its confirmation says what changes now (the new
 * quantity; nothing is credited for the current period) and the new recurring price, and it is
 * applied at most once, as a purchase is.
 *
 * @tag buy-feature
 * @summary Buy more of a feature after confirming the price.
 *
 * @slot label - The quantity control's label. Default: "Quantity".
 * @slot buy-label - The text of the buy button. Default: "Buy" ("Add {feature}" or "Remove {feature}" on an on/off feature).
 * @slot dialog-title - The title of the confirmation dialog. Default: "Confirm your purchase".
 * @slot confirm-label - The text of the dialog's confirm button. Default: what it does: "Pay {amount} and add" when something is due now, else the purchase ("Add 3 seats"); for an add-on "Remove {label}" (in the critical colour, part `destructive`) or "Add {label}".
 * @slot cancel-label - The text of the dialog's cancel button. Default: "Cancel".
 * @slot remove-label - With `allow-decrease`: the text of the Remove button. Default: what it removes ("Remove 2 seats").
 *
 * @event billing-before-purchase - {BillingBeforePurchaseEvent} A confirmed purchase is about to be applied; `preventDefault()` stops it. `detail: { feature, increment, pricing }`.
 * @event billing-purchase - {BillingPurchaseEvent} The purchase was applied. `detail: { feature, increment, usage, amountTotal, amountConfirmed, replayed }`.
 * @event billing-error - {BillingErrorEvent} The price or the purchase was refused or failed. `detail: { error, feature, remedy }` (`error.code`, `error.message`).
 * @event billing-before-add-on-change - {BillingBeforeAddOnChangeEvent} On an on/off feature: a confirmed addition or removal is about to be applied; `preventDefault()` stops it. `detail: { feature, enabled, pricing }`.
 * @event billing-add-on-change - {BillingAddOnChangeEvent} On an on/off feature: the add-on was added (`enabled: true`) or removed. `detail: { feature, enabled, usage, amountTotal, nextTermAmountTotal, replayed }`.
 * @event billing-before-decrease - {BillingBeforeDecreaseEvent} With `allow-decrease`: a confirmed decrease is about to be applied; `preventDefault()` stops it. `detail: { feature, quantity, pricing }` (`quantity` is the new, lower quantity).
 * @event billing-decrease - {BillingDecreaseEvent} With `allow-decrease`: the feature was lowered. `detail: { feature, quantity, usage, amountTotal, nextTermAmountTotal, replayed }` (`amountTotal` 0: nothing is given back now).
 * @event billing-remedy - {BillingRemedyEvent} The user asked for the portal workflow that remedies a refusal; `preventDefault()` to open it yourself. `detail: { page, code, feature, offer }` (`offer`: the plan a suggested switch moves to).
 *
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
 * @csspart waits - Instead of the refusal, when another element of the page region offers its remedy: what the control waits for ("Paused while your subscription is suspended.") and the pointer.
 * @csspart unit-price - While the service cannot quote a price (no payment method yet), the plan's price per unit ("Seats: $10.00 / month each beyond the 5 included."), above the remedy.
 * @csspart pointer - The "See what to do" link that brings the element offering the remedy into view.
 * @csspart retry - The "try again" button (also `button`).
 * @csspart unlimited - The sentence shown instead of the form when the plan gives unlimited access to the feature ("Seats: unlimited in your plan, nothing to buy.").
 * @csspart add-on - On an on/off feature, the add-on's panel (`data-standing`: `unknown`, `available`, `owned`, `included`, `elsewhere`, `refused`).
 * @csspart add-on-text - The sentence that says where the add-on stands (owned, included, or the plan that includes it).
 * @csspart add - The "Add {feature}" button (also `button` and `buy`).
 * @csspart remove - The "Remove {feature}" button of a bought add-on, or with `allow-decrease` the "Remove 2 seats" button (also `button`).
 * @csspart decrease - With `allow-decrease`, the row under the form: how many can be removed, and the Remove button.
 * @csspart decrease-text - Its sentence ("Seats: you have 7, and can remove up to 2.").
 * @csspart see-plans - The "See plans" button of a feature not sold separately (also `button`).
 * @csspart dialog - The confirmation dialog.
 * @csspart dialog-title - The dialog's title.
 * @csspart price-changed - The dialog's notice that the price changed since it was shown.
 * @csspart quote - The dialog's price block.
 * @csspart split - The dialog's line telling how much of the quantity the plan includes ("2 included · 1 extra").
 * @csspart amount - The immediate price, in large type.
 * @csspart details - The service's breakdown of the immediate price, under it.
 * @csspart next-term - The next-term label and price under it.
 * @csspart next-term-note - Under it, when it is above the card's price: it also counts the use beyond what the plan includes.
 * @csspart effective - In a removal's confirmation: the add-on ends now and what was billed is not refunded.
 * @csspart taxes - At the end of the dialog's price block, when the proxy's `taxes` option says it: "Prices include tax." or "Prices exclude tax: it is added on the invoice."
 * @csspart confirm - The confirm button (also `button`).
 * @csspart destructive - The confirm button of a removal, in the critical colour (also `button` and `confirm`).
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
  static override styles = [changeStyles, decreaseStyles];

  static {
    registerSharedTexts();
    registerTexts(buyTexts, { fr: () => import('./messages.fr.js') });
  }

  static override properties = {
    theme: { reflect: true },
    feature: { reflect: true },
    quantity: { type: Number },
    min: { type: Number },
    max: { type: Number },
    step: { type: Number },
    confirm: {},
    label: {},
    labelOne: { attribute: 'label-one' },
    endpoint: {},
    allowDecrease: { type: Boolean, attribute: 'allow-decrease' },
    inUse: { type: Number, attribute: 'in-use' },
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
    // The usages say whether the feature has a quantity at all: an on/off feature is never
    // priced by quantity (a refusal the console would show on every load), it is an add-on.
    // They are read once per session and shared with the page's meters; unreadable usages
    // leave the decision to the proxy's answer, as below.
    await getUsageStore(asked.endpoint)
      .load()
      .catch(() => undefined);
    if (this.#isOnOff(asked.endpoint, asked.feature)) {
      this.requestUpdate();
      throw new BillingError('aborted', 'An on/off feature is bought as an add-on.');
    }
    if (this.#isUnlimitedIn(asked.endpoint, asked.feature)) {
      // Nothing to buy: the element says so (it updates), and no $0 price is asked for.
      this.requestUpdate();
      throw new BillingError('aborted', 'An unlimited feature has nothing to buy.');
    }
    this.#pricedAgainst = billingOf(getUsageStore(asked.endpoint).state, this.feature);
    try {
      const pricing = await getProxyClient(asked.endpoint).getPricing(
        { feature: asked.feature, increment },
        signal,
        this.#language,
      );
      learnPerPurchaseLimit(asked.endpoint, pricing);
      return pricing;
    } catch (caught) {
      const error = await explainRefusal(toBillingError(caught), asked);
      if (await this.#turnsOutOnOff(asked.endpoint, asked.feature)) {
        // An on/off feature has no quantity: the add-on mode takes over (the element updates).
        // The quantity's refusal is moot: never shown or reported.
        throw new BillingError('aborted', 'An on/off feature is bought as an add-on.');
      }
      this.#hintSetup(error, asked);
      if (error.code === 'Error.Customer.PaymentSettings.Missing')
        void this.#learnUnitPrice(asked.endpoint, asked.feature);
      throw error;
    }
  });

  /** What every flow needs of the element: the one confirmation dialog, and its language. */
  readonly #changeView: ChangeView = {
    openDialog: () => {
      const endpoint = this.#endpoint;
      void readScheduledChange(endpoint, this.#language, this.feature).then((scheduled) => {
        if (endpoint !== this.#endpoint) return;
        this.#scheduled = scheduled;
        this.requestUpdate();
      });
      return this.#confirmDialog.open();
    },
    closeDialog: () => this.#confirmDialog.close(),
    language: () => this.#language,
  };

  readonly #purchase = new PurchaseController(this, {
    ...this.#changeView,
    preview: this.#preview,
    reprice: () => this.#billingChanged(false),
    purchased: () => this.#backToStart(),
    refreshPrice: () => this.#billingChanged(true),
  });

  /** The add-on mode, on an on/off feature: add or remove it as a whole. */
  readonly #addOn: AddOnController = new AddOnController(this, this.#changeView);

  /** With `allow-decrease`: lowering the quantity the customer owns. */
  readonly #decrease: DecreaseController = new DecreaseController(this, {
    ...this.#changeView,
    // The price of adding depends on the quantity owned: asked again.
    decreased: () => this.#billingChanged(false),
  });

  /** The plan change the subscription waits for, read when the dialog opens; null: none. */
  #scheduled: ScheduledChange | null = null;

  readonly #confirmDialog: ConfirmDialog = new ConfirmDialog(
    this,
    () => (this.#addOnMode ? this.#addOn : this.#decrease.quote ? this.#decrease : this.#purchase),
    () => this.renderRoot.querySelector<HTMLElement>('[part~="buy"], [part~="remove"]'),
  );

  /** Offers the remedy of a state met on load, or leaves it to the element of the region that does. */
  readonly #callToAction = new CallToAction(this);

  /** The feature to buy (its reference, e.g. `seats`). */
  feature = '';
  /** How many units to add; the user changes it with the quantity control. Set by the page, it is the default a purchase brings the control back to. */
  quantity = 1;
  /** The smallest quantity the control allows. */
  min = 1;
  /** The largest quantity the control allows; none when unset. */
  max: number | null = null;
  /** The quantity control's step, counted from `min`. */
  step = 1;
  /** `always` (the default) asks for confirmation of every purchase, a free one included (its dialog says "Nothing to pay now" and the recurring price unchanged); `auto` applies at once a purchase the proxy says is free overall (`confirmationRequired: false`), and asks for the others. */
  confirm: 'auto' | 'always' = 'always';
  /** The feature's name for several units, in the customer's words ("seats"), used in sentences ("Add 3 seats"); without it, sentences name the usage's `TitleLocalized`, else the reference ("Seats: 3 more"). */
  label = '';
  /** The feature's name for one unit ("seat"): with `label`, sentences agree with their number (Intl.PluralRules: "Add 1 seat"). */
  labelOne = '';
  /** The billing proxy for this element, overriding the page's `configureBilling({ endpoint })`. */
  endpoint: string | undefined;
  /** `light` or `dark` forces a color scheme; unset, the page's `color-scheme` (see Theming). */
  theme: 'light' | 'dark' | undefined;
  /** Offers to lower a Limitation the customer owns by the quantity chosen ("Remove 2 seats"), after the same confirmation as a purchase. Off by default. */
  allowDecrease = false;
  /** How many units are in use in the host app (users holding a seat): a decrease never goes below it. Unset, it never goes below the plan's included quantity; never below 0 either way. Sent to the proxy, whose own `inUse` option wins when higher. */
  inUse: number | undefined;

  #quantityEntry: QuantityEntry = 'allowed';
  /** The proxy's limit per purchase that the quantity typed is above, if it is. */
  #overLimit: number | undefined;
  /**
   * `endpoint#feature` of the feature last known to be on/off: the usages showed it so, or the
   * catalogue did for a plan that lacks it. A feature's type never changes.
   */
  #knownOnOff = '';
  /** The service's title of the feature, as the usages or offers last gave it. */
  #seenTitle = { for: '', text: '' };
  /** The plan's price per unit, while the service cannot quote one (no payment method). */
  #unitPrice: { for: string; text: string | undefined } = { for: '', text: undefined };
  /** The plan to suggest for a quantity the plan lacks, looked up once the price is refused so. */
  readonly #suggested = new SuggestedPlanLookup(this);
  /** The language the price is asked in (the service's own lines come in it): the element's. */
  #language: Language = 'en';
  /** The quantity the page chose (the attribute, or the property set by script): where a purchase leaves the control. */
  #defaultQuantity = 1;
  /** The quantity being set is the user's (typed or stepped), not a new default. */
  #typed = false;
  /** The next change of quantity is priced at once, not after the typing debounce. */
  #priceAtOnce = false;
  /** The mode chosen at the last update, which that update renders. */
  #mode: Mode = 'quantity';
  /** The plan gave unlimited access at the last update: nothing to buy, nothing priced. */
  #wasUnlimited = false;
  /** The billing the latest price was asked against (see billingOf). */
  #pricedAgainst = '';
  /** A refused price the customer tried to buy anyway: answered here, as a refusal. */
  #triedError: BillingError | undefined;
  /** Where the remedy shown is offered, as of the last update (see ProblemCallToAction). */
  #remedyPlace: ProblemCallToAction = { acted: false, speaks: true, pointer: nothing };

  constructor() {
    super();
    followLang(this);
    revealOutcome(this);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // The preview drops its state on disconnect: a moved element subscribes and prices again at
    // once, as for a new proxy.
    if (this.hasUpdated) this.requestUpdate('endpoint', NaN);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // The first update has `feature` (its default, set at construction).
    const retargeted = changed.has('feature') || changed.has('endpoint');
    if (changed.has('quantity') && !this.#typed) this.#defaultQuantity = this.quantity;
    this.#typed = false;
    // A `lang` change in the page (followLang) asks for the price again: the service's lines are
    // in the language they were asked in.
    const language = languageOf(this);
    const relanguaged = language !== this.#language;
    this.#language = language;
    if (retargeted && this.isConnected) this.#addOn.retarget();
    // The mode follows the usages, chosen once for the update and its render. Only the mode
    // shown asks for prices (a reset is done once: it asks for an update itself).
    const unlimited = this.#isUnlimitedIn(this.endpoint, this.feature);
    const limitedAgain = this.#wasUnlimited && !unlimited;
    this.#wasUnlimited = unlimited;
    this.#mode = this.#addOnMode ? 'add-on' : unlimited ? 'unlimited' : 'quantity';
    switch (this.#mode) {
      case 'add-on':
        this.#updateAddOn(retargeted || relanguaged);
        break;
      case 'unlimited':
        this.#updateUnlimited();
        break;
      case 'quantity':
        this.#updateQuantity(changed, { retargeted, relanguaged, limitedAgain });
        break;
    }
    if (retargeted && this.isConnected) this.#purchase.retarget();
    this.#placeRemedy();
  }

  /**
   * The add-on mode: an on/off feature is added or removed as a whole, and the switch the usage
   * calls for is priced, when it is not the one priced (or `again`); no quantity is.
   */
  #updateAddOn(again: boolean): void {
    if (this.#preview.state.status !== 'idle') this.#preview.reset();
    const target = this.#addOn.usage?.IsEnabled !== true;
    const { state } = this.#addOn.preview;
    if (again || state.status === 'idle' || state.args !== target) this.#addOn.refresh();
  }

  /** Unlimited access (a plan change may bring it): nothing to buy, nothing priced. */
  #updateUnlimited(): void {
    if (this.#preview.state.status !== 'idle') this.#preview.reset();
    if (this.#addOn.preview.state.status !== 'idle') this.#addOn.preview.reset();
  }

  /**
   * The quantity mode: the quantity is checked and priced when it, its range, the feature or the
   * proxy changed, and asked again in a new language; a quantity being typed waits.
   */
  #updateQuantity(
    changed: PropertyValues<this>,
    {
      retargeted,
      relanguaged,
      limitedAgain,
    }: { retargeted: boolean; relanguaged: boolean; limitedAgain: boolean },
  ): void {
    if (limitedAgain) {
      // A plan change took the unlimited access away: the quantity has a price again.
      this.#schedulePreview(true);
      return;
    }
    if (this.#addOn.preview.state.status !== 'idle') this.#addOn.preview.reset();
    const quantityProperties = ['quantity', 'min', 'max', 'step'] as const;
    if (retargeted || quantityProperties.some((name) => changed.has(name))) {
      this.#quantityEntry = this.#entryOf(this.quantity);
      // A new feature, proxy or connection, or the reset after a purchase, prices at once; a
      // quantity being typed waits.
      this.#schedulePreview(retargeted || this.#priceAtOnce);
      this.#priceAtOnce = false;
    } else if (relanguaged && this.#preview.state.status !== 'idle') {
      this.#schedulePreview(true);
    }
  }

  /**
   * The problem shown now and whether the customer's own action met it: a change refused, or a
   * buy button pressed while the price was refused.
   */
  #problem(): { error: BillingError | undefined; acted: boolean } {
    const change = this.#addOnMode ? this.#addOn : this.#purchase;
    const error = change.error;
    return { error, acted: change.failure !== undefined || error === this.#triedError };
  }

  /** Claims the remedy of the state shown (call-to-action.ts), and learns who offers it. */
  #placeRemedy(): void {
    const { error, acted } = this.#problem();
    let remedy: Remedy | undefined;
    if (this.#addOnMode && this.#addOn.standing === 'elsewhere') remedy = 'plans';
    else if (error && error.code !== 'aborted' && !acted) {
      const canRetry = this.#addOnMode ? this.#addOn.canRetry : this.#purchase.canRetry;
      remedy = remedyOf(error, canRetry);
    }
    const speaks = this.#callToAction.offer(remedy);
    const pointer = remedy && !speaks ? remedyPointer(this, this.#callToAction, remedy) : nothing;
    const plan = this.#suggested.known(getUsageStore(this.endpoint), this.feature);
    const unitPrice =
      this.#unitPrice.for === `${resolveEndpoint(this.endpoint)}#${this.feature}` &&
      error?.code === 'Error.Customer.PaymentSettings.Missing'
        ? this.#unitPrice.text
        : undefined;
    this.#remedyPlace = { acted, speaks, pointer, plan, unitPrice };
  }

  /** A buy button pressed while it is unavailable: a refused price is then said here. */
  #onUnavailableBuy(event: Event): void {
    const button = (event.target as Element).closest('[part~="buy"]');
    if (button?.getAttribute('aria-disabled') === 'true') this.#triedAnyway();
  }

  /** The customer tried to buy while the price is refused: the refusal is now theirs, here. */
  #triedAnyway(): void {
    const { error } = this.#problem();
    if (!error || error === this.#triedError) return;
    this.#triedError = error;
    this.requestUpdate();
  }

  /**
   * Whether the usages show `feature` as an on/off feature (or, while a subscription waits for
   * its checkout, its plan's terms do): the add-on mode.
   */
  #isOnOff(endpoint: string | undefined, feature: string): boolean {
    const store = getUsageStore(endpoint);
    const terms =
      store.get(feature) ??
      store.state.pendingFeatures.find((pending) => pending.ReferenceFeature === feature);
    const key = `${resolveEndpoint(endpoint)}#${feature}`;
    // Once known on/off, it stays an add-on while the usages are unknown (a failed read, another
    // account signed in), rather than turn into a quantity.
    if (terms?.TypeFeature === 'OnOff') this.#knownOnOff = key;
    return this.#knownOnOff === key;
  }

  /**
   * Whether a refused quantity is in fact an on/off feature: the usages say so, or, when they
   * have none of it (a plan that lacks it, a subscription not running), the catalogue's offers
   * do. The add-on mode then takes over (its refusal, or the plan that includes it).
   */
  async #turnsOutOnOff(endpoint: string, feature: string): Promise<boolean> {
    const usages = await getUsageStore(endpoint)
      .load()
      .catch(() => undefined);
    if (this.#isOnOff(endpoint, feature)) return true;
    // A usage of another type, or usages that cannot be read: the refusal stands as it is.
    if (!usages || usages.some((usage) => usage.ReferenceFeature === feature)) return false;
    // Without a catalogue, not known better: the refusal as the proxy said it, with its
    // change-plan remedy.
    const offers = await getUsageStore(endpoint).offers();
    const terms = (offers ?? []).flatMap((offer) => offer.Features ?? []);
    const type = terms.find((candidate) => candidate.ReferenceFeature === feature)?.TypeFeature;
    if (type !== 'OnOff') {
      // A quantity the plan lacks: its refusal names the plan that includes it.
      this.#suggested.of(getUsageStore(endpoint), feature);
      return false;
    }
    this.#knownOnOff = `${resolveEndpoint(endpoint)}#${feature}`;
    this.requestUpdate();
    return true;
  }

  /**
   * The price of one more unit on the customer's plan, from the catalogue, for a quantity the
   * service will not price before a payment method is added: shown beside that remedy.
   */
  async #learnUnitPrice(endpoint: string, feature: string): Promise<void> {
    const offers = await getUsageStore(endpoint).offers();
    const current = offers?.find((offer) => offer.IsCurrent);
    const terms = current?.Features?.find((candidate) => candidate.ReferenceFeature === feature);
    const text =
      current && terms
        ? unitPriceSentence(
            this,
            current,
            terms,
            terms.TitleLocalized ?? this.#featureNames().title,
          )
        : undefined;
    this.#unitPrice = { for: `${endpoint}#${feature}`, text };
    if (text) this.requestUpdate();
  }

  /** Whether the usages give unlimited access to `feature`: there is nothing to buy. */
  #isUnlimitedIn(endpoint: string | undefined, feature: string): boolean {
    const usage = getUsageStore(endpoint).get(feature);
    return usage !== undefined && usage.TypeFeature !== 'OnOff' && isUnlimited(usage);
  }

  get #addOnMode(): boolean {
    return this.#isOnOff(this.endpoint, this.feature);
  }

  /**
   * Billing changed (elsewhere, or a remedy's workflow completed): price the mode shown again;
   * after a live update (`keepShown`), only when the billing re-read is not the one the price
   * shown was asked against (see priced-against.ts).
   */
  #billingChanged(keepShown: boolean): void {
    if (this.#addOnMode) return this.#addOn.billingChanged(keepShown);
    const { state } = this.#preview;
    const current =
      state.status === 'complete' &&
      state.args === this.quantity &&
      this.#pricedAgainst === billingOf(getUsageStore(this.endpoint).state, this.feature);
    if (keepShown && current) return;
    this.#schedulePreview(true, keepShown ? { keepShown } : undefined);
  }

  /**
   * After a purchase, the form goes back to how it first was: the quantity at its default and
   * its price asked afresh (a placeholder meanwhile), so that neither the quantity just bought
   * nor its price stays beside "Done." as if it were still to buy. The success stays said
   * until the quantity is changed.
   */
  #backToStart(): void {
    this.#quantityEntry = 'allowed';
    if (this.quantity === this.#defaultQuantity) {
      // The same quantity: its price after the purchase may differ (part of the plan is used).
      this.#schedulePreview(true);
      return;
    }
    this.#priceAtOnce = true;
    this.quantity = this.#defaultQuantity;
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

  /**
   * Whether `value` can be priced: one the control allows, within the proxy's limit per purchase
   * once known (a larger one is said at once, never sent: the proxy would refuse it).
   */
  #entryOf(value: number): QuantityEntry {
    const limit = perPurchaseLimit(this.#endpoint);
    this.#overLimit = limit !== undefined && value > limit ? limit : undefined;
    return this.#range.allows(value) && !this.#overLimit ? 'allowed' : 'invalid';
  }

  #onInput(event: Event): void {
    const input = event.target as HTMLInputElement;
    const value = input.valueAsNumber;
    if (this.#entryOf(value) === 'allowed') {
      // The last outcome goes with the old quantity.
      this.#purchase.quantityChanged();
      this.#decrease.forget();
      this.#typed = true;
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
    warnOnce(refusalHint(quantityRefusal(error, refused.increment), error, refused));
  }

  /** Remove: the last purchase's outcome is no longer the news; the decrease is priced and confirmed. */
  readonly #onRemove = (): void => {
    this.#purchase.forgetSuccess();
    void this.#decrease.remove(this.quantity);
  };

  #onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    this.#decrease.forget();
    // Enter in the quantity while the price is refused: as a press of the unavailable button.
    if (!this.#purchase.canBuy) this.#triedAnyway();
    void this.#purchase.buy(this.quantity);
  }

  /**
   * The feature's names: the host's words (the page's texts for the element's language, else
   * the `label` attributes), else the service's title, else the reference.
   */
  #featureNames(): FeatureNames {
    const language = languageOf(this);
    const unitWord = (form: 'one' | 'other', attribute: string) => {
      const key = `unit.${this.feature}.${form}` as const;
      return hasMessage(language, key) ? message(this, key) : attribute;
    };
    const one = unitWord('one', this.labelOne);
    const other = unitWord('other', this.label);
    const key = `${this.#endpoint}#${this.feature}`;
    const given =
      getUsageStore(this.endpoint).get(this.feature)?.TitleLocalized || this.#addOn.catalogTitle;
    // The service's title outlives the usages or offers that gave it (a failed read, another
    // account signed in): the control keeps its name rather than fall back on the feature's key.
    if (given) this.#seenTitle = { for: key, text: given };
    const kept = this.#seenTitle.for === key ? this.#seenTitle.text : '';
    const title = other || kept || this.feature;
    return { one, other, title };
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

  #renderQuantityField(busy: boolean) {
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
      const limit = this.#overLimit;
      hint = html`<p id="invalid" class="invalid" part="invalid" role="alert">
        ${
          limit === undefined
            ? message(this, range.invalidMessage, figures)
            : message(this, 'buy.refused.at-once.max', { max: formatNumber(this, limit) })
        }
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

  /** The dialog's content for a purchase of a quantity, or undefined when nothing is asked. */
  #purchaseConfirmation(): ConfirmView | undefined {
    const quote = this.#purchase.quote;
    if (!quote) return undefined;
    const summary = countedSentence(
      this,
      quote.increment,
      this.#featureNames(),
      'buy.dialog.summary',
      'buy.dialog.summary.named',
    );
    const priced = pricingQuote(this, quote.pricing, quote.increment);
    return {
      title: message(this, 'buy.dialog.title'),
      summary,
      split: this.#split(quote),
      changed: quote.changed ? message(this, `error.${quote.changed}`) : undefined,
      quote: priced,
      applying: this.#purchase.underWay,
      cancelLabel: message(this, 'buy.dialog.cancel'),
      // What Confirm does: pays the amount due now, else makes the change the summary says.
      confirmLabel:
        quote.pricing.AmountTotal > 0
          ? message(this, 'buy.dialog.confirm.pay', { amount: priced.amount })
          : summary,
      onCancel: this.#confirmDialog.cancel,
      onConfirm: () => void this.#purchase.confirm(),
    };
  }

  /** The add-on mode: where the add-on stands, its price and action, outcome and refusals. */
  #renderAddOn(): TemplateResult {
    const label = this.#featureNames().title;
    const confirmation = addOnConfirmation(this, this.#addOn, label, {
      onCancel: this.#confirmDialog.cancel,
      onConfirm: () => void this.#addOn.confirm(),
    });
    const place = this.#remedyPlace;
    return html`<div class="layout" @click=${this.#onUnavailableBuy}>
        ${addOnPanel(this, this.#addOn, label, place)}
      </div>
      ${addOnStatus(this, this.#addOn, label)} ${addOnProblem(this, this.#addOn, place)}
      ${this.#confirmDialog.render(
        confirmation
          ? confirmContent(withScheduledChange(this, confirmation, this.#scheduled, label))
          : nothing,
      )}`;
  }

  /**
   * Unlimited access: a calm sentence in the meters' wording ("Seats: unlimited in your plan,
   * nothing to buy."), no quantity, no price, no button.
   */
  #renderUnlimited(): TemplateResult {
    const usage = getUsageStore(this.endpoint).get(this.feature);
    const title = usage?.TitleLocalized || this.#featureNames().title;
    const label = capitalized(title);
    return html`<div class="layout">
      <div class="add-on" part="unlimited">
        <p class="add-on-text">${message(this, 'buy.unlimited', { label })}</p>
      </div>
    </div>`;
  }

  /**
   * The quantity mode: the quantity, its price and Buy; with `allow-decrease`, Remove beside, and
   * the decrease's progress, outcome or refusal while it is the news, else the purchase's.
   */
  #renderQuantity(): TemplateResult {
    const { busy, canBuy } = this.#purchase;
    const names = this.#featureNames();
    const confirmation = this.#decrease.quote
      ? decreaseConfirmation(this, this.#decrease, names, {
          onCancel: this.#confirmDialog.cancel,
          onConfirm: () => void this.#decrease.confirm(),
        })
      : this.#purchaseConfirmation();
    const entry = this.#quantityEntry;
    const decrease = this.#decrease;
    const decreaseNews = decrease.underWay || decrease.success !== undefined;
    return html`
      <div class="layout" @click=${this.#onUnavailableBuy}>
        <form part="form" novalidate aria-busy=${busy} @submit=${this.#onSubmit}>
          ${this.#renderQuantityField(busy)}
          ${priceRegion(this, this.#preview.state, (increment) => increment)}
          <button
            type="submit"
            class="primary"
            part="button buy"
            aria-label=${countedSentence(
              this,
              this.quantity,
              this.#featureNames(),
              'buy.buy.counted',
              'buy.buy.named',
            )}
            aria-disabled=${busy || !canBuy}
            aria-describedby=${entry === 'allowed' ? nothing : entry}
          >
            <slot name="buy-label">${message(this, 'buy.buy')}</slot>
          </button>
        </form>
        ${
          this.allowDecrease
            ? decreaseRow(this, decrease, names, {
                count: this.quantity,
                busy: busy || entry !== 'allowed',
                onRemove: this.#onRemove,
              })
            : nothing
        }
      </div>
      ${decreaseNews ? decreaseStatus(this, decrease, names) : purchaseStatus(this, this.#purchase, names)}
      ${
        decrease.error
          ? decreaseProblem(this, decrease, this.#remedyPlace)
          : problemRegion(this, this.#purchase, names, this.#remedyPlace)
      }
      ${this.#confirmDialog.render(
        confirmation
          ? confirmContent(withScheduledChange(this, confirmation, this.#scheduled, names.title))
          : nothing,
      )}
    `;
  }

  override render() {
    switch (this.#mode) {
      case 'add-on':
        return this.#renderAddOn();
      case 'unlimited':
        return this.#renderUnlimited();
      case 'quantity':
        return this.#renderQuantity();
    }
  }
}

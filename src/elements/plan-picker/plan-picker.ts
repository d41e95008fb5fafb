import { LitElement, html, nothing, type TemplateResult } from 'lit';
import type { Offer } from '../../contract/catalog.js';
import type {
  PortalPage,
  OffersResponse,
  PreparedOffer,
  SubscriptionStatusResponse,
} from '../../contract/proxy-api.js';
import { resolveEndpoint } from '../../client/config.js';
import { toBillingError, type BillingError } from '../../client/errors.js';
import {
  BillingErrorEvent,
  BillingPortalCompleteEvent,
  BillingRemedyEvent,
  BillingUpdatedEvent,
} from '../../client/events.js';
import {
  errorMessage,
  followLang,
  formatDate,
  languageOf,
  message,
  registerTexts,
  type Language,
  type MessageKey,
} from '../../client/i18n.js';
import { registerSharedTexts } from '../../client/shared-texts.js';
import { remedyFor } from '../../client/portal.js';
import { getProxyClient } from '../../client/proxy-client.js';
import { getPlans } from '../../client/plan-client.js';
import { UsageStoreController } from '../../client/usage-store-controller.js';
import { ConfirmDialog, confirmContent, type ConfirmView } from '../shared/confirm-dialog.js';
import { CallToAction, failureRemedy, type Remedy } from '../shared/call-to-action.js';
import { remedyPointer } from '../shared/remedy-pointer.js';
import { openPortalOnDemand, openRemedy, reloadButton, remedyLabel } from '../shared/remedy.js';
import { defineElement } from '../shared/define.js';
import { revealOutcome, statusRegion } from '../shared/status.js';
import { planTexts } from './messages.js';
import {
  differingFeatures,
  discountedPrice,
  extrasText,
  featureList,
  priceAtUse,
  pricePerPeriod,
} from './offer-card.js';
import { costsMoreThanCard, keptOnDowngrade, lostFeatures } from './plan-difference.js';
import { LatestTask } from '../shared/latest-task.js';
import { PlanChangeFlow } from './plan-change.js';
import { planPickerStyles } from './styles.js';

/**
 * What a read of the catalogue answers: the offers, the subscriptions the business prepared for
 * the customer, whether prices include tax when the business said, and the customer's
 * subscription.
 */
interface CatalogAnswer extends OffersResponse {
  subscription: SubscriptionStatusResponse;
}

/** What the picker knows of the customer: loading, failed, or the offers and subscription. */
type Catalog =
  | { status: 'loading' }
  | { status: 'error'; error: BillingError }
  | ({ status: 'ready' } & CatalogAnswer);

const MINUS_SIGN = '\u2212';

/** A negative amount as the service wrote it, its hyphen-minus made a minus sign ("−$24.50"). */
function withMinusSign(text: string, amount: number): string {
  return amount < 0 ? text.replace('-', MINUS_SIGN) : text;
}

/**
 * A price or a date kept on one line (no-break spaces), for a sentence that may wrap around it:
 * "à partir du 1er décembre 2026" never leaves "1er" at the end of a line.
 */
const unbroken = (text: string): string => text.replace(/ /g, '\u00a0');

/** The number of placeholder cards while the offers load (the sandbox's grid has three). */
const SKELETON_CARDS = 3;

/**
 * A suspended subscription's first step that works, and its code. The service refuses a restart
 * while overdue invoices reach the cap (pay them: the hosted payment then offers the restart) or
 * while the payment method no longer works (update it); otherwise, restart.
 */
function suspendedRemedy(
  subscription: SubscriptionStatusResponse,
): ['pay-invoice' | 'register' | 'restart', string] {
  if (subscription.paymentCappingReached)
    return ['pay-invoice', 'Error.Customer.Billing.CappingReached'];
  if (subscription.suspensionReason === 'payment-method-invalid')
    return ['register', 'payment-method-invalid'];
  return ['restart', 'subscription-suspended'];
}

/**
 * Lists the plans the signed-in customer can move to, with their price per period and the
 * features that differ, and changes the plan after the customer confirmed the price of the move
 * (due now and per period) in a dialog inside the element, at most once per confirmation.
 *
 * @tag plan-picker
 * @summary Compare plans and change plan after confirming the price.
 *
 * @slot heading - A heading above the plans (none by default).
 * @slot dialog-title - The title of the confirmation dialog. Default: "Switch to {plan}?", or "Downgrade to {plan}?" when the quote says the move lowers the price and waits for the period's end.
 * @slot confirm-label - The text of the dialog's confirm button. Default: what it does: "Pay {amount} and switch", "Switch now" (nothing due), "Switch on {date}" (a downgrade at the end of the period) or "Keep {plan}".
 * @slot cancel-label - The text of the dialog's cancel button. Default: "Cancel".
 *
 * @event billing-plan-change - {BillingPlanChangeEvent} The plan was changed or the change scheduled. `detail: { offer, currentOffer, offerAfterTerm, dateEffective, amountTotal, replayed }`.
 * @event billing-error - {BillingErrorEvent} The offers, a quote or a change was refused or failed. `detail: { error, remedy }`.
 * @event billing-remedy - {BillingRemedyEvent} The user asked for a portal workflow (subscribe, complete, restart, register); `preventDefault()` to open it yourself. `detail: { page, code, offer, subscription }` (`offer`: the plan a Subscribe subscribes to; `subscription`: a prepared subscription a Switch moves to).
 *
 * @csspart list - The list of offers.
 * @csspart offer - One offer's card (`data-current` on the customer's plan).
 * @csspart prepared - The card of a subscription the business prepared for the customer (also `offer`; `data-prepared` its id).
 * @csspart title - An offer's title.
 * @csspart description - An offer's description.
 * @csspart price - An offer's price per period: at the customer's current use (their seats and projects above what it includes, their add-ons), after their discount.
 * @csspart at-use - Under the price, when the customer's current use costs more than the plan's list price: that list price and what adds to it ("At your current use: the $49.00 / month list price plus Seats: 37 extra, $370.00 / month…").
 * @csspart discount - Under the price, the customer's discount that applies to it ("Your discount applies: 20% off everything.").
 * @csspart features - The list of the features that differ.
 * @csspart feature - One feature line (`data-absent` when the offer lacks it).
 * @csspart current - The "Current plan" badge.
 * @csspart button - Every button.
 * @csspart choose - An offer's button (also `button`).
 * @csspart contact - The contact link of an offer sold on request.
 * @csspart notice - The subscription's state (none, pending, suspended, a change scheduled) and its action.
 * @csspart scheduled - The notice of a change scheduled for the end of the period ("Your plan changes to Starter on December 1, 2026."; also `notice`).
 * @csspart starts - The badge, in place of a button, of the offer a scheduled change moves to ("Starts on December 1, 2026").
 * @csspart keep - The notice's "Keep {plan}" button, which cancels the scheduled change after its confirmation (also `button`).
 * @csspart skeleton - The placeholder cards while loading.
 * @csspart status - The live region that reports progress and success.
 * @csspart progress - The message while the change is applied.
 * @csspart success - The success message.
 * @csspart error - The refusal or failure message, with its remedy or retry.
 * @csspart remedy - The button that opens the portal workflow fixing a refusal (also `button`).
 * @csspart retry - The "try again" button (also `button`).
 * @csspart pointer - Instead of the notice's action, when another element of the page region offers it: the "See what to do" link that brings that element into view.
 * @csspart dialog - The confirmation dialog.
 * @csspart dialog-title - The dialog's title.
 * @csspart price-changed - The dialog's notice that the price changed since it was shown.
 * @csspart quote - The dialog's price block.
 * @csspart amount - The amount due now, in large type; for a change that waits for the end of the period and costs nothing now, the new recurring price.
 * @csspart split - The dialog's line telling how much of the quantity the plan includes.
 * @csspart details - The service's breakdown of the immediate price, under it.
 * @csspart next-term - The new recurring price, compared with the current one when it rises ("$454.00 / month instead of $199.00 / month"; for a change that costs nothing now and waits: what is due now).
 * @csspart next-term-note - Under it: the customer's discount, and when the price is above the plan's list price, the extras it includes ("Projects: 1 extra, $5.00 / month").
 * @csspart effective - "Takes effect on {date}" for a change at the end of the period that costs something now.
 * @csspart taxes - Under the plans, and at the end of the dialog's price block, when the proxy's `taxes` option says it: "Prices include tax." or "Prices exclude tax: it is added on the invoice."
 * @csspart confirm - The confirm button (also `button`).
 * @csspart destructive - The confirm button of a change that takes something away, in the critical colour (also `button` and `confirm`).
 * @csspart cancel - The cancel button (also `button`).
 *
 * @cssproperty --billing-accent - The accent: buttons, the current plan's border, focus rings.
 * @cssproperty --billing-on-accent - Text on the accent.
 * @cssproperty --billing-critical - Refusals.
 * @cssproperty --billing-success - Included features and the success message.
 * @cssproperty --billing-radius - Corner radius of cards, controls and the dialog (8px).
 * @cssproperty --billing-space - The spacing unit (4px).
 * @cssproperty --billing-font-size - Base font size (inherited by default).
 * @cssproperty --billing-border-color - Hairlines.
 * @cssproperty --billing-muted-color - Secondary text.
 * @cssproperty --billing-focus-ring - The focus ring (a box-shadow).
 * @cssproperty --billing-surface - Background of the dialog (Canvas).
 * @cssproperty --billing-on-surface - Text of the dialog (CanvasText).
 * @cssproperty --billing-backdrop - The dialog's backdrop.
 * @cssproperty --billing-focus-color - The focus ring's colour (a 2px outline, 2px away). Default the accent.
 * @cssproperty --billing-duration - Length of the buttons' transitions. Default 180ms (none under reduced motion).
 * @cssproperty --billing-color-scheme - `light` or `dark` forces a color scheme, as `theme` does.
 */
export class PlanPicker extends LitElement {
  static override styles = planPickerStyles;

  static {
    registerSharedTexts();
    registerTexts(planTexts, { fr: () => import('./messages.fr.js') });
  }

  static override properties = {
    theme: { reflect: true },
    endpoint: {},
    contactHref: { attribute: 'contact-href' },
  };

  /** Registers the element under `tag`; a no-op when this class already holds it. */
  static define(tag = 'plan-picker', registry: CustomElementRegistry = customElements): void {
    defineElement(tag, this, registry);
  }

  /** The billing proxy for this element, overriding the page's `configureBilling({ endpoint })`. */
  endpoint: string | undefined;
  /** `light` or `dark` forces a color scheme; unset, the page's `color-scheme` (see Theming). */
  theme: 'light' | 'dark' | undefined;
  /** Where an offer sold on request sends the customer (`mailto:` or a page of yours). */
  contactHref: string | undefined;

  /**
   * Reads the offers and the subscription: a new read aborts the one under way, whose answer is
   * dropped. The offers' titles and descriptions are the service's, asked in the element's
   * language.
   */
  readonly #catalogRead = new LatestTask<undefined, CatalogAnswer>(
    this,
    async (_args, signal) => {
      const client = getProxyClient(resolveEndpoint(this.endpoint));
      // The offers' titles and descriptions, and the discounts' titles, are the service's, asked
      // in the element's language.
      const language = this.#offersLanguage;
      try {
        const [plans, subscription] = await Promise.all([
          getPlans(client.endpoint, signal, language),
          client.getSubscription(signal, language),
        ]);
        return { ...plans, subscription };
      } catch (caught) {
        const error = toBillingError(caught);
        // A read that another one replaced, or the element left the page: nothing to say.
        if (error.code !== 'aborted' && !signal.aborted) {
          const failure = new BillingErrorEvent({ error });
          this.dispatchEvent(failure);
        }
        throw error;
      }
    },
    0,
  );
  /** The language the offers were last asked in: asked again when the element's changes. */
  #offersLanguage: Language | undefined;
  /** The current offer, when "Keep" was pressed to cancel a scheduled change (for its success line). */
  #keeping: string | undefined;
  /**
   * The picker is where the plans are: it offers them to the page's other elements (their "See
   * plans" points here), and offers its notice's remedy unless another element of the region
   * does.
   */
  readonly #callToAction = new CallToAction(this);
  /** Whether this picker offers its notice's remedy (see willUpdate). */
  #speaks = true;

  /**
   * The page's usage store, followed while connected: following it keeps the live updates open.
   * A failed read that another element offered to retry: once the usages read again, so do the
   * plans.
   */
  readonly #store = new UsageStoreController(
    this,
    ({ status }) => {
      if (status === 'ready' && this.#catalog.status === 'error') void this.reload();
    },
    // The cards price each plan at the customer's use: the usages, read once per session and
    // shared with the page's other elements. Without them, the cards show list prices.
    (store) => void store.load().catch(() => undefined),
  );

  readonly #flow: PlanChangeFlow = new PlanChangeFlow(this, {
    openDialog: () => this.#confirmDialog.open(),
    closeDialog: () => this.#confirmDialog.close(),
    planChanged: () => void this.reload(),
    language: () => languageOf(this),
  });

  /**
   * The confirmation dialog; on close the focus goes back to the offer chosen: its button, or its
   * title when the change took the button away before the dialog closed (the plans read again
   * while it was closing: a slow machine's order).
   */
  readonly #confirmDialog: ConfirmDialog = new ConfirmDialog(
    this,
    () => this.#flow,
    () => {
      const offer = CSS.escape(this.#flow.offer ?? '');
      return (
        this.renderRoot.querySelector<HTMLElement>(`[data-offer="${offer}"]`) ??
        this.renderRoot.querySelector<HTMLElement>(`[data-offer-card="${offer}"] h3`)
      );
    },
  );

  constructor() {
    super();
    followLang(this);
    revealOutcome(this);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // The picker follows every change of the subscription, or it would offer to subscribe
    // beside one that has started: a workflow completed in a portal on this page, and a live
    // signal (a change in another tab or by the business), which reaches the page while
    // something follows its usage store, as the picker does (#store).
    document.addEventListener(BillingUpdatedEvent.type, this.#onUpdated);
    document.addEventListener(BillingPortalCompleteEvent.type, this.#onUpdated);
    void this.reload();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener(BillingUpdatedEvent.type, this.#onUpdated);
    document.removeEventListener(BillingPortalCompleteEvent.type, this.#onUpdated);
  }

  /**
   * The control that had the focus before an update. A confirmed change removes the button that
   * made it (the plan it chose is now current, or starts later; the notice of a change kept
   * goes): the focus then goes to that plan's title, rather than to the page's body.
   */
  #focused: Element | null = null;

  protected override willUpdate(): void {
    this.#focused = this.renderRoot.querySelector(':focus');
    this.#speaks = this.#callToAction.offer(...this.#remedy());
    // The page changed its language (followLang asks for this update): the offers' texts are
    // the service's, so an idle picker asks for them again in the new language.
    const asked = this.#offersLanguage;
    if (asked !== undefined && this.isConnected && this.#flow.phase === 'idle')
      if (languageOf(this) !== asked) void this.reload();
  }

  protected override updated(): void {
    const offer = (this.#focused as HTMLElement | null)?.dataset.offer;
    this.#focused = null;
    if (offer === undefined || this.renderRoot.querySelector(':focus')) return;
    this.renderRoot
      .querySelector<HTMLElement>(`[data-offer-card="${CSS.escape(offer)}"] h3`)
      ?.focus();
  }

  /** Reads the offers and the subscription again (after a change, a remedy, "Try again"). */
  async reload(): Promise<void> {
    this.#offersLanguage = languageOf(this);
    // A reload after a change keeps the cards on screen: only the first read shows a skeleton.
    const keepShown = this.#catalogRead.state.status === 'complete';
    this.#catalogRead.run(undefined, true, { keepShown });
    await this.#catalogRead.settled();
  }

  /** What the picker knows of the customer, from the last read. */
  get #catalog(): Catalog {
    const { state } = this.#catalogRead;
    if (state.status === 'complete') return { status: 'ready', ...state.value };
    if (state.status === 'error') return { status: 'error', error: toBillingError(state.error) };
    return { status: 'loading' };
  }

  /** Billing changed (elsewhere, or in a portal workflow): an idle picker reads the plans again. */
  readonly #onUpdated = (event: BillingUpdatedEvent | BillingPortalCompleteEvent): void => {
    // A portal's completion names no endpoint: any workflow may have changed the subscription.
    if (
      event instanceof BillingUpdatedEvent &&
      event.detail.endpoint !== resolveEndpoint(this.endpoint)
    )
      return;
    if (this.#flow.phase === 'idle') void this.reload();
  };

  /** The customer's usages, as the page's usage store has them (empty until loaded). */
  #usages() {
    return this.#store.store.state.usages;
  }

  /** The remedy of the state shown, and whether it is the picker's own subject (the plans). */
  #remedy(): [Remedy, boolean] {
    const catalog = this.#catalog;
    if (catalog.status === 'error') return [failureRemedy(catalog.error?.code), false];
    if (catalog.status === 'ready') {
      const { status } = catalog.subscription;
      if (status === 'pending') return ['subscribe', false];
      if (status === 'suspended') return [suspendedRemedy(catalog.subscription)[0], false];
    }
    return ['plans', true];
  }

  /** Another element of the region offers the remedy: a calm pointer to it. */
  #renderPointer(): TemplateResult {
    return remedyPointer(this, this.#callToAction, this.#remedy()[0]);
  }

  #titleOf(reference: string | undefined): string {
    if (this.#catalog.status !== 'ready' || !reference) return reference ?? '';
    const offer = this.#catalog.offers.find((candidate) => candidate.ReferenceOffer === reference);
    return offer?.TitleLocalized ?? reference;
  }

  #open(page: PortalPage, event: Event, offer?: string, code?: string): void {
    const from = event.currentTarget as HTMLElement;
    void openRemedy(this, page, code, from, offer).then((error) => {
      // The subscription changed since the plans were read (the proxy refuses a subscribe
      // beside a started or pending one): show it as it is now.
      if (error?.code === 'already-subscribed' || error?.code === 'subscription-pending')
        void this.reload();
    });
  }

  #renderSkeleton(): TemplateResult {
    return html`<div class="loading" aria-busy="true">
      <span class="visually-hidden">${message(this, 'loading')}</span>
      <div class="cards">
        <ul class="offers" part="list skeleton" aria-hidden="true" data-count=${SKELETON_CARDS}>
          ${Array.from(
            { length: SKELETON_CARDS },
            () =>
              html`<li class="offer">
                <span class="skeleton"></span>
                <span class="skeleton tall"></span>
                <span class="skeleton block"></span>
                <span class="skeleton button"></span>
              </li>`,
          )}
        </ul>
      </div>
    </div>`;
  }

  #renderLoadError(error: BillingError): TemplateResult {
    return html`<div class="message" part="error" role="alert">
      <p>${errorMessage(this, error.code, 'error.generic')}</p>
      ${
        !this.#speaks
          ? this.#renderPointer()
          : error.code === 'session-changed'
            ? reloadButton(this)
            : html`<button
                type="button"
                class="secondary"
                part="button retry"
                @click=${() => this.reload()}
              >
                ${message(this, 'retry')}
              </button>`
      }
    </div>`;
  }

  /** The subscription's state when it is not running: what it means and the way on. */
  #renderNotice(subscription: SubscriptionStatusResponse): TemplateResult | typeof nothing {
    const { status } = subscription;
    let text: MessageKey;
    let action: TemplateResult | typeof nothing = nothing;
    if (status === 'pending') {
      text = 'plan.pending';
      action = html`<button
        type="button"
        class="primary"
        part="button remedy"
        @click=${(event: Event) => this.#open('subscribe', event)}
      >
        ${message(this, 'plan.pending.action')}
      </button>`;
    } else if (status === 'suspended') {
      const [page, code] = suspendedRemedy(subscription);
      text =
        page === 'pay-invoice'
          ? 'plan.suspended.capping'
          : page === 'register'
            ? 'plan.suspended.payment-method'
            : 'plan.suspended';
      action = html`<button
        type="button"
        class="primary"
        part="button remedy"
        @click=${(event: Event) => this.#open(page, event, undefined, code)}
      >
        ${remedyLabel(this, page, code)}
      </button>`;
    } else if (status === 'none' || status === 'ended') {
      text = 'plan.none';
    } else if (subscription.offerAfterTerm) {
      return this.#renderScheduled(subscription);
    } else {
      return nothing;
    }
    return html`<div id="notice" class="message notice" part="notice" data-kind=${status}>
      <p>${message(this, text)}</p>
      ${action === nothing || this.#speaks ? action : this.#renderPointer()}
    </div>`;
  }

  /** The change scheduled for the period's end: its plan's title, and its date as written. */
  #scheduled(subscription: SubscriptionStatusResponse): { title: string; date: string } {
    const date = subscription.dateOfferChange ?? subscription.periodEnd;
    return {
      title: subscription.titleAfterTerm ?? this.#titleOf(subscription.offerAfterTerm ?? ''),
      date: date ? formatDate(this, date) : '',
    };
  }

  /**
   * A change confirmed earlier that waits for the end of the period (a downgrade): which plan,
   * from when, and the way to keep the current one (moving to it again cancels the change).
   */
  #renderScheduled(subscription: SubscriptionStatusResponse): TemplateResult {
    const current = subscription.offer ?? '';
    const busy = this.#flow.busy || this.#flow.failure?.pending !== undefined;
    const quoting = this.#flow.phase === 'preparing' && this.#flow.offer === current;
    return html`<div
      id="notice"
      class="message notice"
      part="notice scheduled"
      data-kind="scheduled"
    >
      <p>${message(this, 'plan.scheduled', this.#scheduled(subscription))}</p>
      <button
        type="button"
        class="secondary"
        part="button keep"
        data-offer=${current}
        aria-disabled=${busy}
        aria-busy=${quoting}
        @click=${() => {
          if (busy) return;
          this.#keeping = current;
          void this.#flow.choose(current);
        }}
      >
        ${message(this, 'plan.keep', { title: subscription.title ?? this.#titleOf(current) })}
      </button>
    </div>`;
  }

  #renderAction(
    offer: Offer,
    current: Offer | undefined,
    subscription: SubscriptionStatusResponse,
  ): TemplateResult {
    const { status } = subscription;
    const title = offer.TitleLocalized ?? offer.ReferenceOffer;
    if (offer.IsCurrent)
      return html`<p class="badge" part="current">
        ${message(this, status === 'pending' ? 'plan.current.pending' : 'plan.current')}
      </p>`;
    if (offer.ReferenceOffer === subscription.offerAfterTerm) {
      // Already chosen, from the end of the period: no second downgrade to offer.
      return html`<p class="badge scheduled" part="starts">
        ${message(this, 'plan.scheduled.starts', this.#scheduled(subscription))}
      </p>`;
    }
    if (offer.IsOnRequest) {
      return this.contactHref
        ? html`<a class="secondary" part="button contact" href=${this.contactHref}
            >${message(this, 'plan.contact')}<span class="visually-hidden">: ${title}</span></a
          >`
        : html`<p class="on-request">${message(this, 'plan.on-request')}</p>`;
    }
    if (status === 'none' || status === 'ended') {
      return html`<button
        type="button"
        class="primary"
        part="button choose"
        data-offer=${offer.ReferenceOffer}
        @click=${(event: Event) => this.#open('subscribe', event, offer.ReferenceOffer)}
      >
        ${message(this, 'plan.subscribe', { title })}
      </button>`;
    }
    // Pending or suspended: the notice's action comes first; the choice waits for it.
    const blocked = status !== 'running';
    const quoting = this.#flow.phase === 'preparing' && this.#flow.offer === offer.ReferenceOffer;
    const busy = this.#flow.busy || this.#flow.failure?.pending !== undefined;
    // The card's price counts the customer's use, but the service's quote is what decides a
    // move's direction (and when the usages are unknown the card shows a list price): the
    // button never says "Upgrade" or "Downgrade", the dialog does, from the quote.
    const more = (this.#cardAmount(offer) ?? 0) - (current ? (this.#cardAmount(current) ?? 0) : 0);
    return html`<button
      type="button"
      class=${more > 0 || !current ? 'primary' : 'secondary'}
      part="button choose"
      data-offer=${offer.ReferenceOffer}
      aria-disabled=${blocked || busy}
      aria-busy=${quoting}
      aria-describedby=${blocked ? 'notice' : nothing}
      @click=${() => {
        if (!blocked) {
          this.#keeping = undefined;
          void this.#flow.choose(offer.ReferenceOffer);
        }
      }}
    >
      ${message(this, 'plan.choose', { title })}
    </button>`;
  }

  /**
   * What the customer would pay for `offer` each period at their current use, before discounts,
   * and what adds to its list price; undefined while the usages are unknown, or without a
   * subscription (nothing in use: the list price).
   */
  #atUse(offer: Offer) {
    const { status, usages } = this.#store.store.state;
    if (this.#catalog.status !== 'ready' || status !== 'ready' || usages.length === 0) return;
    if (!this.#catalog.subscription.subscriptionId) return;
    const current = this.#catalog.offers.find((candidate) => candidate.IsCurrent);
    return priceAtUse(offer, current, usages);
  }

  /**
   * The price an offer's card shows: what the customer pays at their current use after
   * discounts, else the list price after discounts, else the list price.
   */
  #cardAmount(offer: Offer): number | undefined {
    const discounts =
      this.#catalog.status === 'ready' ? (this.#catalog.subscription.discounts ?? []) : [];
    const amount = this.#atUse(offer)?.amount ?? offer.AmountRecurrence;
    if (discounts.length === 0) return amount;
    return discountedPrice(offer, discounts, amount) ?? amount;
  }

  /**
   * What the customer's discounts take off `offer`'s price at their current use, when they take
   * something off and both prices are known.
   */
  #discountOff(offer: Offer): number | undefined {
    const atUse = this.#atUse(offer)?.amount;
    const paid = this.#cardAmount(offer);
    return atUse === undefined || paid === undefined || paid === atUse ? undefined : atUse - paid;
  }

  #renderOffers(
    grid: Offer[],
    prepared: PreparedOffer[],
    subscription: SubscriptionStatusResponse,
  ): TemplateResult {
    // A plan the business prepared a custom subscription of shows that one in its place (unless
    // it is the customer's current plan, which keeps its card).
    const offers = grid.filter(
      (offer) =>
        offer.IsCurrent ||
        !prepared.some((custom) => custom.offer.ReferenceOffer === offer.ReferenceOffer),
    );
    if (offers.length + prepared.length === 0)
      return html`<p class="message" part="notice">${message(this, 'plan.empty')}</p>`;
    const features = differingFeatures([...offers, ...prepared.map(({ offer }) => offer)]);
    const current = offers.find((offer) => offer.IsCurrent);
    // The customer's discounts stay with the subscription on any plan: each card shows what the
    // customer pays, the list price beneath it; when a discount does not say what it takes
    // off, the list price and a note that the discount applies (the dialog's quote gives the
    // amounts).
    const discounts = subscription.discounts ?? [];
    const name = discounts.map((discount) => discount.title).join(', ');
    // A plan priced at the customer's use above its list price says so, and what adds to it:
    // the list price is never shown as if it were this customer's.
    // With a discount that says what it takes off, the sentence is the whole sum, in the order
    // it is counted: the list price, the extras, the discount, the price the card shows.
    const extras = (offer: Offer) => (offer.IsOnRequest ? [] : (this.#atUse(offer)?.extras ?? []));
    const atUseNote = (offer: Offer) => {
      if (extras(offer).length === 0) return nothing;
      const terms = {
        price: pricePerPeriod(this, offer),
        extras: extrasText(this, offer, extras(offer)),
      };
      const off = discounts.length ? this.#discountOff(offer) : undefined;
      return html`<p class="at-use" part="at-use">
        ${
          off === undefined
            ? message(this, 'plan.at-use', terms)
            : message(this, 'plan.at-use.discounted', {
                ...terms,
                off: pricePerPeriod(this, offer, off),
                name,
                total: pricePerPeriod(this, offer, this.#cardAmount(offer)),
              })
        }
      </p>`;
    };
    const discountNote = (offer: Offer) =>
      discounts.length === 0 ||
      offer.IsOnRequest ||
      (extras(offer).length && this.#discountOff(offer))
        ? nothing
        : html`<p class="discount" part="discount">
            ${
              this.#cardAmount(offer) === offer.AmountRecurrence || extras(offer).length > 0
                ? message(this, 'plan.discount', { name })
                : message(this, 'plan.discount.list-price', {
                    price: pricePerPeriod(this, offer),
                    name,
                  })
            }
          </p>`;
    return html`<div class="cards">
      <ul class="offers" part="list" data-count=${offers.length + prepared.length}>
        ${offers.map((offer) => {
          const title = offer.TitleLocalized ?? offer.ReferenceOffer;
          return html`<li
            class="offer"
            part="offer"
            data-offer-card=${offer.ReferenceOffer}
            data-current=${offer.IsCurrent ? '' : nothing}
            aria-current=${offer.IsCurrent ? 'true' : nothing}
          >
            <h3 part="title" tabindex="-1">${title}</h3>
            ${
              offer.DescriptionLocalized
                ? html`<p class="description" part="description">${offer.DescriptionLocalized}</p>`
                : nothing
            }
            <p class="recurring" part="price">
              ${
                offer.IsOnRequest
                  ? message(this, 'plan.on-request')
                  : pricePerPeriod(this, offer, this.#cardAmount(offer))
              }
            </p>
            ${atUseNote(offer)} ${discountNote(offer)}
            ${featureList(this, offer, features, discounts)}
            <div class="action">${this.#renderAction(offer, current, subscription)}</div>
          </li>`;
        })}
        ${prepared.map((custom) => this.#renderPrepared(custom, features, subscription))}
      </ul>
    </div>`;
  }

  /**
   * A subscription the business prepared for the customer: its own price (its discounts counted
   * by the service), and a button that opens the service's change-plan workflow on it, where the
   * customer reads its terms and confirms. Its change is the service's, not a quote of the picker.
   */
  #renderPrepared(
    { subscription: id, offer }: PreparedOffer,
    features: { reference: string; title: string }[],
    subscription: SubscriptionStatusResponse,
  ): TemplateResult {
    const title = offer.TitleLocalized ?? offer.ReferenceOffer;
    const blocked = subscription.status !== 'running' || this.#flow.busy;
    return html`<li
      class="offer"
      part="offer prepared"
      data-offer-card=${offer.ReferenceOffer}
      data-prepared=${id}
    >
      <h3 part="title" tabindex="-1">${title}</h3>
      <p class="description" part="description">${message(this, 'plan.prepared')}</p>
      <p class="recurring" part="price">${pricePerPeriod(this, offer)}</p>
      ${featureList(this, offer, features)}
      <div class="action">
        <button
          type="button"
          class="secondary"
          part="button choose"
          data-offer=${offer.ReferenceOffer}
          data-prepared=${id}
          aria-disabled=${blocked}
          @click=${(event: Event) => {
            if (!blocked) this.#openPrepared(event, id, offer.ReferenceOffer);
          }}
        >
          ${message(this, 'plan.choose', { title })}
        </button>
      </div>
    </li>`;
  }

  /**
   * Opens the service's change-plan workflow on a prepared subscription: `billing-remedy` first
   * (the host may open it itself), then the page's portal or the modal one. The picker reads the
   * plans again when the workflow completes (see #onUpdated).
   */
  #openPrepared(event: Event, subscription: number, offer: string): void {
    const from = event.currentTarget as HTMLElement;
    const remedy = new BillingRemedyEvent({ page: 'change-plan', offer, subscription });
    if (!this.dispatchEvent(remedy)) return;
    openPortalOnDemand(
      { page: 'change-plan', subscription },
      { endpoint: this.endpoint, from },
    ).catch((error: unknown) => {
      const failure = new BillingErrorEvent({ error: toBillingError(error) });
      this.dispatchEvent(failure);
    });
  }

  #renderStatus(): TemplateResult {
    const { phase, success, underWay } = this.#flow;
    let text = '';
    if (phase === 'preparing') text = message(this, 'plan.quoting');
    else if (underWay)
      text = message(this, phase === 'resuming' ? 'plan.resuming' : 'plan.applying');
    else if (success) {
      const later = success.offerAfterTerm !== null && success.dateEffective !== null;
      const kept = success.offer === this.#keeping && success.offerAfterTerm === null;
      text = kept
        ? message(this, 'plan.success.kept', { title: this.#titleOf(success.offer) })
        : later
          ? message(this, 'plan.success.later', {
              title: this.#titleOf(success.offerAfterTerm ?? undefined),
            })
          : message(this, 'plan.success.now', { title: this.#titleOf(success.offer) });
    }
    return statusRegion(text, success !== undefined && phase === 'idle');
  }

  #renderProblem(): TemplateResult {
    const failure = this.#flow.failure;
    let content: TemplateResult | typeof nothing = nothing;
    if (failure && failure.error.code !== 'aborted') {
      const { code } = failure.error;
      const page = remedyFor(code);
      let action: TemplateResult | typeof nothing = nothing;
      if (code === 'offer-on-request' && this.contactHref) {
        action = html`<a class="secondary" part="button contact" href=${this.contactHref}
          >${message(this, 'plan.contact')}</a
        >`;
      } else if (page) {
        action = html`<button
          type="button"
          class="secondary"
          part="button remedy"
          @click=${(event: Event) => this.#open(page, event, undefined, code)}
        >
          ${remedyLabel(this, page, code)}
        </button>`;
      } else if (this.#flow.canRetry) {
        action = html`<button
          type="button"
          class="secondary"
          part="button retry"
          @click=${() => void this.#flow.retry()}
        >
          ${message(this, 'retry')}
        </button>`;
      }
      const text = failure.pending
        ? message(this, 'plan.outcome-unknown')
        : errorMessage(this, code, 'error.generic');
      content = html`<div class="problem" part="error">
        <p>${text}</p>
        ${action}
      </div>`;
    }
    return html`<div role="alert">${content}</div>`;
  }

  /** The dialog's content for the quote shown, or undefined when nothing is asked. */
  #confirmation(): ConfirmView | undefined {
    const shown = this.#flow.quote;
    if (!shown) return undefined;
    const { quote, changed } = shown;
    // The service's own words and amounts: a plan's price is the service's to state. Its lines
    // add up to the amount: the new plan for the rest of the period, a credit for the unused
    // part of the current one (written with a real minus sign), any discount.
    const lines = (quote.Details ?? [])
      .filter((line) => line.LabelLocalized)
      .map((line) => ({
        label: line.LabelLocalized ?? '',
        amount: withMinusSign(line.PricingLocalized ?? '', line.AmountTotal ?? 0),
      }));
    // Moving to the current plan again cancels the change scheduled: "Keep Pro?". A downgrade is
    // what the quote says lowers the recurring price and waits for the end of the period.
    const keeping = quote.TypeChange === 'None';
    const downgrade = quote.TypeChange === 'Downgrade' && !quote.IsImmediate;
    const titleKey: MessageKey = keeping
      ? 'plan.dialog.keep'
      : downgrade
        ? 'plan.dialog.downgrade'
        : 'plan.dialog.title';
    const title = quote.TitleLocalized ?? this.#titleOf(quote.ReferenceOffer);
    const offers = this.#catalog.status === 'ready' ? this.#catalog.offers : [];
    const current = offers.find((offer) => offer.IsCurrent);
    const target = offers.find((offer) => offer.ReferenceOffer === quote.ReferenceOffer);
    const lost = downgrade && current && target ? lostFeatures(this, current, target) : undefined;
    const date = unbroken(formatDate(this, quote.DateEffective));
    const discounts =
      this.#catalog.status === 'ready' ? (this.#catalog.subscription.discounts ?? []) : [];
    // Above the plan's list price (after discounts): the customer's use adds to it.
    const listAfterDiscounts = target && discountedPrice(target, discounts);
    const aboveList =
      !keeping &&
      target !== undefined &&
      costsMoreThanCard(quote, target, listAfterDiscounts ?? target.AmountRecurrence);
    // A rise of the recurring price is compared with what the customer pays now.
    const now = current && this.#atUse(current) && this.#cardAmount(current);
    const nextPrice =
      !keeping && current && now !== undefined && quote.NextTerm.AmountTotal > now
        ? message(this, 'plan.dialog.instead', {
            price: unbroken(quote.NextTerm.PricingLocalized),
            current: unbroken(pricePerPeriod(this, current, now)),
          })
        : quote.NextTerm.PricingLocalized;
    // A downgrade: what it takes away; any move: what happens to the use beyond what the new
    // plan includes, to quantities it does not have, and to add-ons.
    const kept =
      !keeping && current && target
        ? keptOnDowngrade(this, { current, target, title }, this.#usages(), {
            ...(quote.IsImmediate ? {} : { date }),
            discounts,
          })
        : [];
    // A change already scheduled for the period's end gives way to this one: said, so that the
    // customer does not expect both.
    const subscription = this.#catalog.status === 'ready' ? this.#catalog.subscription : undefined;
    const scheduled = subscription?.offerAfterTerm;
    const replaced =
      !keeping && scheduled && scheduled !== quote.ReferenceOffer
        ? message(this, 'plan.dialog.replaces', this.#scheduled(subscription))
        : '';
    // Each consequence its own sentence, read as a list.
    const summary = [
      replaced,
      lost ? message(this, 'plan.dialog.loses', { title, features: lost }) : '',
      ...kept,
    ].filter(Boolean);
    const due = quote.AmountTotalDue > 0;
    const confirmLabel = keeping
      ? message(this, 'plan.keep', { title })
      : due
        ? message(this, 'plan.dialog.confirm.pay', { amount: quote.PricingLocalized })
        : quote.IsImmediate
          ? message(this, 'plan.dialog.confirm')
          : message(this, 'plan.dialog.confirm.later', {
              date: formatDate(this, quote.DateEffective),
            });
    // What the new recurring price counts beyond the plan's list price: the discount that moves
    // with the subscription, and the use beyond what the plan includes, named when known.
    const extras = target ? (this.#atUse(target)?.extras ?? []) : [];
    const name = discounts.map((discount) => discount.title).join(', ');
    // With extras and a discount, the whole sum in the order it is counted (as on the card):
    // list prices beside a discounted total would not add up.
    const off =
      target && aboveList && extras.length > 0 && discounts.length
        ? this.#discountOff(target)
        : undefined;
    const note = [
      keeping || !discounts?.length || off ? '' : message(this, 'plan.discount', { name }),
      off && target
        ? message(this, 'plan.dialog.above-card.discounted', {
            title,
            price: pricePerPeriod(this, target),
            extras: extrasText(this, target, extras),
            off: pricePerPeriod(this, target, off),
            name,
            total: pricePerPeriod(this, target, this.#cardAmount(target)),
          })
        : aboveList && extras.length > 0
          ? message(this, 'plan.dialog.above-card.extras', {
              title,
              price: pricePerPeriod(this, target),
              extras: extrasText(this, target, extras),
            })
          : aboveList
            ? message(this, 'plan.dialog.above-card', {
                title,
                price: pricePerPeriod(this, target, this.#cardAmount(target)),
              })
            : '',
    ]
      .filter(Boolean)
      .join(' ');
    // A change for later that costs nothing now leads with the price paid from its date; "$0.00"
    // as a headline would say nothing of what the customer agrees to.
    const later = !keeping && !quote.IsImmediate && !due;
    return {
      title: message(this, titleKey, { title }),
      summary,
      // A plan without some of the current plan's features takes them away: worded and
      // styled as the removal it is, not as a purchase.
      tone: lost ? 'destructive' : undefined,
      changed: changed ? message(this, 'error.price-changed') : undefined,
      quote: later
        ? {
            nowLabel: message(this, 'plan.dialog.from', { date }),
            amount: nextPrice,
            lines: [],
            nextTerm: {
              label: message(this, 'plan.dialog.due-now'),
              price: quote.PricingLocalized,
              note: note || undefined,
            },
            taxes: this.#taxes(),
          }
        : {
            nowLabel: quote.LabelLocalized,
            amount: quote.PricingLocalized,
            lines,
            nextTerm: {
              label: keeping
                ? message(this, 'plan.dialog.keep-price')
                : quote.NextTerm.LabelLocalized,
              price: nextPrice,
              note: note || undefined,
            },
            effective: quote.IsImmediate
              ? undefined
              : message(this, 'plan.dialog.effective', { date }),
            taxes: this.#taxes(),
          },
      applying: this.#flow.underWay,
      cancelLabel: message(this, 'plan.dialog.cancel'),
      confirmLabel,
      onCancel: this.#confirmDialog.cancel,
      onConfirm: () => void this.#flow.confirm(),
    };
  }

  /** Whether the prices include tax, when the business said (its proxy's `taxes` option). */
  #taxes(): string | undefined {
    const catalog = this.#catalog;
    const taxes = catalog.status === 'ready' ? catalog.taxes : undefined;
    return taxes && message(this, `plan.taxes.${taxes}`);
  }

  override render() {
    const catalog = this.#catalog;
    const confirmation = this.#confirmation();
    let body: TemplateResult | typeof nothing;
    if (catalog.status === 'loading') body = this.#renderSkeleton();
    else if (catalog.status === 'error') body = this.#renderLoadError(catalog.error);
    else
      body = html`${this.#renderNotice(catalog.subscription)}
      ${this.#renderOffers(catalog.offers, catalog.prepared, catalog.subscription)}
      ${catalog.taxes ? html`<p class="taxes" part="taxes">${this.#taxes()}</p>` : nothing}`;
    return html`<slot name="heading"></slot> ${body} ${this.#renderStatus()}
      ${this.#renderProblem()}
      ${this.#confirmDialog.render(confirmation ? confirmContent(confirmation) : nothing)}`;
  }
}

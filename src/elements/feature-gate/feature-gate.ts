import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import type { PortalPage } from '../../contract/proxy-api.js';
import type { BillingError } from '../../client/errors.js';
import { BillingEntitlementChangeEvent, BillingErrorEvent } from '../../client/events.js';
import { followLang, message, registerTexts } from '../../client/i18n.js';
import { registerSharedTexts } from '../../client/shared-texts.js';
import type { UsageStore } from '../../client/usage-store.js';
import { UsageStoreController } from '../../client/usage-store-controller.js';
import { CallToAction, failureRemedy, type Remedy } from '../shared/call-to-action.js';
import { remedyPointer } from '../shared/remedy-pointer.js';
import { defineElement } from '../shared/define.js';
import { openRemedy, reloadButton, remedyLabel } from '../shared/remedy.js';
import { seePlans } from '../shared/see-plans.js';
import type { SuggestedPlan } from '../shared/suggested-plan.js';
import { SuggestedPlanLookup } from '../shared/suggested-plan-lookup.js';
import { sharedStyles } from '../shared/styles.js';
import { gateTexts } from './messages.js';

/**
 * What the gate shows: nothing known yet, the content, the fallback, a plan that will include
 * the feature once its checkout is complete, or a failed check.
 */
export type GateState = 'loading' | 'granted' | 'denied' | 'pending' | 'error';

/** Why the content is not shown: the account's state (and a suspension's cause), else the plan's. */
type DeniedKey = 'gate.locked' | 'gate.suspended' | 'gate.suspended.payment-method' | 'gate.none';

/** The brief form of a state whose cause and remedy another element of the region tells. */
const BRIEF: Partial<Record<DeniedKey, 'gate.suspended' | 'gate.none.brief'>> = {
  'gate.suspended.payment-method': 'gate.suspended',
  'gate.none': 'gate.none.brief',
};

const ownStyles = css`
  :host {
    display: contents;
  }
  .message {
    display: flex;
  }
`;

/**
 * Shows its content only when the signed-in customer may use a feature (an on/off feature
 * included and enabled, or room for `min` more units of a quantity), a fallback otherwise, and
 * nothing of either while the usages load. Gating in the browser only hides UI: check on the
 * server too (`isEntitled` of `billing-elements/server`).
 *
 * @tag feature-gate
 * @summary Show a part of the page only to customers whose plan includes a feature.
 *
 * @slot - The gated content, shown only when the customer is entitled.
 * @slot fallback - Shown when the customer is not entitled. Default: "{feature}: not included in your plan; included in Pro." and "Switch to Pro" (the least expensive plan that includes it), else "{feature}: not included in your plan." and a "See plans" button; with a suspended subscription "{feature}: paused while your subscription is suspended." and its remedy (restart, or pay overdue invoices), or, when the payment method no longer works, "{feature}: paused. Your subscription is suspended: your payment method no longer works." and "Update payment method"; without a subscription "{feature}: choose a plan to get started." and "See plans".
 * @slot pending - Shown when the customer's subscription waits for its checkout and its plan includes the feature. Default: "{feature}: starts once your subscription is complete." and a "Complete your subscription" button.
 * @slot loading - Shown while the usages load. Default: nothing.
 *
 * @event billing-entitlement-change - {BillingEntitlementChangeEvent} The entitlement became known or changed (after a purchase, a plan change, a live update). `detail: { feature, entitled, previous }`.
 * @event billing-error - {BillingErrorEvent} The usages could not be loaded. `detail: { error, feature }`.
 * @event billing-remedy - {BillingRemedyEvent} The pending prompt's "Complete your subscription", or a suggested plan's "Switch to Pro" (`detail: { page: 'change-plan', code: 'Error.Api.Usage.NoneMatching', feature, offer }`), was pressed; `preventDefault()` to open it yourself. `detail: { page: 'subscribe', code: 'subscription-pending', feature }`. (See plans opens the plan picker or the portal's `change-plan` page directly.)
 *
 * @csspart prompt - The default fallback: the sentence and its button.
 * @csspart button - The "See plans" button (and "Complete your subscription", "Try again").
 * @csspart remedy - The button that opens the portal workflow that gives access (also `button`).
 * @csspart pointer - Instead of the remedy, when another element of the page region offers it: the "See what to do" link that brings that element into view.
 *
 * @cssproperty --billing-accent - The button and the focus ring.
 * @cssproperty --billing-on-accent - Text on the accent.
 * @cssproperty --billing-radius - Corner radius of the prompt and the button.
 * @cssproperty --billing-space - The spacing unit (4px).
 * @cssproperty --billing-border-color - The prompt's hairline.
 * @cssproperty --billing-font-size - Base font size. Default 1em (inherited).
 * @cssproperty --billing-focus-color - The focus ring's colour (a 2px outline, 2px away). Default the accent.
 * @cssproperty --billing-focus-ring - A box-shadow added to the focus ring. Default none.
 * @cssproperty --billing-duration - Length of the buttons' transitions. Default 180ms (none under reduced motion).
 * @cssproperty --billing-color-scheme - `light` or `dark` forces a color scheme, as `theme` does.
 */
export class FeatureGate extends LitElement {
  static override styles = [sharedStyles, ownStyles];

  static {
    registerSharedTexts();
    registerTexts(gateTexts, { fr: () => import('./messages.fr.js') });
  }

  static override properties = {
    theme: { reflect: true },
    feature: { reflect: true },
    min: { type: Number },
    label: {},
    endpoint: {},
    state: { reflect: true },
  };

  /** Registers the element under `tag`; a no-op when this class already holds it. */
  static define(tag = 'feature-gate', registry: CustomElementRegistry = customElements): void {
    defineElement(tag, this, registry);
  }

  /** The feature (its reference, e.g. `sso`). */
  feature = '';
  /** For a quantity: how many more units must fit in the plan (default 1). Ignored for on/off features. */
  min: number | undefined;
  /** The feature's name in the fallback prompt; defaults to the usage's title, else the reference. */
  label = '';
  /** The billing proxy for this element, overriding the page's `configureBilling({ endpoint })`. */
  endpoint: string | undefined;
  /** `light` or `dark` forces a color scheme; unset, the page's `color-scheme` (see Theming). */
  theme: 'light' | 'dark' | undefined;
  /** Read-only, reflected: `loading`, `granted`, `denied`, `pending` or `error`. */
  state: GateState = 'loading';

  /** The usage store of this element's proxy, followed while connected (loaded when nobody has). */
  readonly #usages = new UsageStoreController(
    this,
    () => this.#evaluate(),
    (store) => {
      this.#evaluate();
      store.load().catch((error: unknown) => {
        const failure = new BillingErrorEvent({
          error: error as BillingError,
          feature: this.feature,
        });
        this.dispatchEvent(failure);
      });
    },
  );
  /** The plan to suggest for a feature the plan lacks, once the offers are read. */
  readonly #suggested = new SuggestedPlanLookup(this);
  #entitled: boolean | undefined;
  /** Offers the prompt's remedy, or leaves it to the element of the region that does. */
  readonly #callToAction = new CallToAction(this);
  /** The remedy the prompt calls for now, and whether this gate offers it (see willUpdate). */
  #remedy: Remedy | undefined;
  #speaks = true;

  constructor() {
    super();
    followLang(this);
  }

  /** Whether the customer may use the feature; undefined until the usages are known. */
  get entitled(): boolean | undefined {
    return this.#entitled;
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    // Another proxy: its store is followed (and loaded) from this first read of it.
    if (changed.has('feature') || changed.has('min') || changed.has('endpoint')) this.#evaluate();
    this.#remedy = this.#promptRemedy();
    this.#speaks = this.#callToAction.offer(this.#remedy);
  }

  /** The remedy of the default prompt shown, if any (the host's own fallback claims none). */
  #promptRemedy(): Remedy | undefined {
    const slot = this.state === 'pending' ? 'pending' : 'fallback';
    if (this.querySelector(`:scope > [slot="${slot}"]`)) return undefined;
    switch (this.state) {
      case 'pending':
        return 'subscribe';
      case 'error':
        return failureRemedy(this.#store?.state.error?.code);
      case 'denied':
        return this.#deniedKey().startsWith('gate.suspended')
          ? this.#suspendedRemedy()[0]
          : 'plans';
      default:
        return undefined;
    }
  }

  /** The store of this element's proxy while the gate follows it (connected); undefined otherwise. */
  get #store(): UsageStore | undefined {
    return this.isConnected ? this.#usages.store : undefined;
  }

  /** Decides from the store's usages, and says when the answer changed. */
  #evaluate(): void {
    const store = this.#store;
    if (!store) return;
    const { status } = store.state;
    const known = status === 'ready';
    if (!known) {
      this.state = status === 'error' ? 'error' : 'loading';
      return;
    }
    const entitled = this.feature !== '' && store.isEntitled(this.feature, this.min ?? 1);
    // A plan whose checkout is not complete has no usages yet: the feature is not missing from
    // it, it starts with it (as the meters say), and the way on is to complete the checkout.
    this.state = entitled ? 'granted' : this.#pendingTerms() ? 'pending' : 'denied';
    const previous = this.#entitled;
    if (previous === entitled) return;
    this.#entitled = entitled;
    const changed = new BillingEntitlementChangeEvent({
      feature: this.feature,
      entitled,
      previous,
    });
    this.dispatchEvent(changed);
  }

  /** The pending plan's terms of the feature, when its checkout waits and the plan includes it. */
  #pendingTerms() {
    const state = this.#store?.state;
    if (state?.subscription !== 'pending') return undefined;
    const terms = state.pendingFeatures.find((terms) => terms.ReferenceFeature === this.feature);
    // An on/off feature the plan lists as not included stays "not included".
    return terms && terms.IsIncluded !== false ? terms : undefined;
  }

  #featureLabel(): string {
    return (
      this.label ||
      this.#store?.get(this.feature)?.TitleLocalized ||
      this.#pendingTerms()?.TitleLocalized ||
      this.feature
    );
  }

  /** Why the content is not shown, in the prompt's words: the account's state, else the plan's. */
  #deniedKey(): DeniedKey {
    const subscription = this.#store?.state.subscription;
    if (subscription === 'suspended')
      return this.#suspendedRemedy()[0] === 'register'
        ? 'gate.suspended.payment-method'
        : 'gate.suspended';
    if (subscription === 'none' || subscription === 'ended') return 'gate.none';
    return 'gate.locked';
  }

  /**
   * The suspended prompt's remedy and its code: pay the overdue invoices that block a restart,
   * add a valid payment method when the one on file no longer works, else restart.
   */
  #suspendedRemedy(): ['pay-invoice' | 'register' | 'restart', string] {
    const state = this.#store?.state;
    if (state?.paymentCappingReached === true)
      return ['pay-invoice', 'Error.Customer.Billing.CappingReached'];
    if (state?.suspensionReason === 'payment-method-invalid')
      return ['register', 'payment-method-invalid'];
    return ['restart', 'subscription-suspended'];
  }

  /** A button that opens the portal's `page`, the remedy of `code` (moving to `offer`, if set). */
  #renderRemedy(page: PortalPage, code: string, label: string, offer?: string): TemplateResult {
    return html`<button
      type="button"
      class="secondary"
      part="button remedy"
      @click=${(event: Event) =>
        void openRemedy(this, page, code, event.currentTarget as Element, offer)}
    >
      ${label}
    </button>`;
  }

  #renderSuspendedRemedy(): TemplateResult {
    const [page, code] = this.#suspendedRemedy();
    return this.#renderRemedy(page, code, remedyLabel(this, page, code));
  }

  /**
   * The least expensive plan that includes the feature, asked of the store's offers on first
   * need (undefined until they are read, or when no plan includes it).
   */
  #suggestedPlan(): SuggestedPlan | undefined {
    return this.#store && this.#suggested.of(this.#store, this.feature);
  }

  #renderPrompt(
    key: DeniedKey | 'gate.pending' | 'gate.unknown' | 'gate.session-changed',
  ): TemplateResult {
    // The pending prompt is a step ahead, not a refusal: the calm dashed box of the meters'.
    const kind = key === 'gate.pending' ? 'pending' : 'prompt';
    const remedy = this.#remedy;
    // The sentence names the plan that includes the feature even when another element of the
    // region offers the switch (as the meters do); only a gate that speaks offers the button.
    const named = key === 'gate.locked' ? this.#suggestedPlan() : undefined;
    const plan = this.#speaks ? named : undefined;
    const label = this.#featureLabel();
    // A gate that points to the element that speaks says the state in brief; that one says why.
    const brief = remedy && !this.#speaks ? BRIEF[key as DeniedKey] : undefined;
    return html`<div class="message" part="prompt" data-kind=${kind}>
      <p>
        ${
          named
            ? message(this, 'state.not-in-plan.suggest', { label, plan: named.title })
            : brief === 'gate.none.brief'
              ? // Without a plan, the region's "Choose a plan to get started" says why for
                // every gate: the feature's name, the state kept for screen readers.
                html`<span aria-hidden="true">${label}</span
                  ><span class="visually-hidden">${message(this, brief, { label })}</span>`
              : message(this, brief ?? key, { label })
        }
      </p>
      ${
        remedy && !this.#speaks
          ? // Another element of the page offers the remedy: this prompt points to it.
            remedyPointer(this, this.#callToAction, remedy)
          : key === 'gate.pending'
            ? this.#renderRemedy(
                'subscribe',
                'subscription-pending',
                message(this, 'remedy.subscribe'),
              )
            : key.startsWith('gate.suspended')
              ? this.#renderSuspendedRemedy()
              : key === 'gate.none'
                ? // Without a plan, the way in: the portal's offers (the meters' "Choose a plan").
                  this.#renderRemedy('offers', 'no-subscription', message(this, 'remedy.offers'))
                : plan
                  ? this.#renderRemedy(
                      'change-plan',
                      'Error.Api.Usage.NoneMatching',
                      message(this, 'remedy.change-plan.to', { plan: plan.title }),
                      plan.offer,
                    )
                  : key === 'gate.locked'
                    ? html`<button
                        type="button"
                        class="secondary"
                        part="button"
                        @click=${(event: Event) => void seePlans(this, event.currentTarget as Element)}
                      >
                        ${message(this, 'gate.upgrade')}
                      </button>`
                    : key === 'gate.session-changed'
                      ? reloadButton(this)
                      : html`<button
                          type="button"
                          class="secondary"
                          part="button"
                          @click=${() => void this.#store?.refresh().catch(() => undefined)}
                        >
                          ${message(this, 'retry')}
                        </button>`
      }
    </div>`;
  }

  override render() {
    switch (this.state) {
      case 'granted':
        return html`<slot></slot>`;
      case 'denied':
        return html`<slot name="fallback">${this.#renderPrompt(this.#deniedKey())}</slot>`;
      case 'pending':
        return html`<slot name="pending">${this.#renderPrompt('gate.pending')}</slot>`;
      case 'error':
        return html`<slot name="fallback"
          >${this.#renderPrompt(
            this.#store?.state.error?.code === 'session-changed'
              ? 'gate.session-changed'
              : 'gate.unknown',
          )}</slot
        >`;
      default:
        return html`<slot name="loading">${nothing}</slot>`;
    }
  }
}

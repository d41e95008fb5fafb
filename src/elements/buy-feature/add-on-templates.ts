import { html, nothing, type TemplateResult } from 'lit';
import { errorMessage, message } from '../../client/i18n.js';
import type { ConfirmView } from '../shared/confirm-dialog.js';
import type { RemedyHost } from '../shared/remedy.js';
import { seePlans } from '../shared/see-plans.js';
import { statusRegion } from '../shared/status.js';
import type { AddOnController } from './add-on-controller.js';
import {
  alertRegion,
  isAccountState,
  problemBox,
  type ProblemCallToAction,
} from './outcome-templates.js';
import { priceRegion, pricingQuote } from './price-templates.js';
import { termPrice } from './wording.js';

// How <buy-feature> draws its add-on mode (add-on-controller.ts tells the standings): a sentence
// that says where the feature stands, the price of the switch when there is one, and the one
// action that fits (Add, Remove, See plans); its progress, outcome and refusals; and the
// confirmation dialog's content for adding or removing.

/** The sentence of a standing without a price: owned, included, or sold with another plan. */
function standingText(host: Element, addOn: AddOnController, label: string): string {
  switch (addOn.standing) {
    case 'owned':
      return message(host, 'buy.add-on.owned', { label });
    case 'included':
      return message(host, 'buy.add-on.included', { label });
    case 'elsewhere': {
      const plan = addOn.plan;
      return plan
        ? message(host, 'buy.add-on.elsewhere', {
            label,
            plan: plan.TitleLocalized ?? plan.ReferenceOffer,
          })
        : message(host, 'buy.add-on.elsewhere.unnamed', { label });
    }
    default:
      return '';
  }
}

/**
 * Remove for a feature switched on, Add otherwise (and while it is not known yet); unavailable
 * until the switch is allowed (an addition priced, an add-on known to be owned). Two templates,
 * not one restyled: a button never fades from one look into the other.
 */
function switchButton(host: Element, addOn: AddOnController, label: string): TemplateResult {
  const disabled = addOn.busy || !addOn.canChange;
  const change = () => void addOn.change();
  const state = addOn.preview.state;
  const switchedOn = addOn.usage?.IsEnabled === true;
  if (switchedOn || (state.status !== 'idle' && state.args === false)) {
    return html`<button
      type="button"
      class="secondary"
      part="button remove"
      aria-disabled=${disabled}
      @click=${change}
    >
      <slot name="buy-label">${message(host, 'buy.add-on.remove', { label })}</slot>
    </button>`;
  }
  return html`<button
    type="button"
    class="primary"
    part="button buy add"
    aria-disabled=${disabled}
    @click=${change}
  >
    <slot name="buy-label">${message(host, 'buy.add-on.add', { label })}</slot>
  </button>`;
}

/**
 * The add-on's panel: where it stands, the price of adding it, and its action. An owned add-on
 * shows no price: what removing it costs is the removal's confirmation's to say.
 */
export function addOnPanel(
  host: RemedyHost,
  addOn: AddOnController,
  label: string,
  callToAction: Pick<ProblemCallToAction, 'speaks' | 'pointer'>,
) {
  const standing = addOn.standing;
  const text = standingText(host, addOn, label);
  let action: TemplateResult | typeof nothing = nothing;
  if (standing !== 'included' && standing !== 'elsewhere') {
    action = switchButton(host, addOn, label);
  } else if (standing === 'elsewhere' && !callToAction.speaks) {
    // Another element of the page offers the plans: this one points to it.
    action = callToAction.pointer;
  } else if (standing === 'elsewhere') {
    action = html`<button
      type="button"
      class="primary"
      part="button see-plans"
      @click=${(event: Event) =>
        void seePlans(host, event.currentTarget as Element, addOn.plan?.ReferenceOffer)}
    >
      ${message(host, 'buy.add-on.see-plans')}
    </button>`;
  }
  const switchedOn = addOn.usage?.IsEnabled === true;
  const priced = standing === 'available' || (standing === 'unknown' && !switchedOn);
  return html`<div class="add-on" part="add-on" data-standing=${standing} aria-busy=${addOn.busy}>
    ${text ? html`<p class="add-on-text" part="add-on-text">${text}</p>` : nothing}
    ${priced ? priceRegion(host, addOn.preview.state, (enabled) => (enabled ? 1 : -1)) : nothing}
    ${action}
  </div>`;
}

/** The status region: the change under way, then its outcome. */
export function addOnStatus(host: Element, addOn: AddOnController, label: string) {
  const { success, underWay, quote } = addOn;
  let text = '';
  if (underWay) {
    // A resumed change says which way it goes once the quote is known; else "checking".
    const enabling = quote?.enabled ?? addOn.failure?.pending?.enabled;
    text =
      enabling === false
        ? message(host, 'buy.add-on.removing', { label })
        : enabling === true
          ? message(host, 'buy.add-on.adding', { label })
          : message(host, 'buy.resuming');
  } else if (success) {
    const added = success.usage.IsEnabled === true;
    text = message(host, added ? 'buy.add-on.added' : 'buy.add-on.removed', { label });
  }
  return statusRegion(text, success !== undefined && !underWay);
}

/** The alert region: a refusal of the price or of the change, with its remedy or retry. */
export function addOnProblem(
  host: RemedyHost,
  addOn: AddOnController,
  callToAction: ProblemCallToAction,
) {
  const error = addOn.error;
  if (!error || error.code === 'aborted') return alertRegion(nothing, false);
  const text = addOn.failure?.pending
    ? message(host, 'buy.add-on.outcome-unknown')
    : errorMessage(host, error.code, 'error.generic');
  const problem = problemBox(host, error, text, {
    canRetry: addOn.canRetry,
    retry: () => void addOn.retry(),
    ...callToAction,
  });
  return alertRegion(problem, isAccountState(error, callToAction.acted));
}

/** The dialog's content for adding or removing, or undefined when nothing is to confirm. */
export function addOnConfirmation(
  host: Element,
  addOn: AddOnController,
  label: string,
  actions: Pick<ConfirmView, 'onCancel' | 'onConfirm'>,
): ConfirmView | undefined {
  const quote = addOn.quote;
  if (!quote) return undefined;
  const { enabled, pricing } = quote;
  const nextTerm = pricing.NextTerm;
  const changed = quote.changed ? message(host, `error.${quote.changed}`) : undefined;
  const common = {
    changed,
    applying: addOn.underWay,
    cancelLabel: message(host, 'buy.dialog.cancel'),
  };
  if (!enabled) {
    // A removal takes something away: its consequence is the headline (the add-on ends now,
    // nothing billed is refunded), the lower recurring price is the figure, and the button
    // says "Remove Priority support" in the critical colour. Nothing is due now: no "$0.00".
    const priced = pricingQuote(host, pricing, -1);
    return {
      ...common,
      title: message(host, 'buy.add-on.dialog.remove', { label }),
      summary: message(host, 'buy.add-on.dialog.remove-kept', { label }),
      tone: 'destructive',
      quote: nextTerm
        ? {
            nowLabel: message(host, 'buy.price.next'),
            amount: termPrice(host, nextTerm, pricing.Currency),
            lines: [],
          }
        : priced,
      confirmLabel: message(host, 'buy.add-on.remove', { label }),
      ...actions,
    };
  }
  const priced = pricingQuote(host, pricing, 1);
  return {
    ...common,
    title: message(host, 'buy.add-on.dialog.add', { label }),
    quote: priced,
    confirmLabel:
      pricing.AmountTotal > 0
        ? message(host, 'buy.dialog.confirm.pay', { amount: priced.amount })
        : message(host, 'buy.add-on.add', { label }),
    ...actions,
  };
}

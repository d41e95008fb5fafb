import { html, nothing, type TemplateResult } from 'lit';
import type { BillingError } from '../../client/errors.js';
import { errorMessage, formatNumber, message, type MessageKey } from '../../client/i18n.js';
import { remedyFor } from '../../client/portal.js';
import { remedyOfPage, type Remedy } from '../shared/call-to-action.js';
import { openRemedy, reloadButton, remedyLabel, type RemedyHost } from '../shared/remedy.js';
import { statusRegion } from '../shared/status.js';
import type { SuggestedPlan } from '../shared/suggested-plan.js';
import type { PurchaseController } from './purchase-controller.js';
import { limitNamedIn, quantityRefusal, refusalText } from './refusal.js';
import { countedSentence, type FeatureNames } from './wording.js';

// How <buy-feature> tells where a purchase stands: its progress and success in a status
// region, its failures and the price preview's in an alert region, with the action that helps.

/**
 * The status region: the purchase under way, then its success. `names` name the feature in the
 * customer's words ("You now have 7 seats").
 */
export function purchaseStatus(
  host: Element,
  purchase: PurchaseController,
  names: FeatureNames,
): TemplateResult {
  const { success, underWay, phase } = purchase;
  let text = '';
  if (underWay) {
    text = message(host, phase === 'resuming' ? 'buy.resuming' : 'buy.applying');
  } else if (success) {
    // A purchase raises the current quantity; the service bills what goes past the included one.
    const quantity = success.usage.QuantityCurrent ?? 0;
    text = countedSentence(host, quantity, names, 'buy.success', 'buy.success.named');
    if (!success.amountConfirmed) text += ` ${message(host, 'buy.success.unconfirmed')}`;
  }
  return statusRegion(text, success !== undefined && !underWay);
}

/** The problem of a purchase or of its price, with its remedy (see problemBox). */
export function problemRegion(
  host: RemedyHost,
  purchase: PurchaseController,
  names: FeatureNames,
  callToAction: ProblemCallToAction,
): TemplateResult {
  const { error } = purchase;
  if (!error || error.code === 'aborted') return alertRegion(nothing, false);
  const problem = problemBox(host, error, problemText(host, purchase, error, names), {
    canRetry: purchase.canRetry,
    retry: () => void purchase.retry(),
    ...callToAction,
  });
  return alertRegion(problem, isAccountState(error, callToAction.acted));
}

/**
 * Whether a problem is a state of the account met on load (a refused price with a portal
 * remedy) rather than a failure or a refusal of what the customer did.
 */
export function isAccountState(error: BillingError, acted: boolean): boolean {
  return !acted && remedyFor(error.code) !== undefined;
}

/**
 * The alert region, always in place so that a problem appearing in it is announced; a state of
 * the account is no alarm: it sits beside the region, read in its place.
 */
export function alertRegion(
  problem: TemplateResult | typeof nothing,
  state: boolean,
): TemplateResult {
  return html`<div role="alert">${state ? nothing : problem}</div>
    ${state ? problem : nothing}`;
}

/**
 * Where the remedy of a problem is offered (call-to-action.ts): `acted` when the customer's own
 * action was refused (answered here, as an error), else `speaks` when this element offers the
 * remedy of its region; otherwise `pointer` is the link to the one that does.
 */
export interface ProblemCallToAction {
  acted: boolean;
  speaks: boolean;
  pointer: TemplateResult | typeof nothing;
  /** A plan lacking the feature: the least expensive one that includes it, named with its switch. */
  plan?: SuggestedPlan | undefined;
  /**
   * A price the service cannot quote yet (no payment method): the plan's price per unit, so the
   * customer knows what the remedy leads to.
   */
  unitPrice?: string | undefined;
}

/** The remedy a problem calls for: the portal workflow that fixes it, else "Try again" if it helps. */
export function remedyOf(error: BillingError, canRetry: boolean): Remedy | undefined {
  if (error.code === 'session-changed') return 'reload';
  const page = remedyFor(error.code);
  if (page) return remedyOfPage(page);
  return canRetry ? 'retry' : undefined;
}

/**
 * A problem in words, with the portal workflow that fixes it, else "Try again" if it can help.
 * For both modes of <buy-feature>: `text` says the problem, `retry` sends again. A state met on
 * load (a refused price) is calm, its remedy offered once per region; a refusal of what the
 * customer did is an error, with its remedy here.
 */
export function problemBox(
  host: RemedyHost,
  error: BillingError,
  text: string,
  {
    canRetry,
    retry,
    acted,
    speaks,
    pointer,
    plan,
    unitPrice,
  }: { canRetry: boolean; retry: () => void } & ProblemCallToAction,
): TemplateResult {
  const { code } = error;
  const page = remedyFor(code);
  // The plan to suggest, only where the plan lacks the feature.
  const suggested = page === 'change-plan' ? plan : undefined;
  const remedy = remedyOf(error, canRetry);
  const price = unitPrice
    ? html`<p class="unit-price" part="unit-price">${unitPrice}</p>`
    : nothing;
  // Without a subscription nothing is "not included in your plan": there is no plan yet. A
  // payment method is needed (none on file) or needs replacing (it no longer works): the cause
  // picks the words, as it picks the remedy's ("Add a payment method", "Update payment method").
  let waits = `buy.waits.${remedy}` as MessageKey;
  if (remedy === 'plans' && page === 'offers') waits = 'buy.waits.none';
  else if (remedy === 'register' && code === 'payment-method-invalid')
    waits = 'buy.waits.register.update';
  if (!acted && !speaks && remedy) {
    // Without a plan, the region's "Choose a plan to get started" says why for every control:
    // the words stay for screen readers, which reach each control on its own. A failure another
    // element offers to retry is said in the words of its code, as that element says it ("Too
    // many requests…" for `rate-limited`): "Billing could not be reached." only when the proxy
    // was not reached.
    const said =
      remedy === 'retry' && code !== 'network'
        ? errorMessage(host, code, 'error.generic')
        : message(host, waits);
    const words =
      waits === 'buy.waits.none' ? html`<span class="visually-hidden">${said}</span>` : said;
    return html`${price}
      <p class="waits" part="waits">${words}${pointer}</p>`;
  }
  let action: TemplateResult | typeof nothing = nothing;
  if (page) {
    action = html`<button
      type="button"
      class="secondary"
      part="button remedy"
      @click=${(event: Event) =>
        void openRemedy(host, page, code, event.currentTarget as HTMLElement, suggested?.offer)}
    >
      ${
        suggested
          ? message(host, 'remedy.change-plan.to', { plan: suggested.title })
          : remedyLabel(host, page, code)
      }
    </button>`;
  } else if (remedy === 'reload') {
    action = reloadButton(host);
  } else if (canRetry) {
    action = html`<button type="button" class="secondary" part="button retry" @click=${retry}>
      ${message(host, 'retry')}
    </button>`;
  }
  // A state of the account met on load (a plan to choose, a checkout to complete, invoices to
  // settle) is a step still ahead, not a failure: said in the calm look of the meters' empty
  // states, without the alarm tint, until the customer tries something it refuses.
  const calm = isAccountState(error, acted) ? 'calm' : nothing;
  return html`${price}
    <div class="problem" part="error" data-tone=${calm}>
      <p>
        ${suggested ? message(host, 'error.not-in-plan.suggest', { plan: suggested.title }) : text}
      </p>
      ${action}
    </div>`;
}

function problemText(
  host: RemedyHost,
  purchase: PurchaseController,
  error: BillingError,
  names: FeatureNames,
): string {
  const { failure } = purchase;
  if (failure?.pending) return message(host, 'buy.outcome-unknown');
  if (failure && error.code === 'upstream-error') return message(host, 'buy.outcome-unverifiable');
  if (error.code === 'validation') {
    // One text per cause of a refused quantity.
    const cause = quantityRefusal(error, purchase.pricedIncrement ?? 0);
    // The proxy's refusal names its limit per purchase ("between 1 and 10000"): said with it.
    const max = cause === 'at-once' ? limitNamedIn(error) : undefined;
    if (max !== undefined)
      return message(host, 'buy.refused.at-once.max', { max: formatNumber(host, max) });
    return message(host, refusalText(cause), { label: names.title });
  }
  return errorMessage(host, error.code, 'error.generic');
}

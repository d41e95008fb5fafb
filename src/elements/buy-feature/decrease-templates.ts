import { html, nothing, type TemplateResult } from 'lit';
import { errorMessage, formatNumber, message } from '../../client/i18n.js';
import type { ConfirmView } from '../shared/confirm-dialog.js';
import type { RemedyHost } from '../shared/remedy.js';
import { statusRegion } from '../shared/status.js';
import type { DecreaseController } from './decrease-controller.js';
import {
  alertRegion,
  isAccountState,
  problemBox,
  type ProblemCallToAction,
} from './outcome-templates.js';
import { pricingQuote } from './price-templates.js';
import { capitalized, countedSentence, termPrice, type FeatureNames } from './wording.js';

// How <buy-feature allow-decrease> draws a decrease (decrease-controller.ts): a row under the
// form that says how many can be removed and the Remove button for the quantity chosen; its
// progress and outcome; its refusals; and the confirmation dialog's content.

/**
 * The decrease row: how many the customer has and can remove, and "Remove 2 seats" for the
 * quantity chosen, unavailable when that is more than can be removed. Nothing when there is
 * nothing to remove (the floor is reached) and no decrease is under way.
 */
export function decreaseRow(
  host: Element,
  decrease: DecreaseController,
  names: FeatureNames,
  { count, busy, onRemove }: { count: number; busy: boolean; onRemove: () => void },
): TemplateResult | typeof nothing {
  const removable = decrease.removable;
  if (removable <= 0 && !decrease.busy) return nothing;
  const counted = Number.isInteger(count) && count > 0;
  const label = counted
    ? countedSentence(host, count, names, 'buy.decrease.remove', 'buy.decrease.remove.named')
    : message(host, 'buy.decrease.remove.any');
  const room = message(host, 'buy.decrease.room', {
    label: capitalized(names.title),
    current: formatNumber(host, decrease.usage?.QuantityCurrent ?? 0),
    removable: formatNumber(host, removable),
  });
  return html`<div class="decrease" part="decrease" aria-busy=${decrease.busy}>
    <p class="decrease-text" part="decrease-text" id="decrease-room">${room}</p>
    <button
      type="button"
      class="secondary"
      part="button remove"
      aria-describedby="decrease-room"
      aria-disabled=${busy || !decrease.canRemove(count)}
      @click=${onRemove}
    >
      <slot name="remove-label">${label}</slot>
    </button>
  </div>`;
}

/** The status region's text for a decrease under way or done; empty when there is none. */
export function decreaseStatusText(
  host: Element,
  decrease: DecreaseController,
  names: FeatureNames,
): string {
  const { success, underWay, phase } = decrease;
  if (underWay)
    return message(host, phase === 'resuming' ? 'buy.resuming' : 'buy.decrease.applying');
  if (!success) return '';
  const quantity = success.usage.QuantityCurrent ?? 0;
  return countedSentence(host, quantity, names, 'buy.success', 'buy.success.named');
}

/** The status region of a decrease. */
export function decreaseStatus(
  host: Element,
  decrease: DecreaseController,
  names: FeatureNames,
): TemplateResult {
  const text = decreaseStatusText(host, decrease, names);
  return statusRegion(text, decrease.success !== undefined && !decrease.underWay);
}

/** The alert region: a refused or failed decrease, with "Try again" when it helps. */
export function decreaseProblem(
  host: RemedyHost,
  decrease: DecreaseController,
  callToAction: ProblemCallToAction,
): TemplateResult {
  const error = decrease.error;
  if (!error || error.code === 'aborted') return alertRegion(nothing, false);
  const text = decrease.failure?.pending
    ? message(host, 'buy.decrease.outcome-unknown')
    : errorMessage(host, error.code, 'error.generic');
  // The customer pressed Remove: whatever refuses it is theirs to read here.
  const acted = { ...callToAction, acted: true };
  const problem = problemBox(host, error, text, {
    canRetry: decrease.canRetry,
    retry: () => void decrease.retry(),
    ...acted,
  });
  return alertRegion(problem, isAccountState(error, true));
}

/**
 * The dialog's content for a decrease: a removal, worded and styled as one. Its headline is what
 * changes now (from 7 to 5 seats, and that nothing is credited for the current period, when the
 * service credits nothing); its figure the new recurring price; its button "Remove 2 seats" in
 * the critical colour. A service that credits something now shows it as "Credited now".
 */
export function decreaseConfirmation(
  host: Element,
  decrease: DecreaseController,
  names: FeatureNames,
  actions: Pick<ConfirmView, 'onCancel' | 'onConfirm'>,
): ConfirmView | undefined {
  const quote = decrease.quote;
  if (!quote) return undefined;
  const { from, quantity, pricing } = quote;
  const count = from - quantity;
  const figures = {
    label: capitalized(names.title),
    from: formatNumber(host, from),
    to: formatNumber(host, quantity),
  };
  const credited = pricing.AmountTotal < 0;
  const nextTerm = pricing.NextTerm;
  // Every unit removed was within the plan's included quantity: the recurring price stays.
  const unchanged = from <= (decrease.usage?.QuantityIncluded ?? 0);
  const remove = countedSentence(
    host,
    count,
    names,
    'buy.decrease.remove',
    'buy.decrease.remove.named',
  );
  return {
    title: message(host, 'buy.decrease.dialog.title', { action: remove }),
    summary: message(
      host,
      credited ? 'buy.decrease.dialog.effect.credited' : 'buy.decrease.dialog.effect',
      figures,
    ),
    tone: 'destructive',
    changed: quote.changed ? message(host, `error.${quote.changed}`) : undefined,
    quote:
      nextTerm && !credited
        ? {
            nowLabel: message(host, unchanged ? 'buy.price.unchanged' : 'buy.price.next'),
            amount: termPrice(host, nextTerm, pricing.Currency),
            lines: [],
          }
        : pricingQuote(host, pricing, -count),
    applying: decrease.underWay,
    cancelLabel: message(host, 'buy.dialog.cancel'),
    confirmLabel: remove,
    ...actions,
  };
}

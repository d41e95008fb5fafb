import { html, nothing, type TemplateResult } from 'lit';
import type { BillingError } from '../../client/errors.js';
import { errorMessage, formatNumber, message, type MessageKey } from '../../client/i18n.js';
import { remedyFor } from '../../client/portal.js';
import { openRemedy, type RemedyHost } from '../shared/remedy.js';
import { statusRegion } from '../shared/status.js';
import type { PurchaseController } from './purchase-controller.js';
import { quantityRefusal, refusalText } from './refusal.js';
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
    text = countedSentence(
      host,
      quantity,
      names,
      'buy.success',
      'buy.success.named',
      formatNumber(host, quantity),
    );
    if (!success.amountConfirmed) text += ` ${message(host, 'buy.success.unconfirmed')}`;
  }
  return statusRegion(text, success !== undefined && !underWay);
}

/** Refusals that ask the customer for a next step rather than report something wrong. */
const CALM_CODES: ReadonlySet<string> = new Set(['subscription-pending', 'no-subscription']);

/** The alert region, always in place so that a problem appearing in it is announced. */
export function problemRegion(
  host: RemedyHost,
  purchase: PurchaseController,
  names: FeatureNames,
): TemplateResult {
  const { error } = purchase;
  const problem =
    error && error.code !== 'aborted'
      ? problemBox(host, error, problemText(host, purchase, error, names), {
          canRetry: purchase.canRetry,
          retry: () => void purchase.retry(),
        })
      : nothing;
  return html`<div role="alert">${problem}</div>`;
}

/**
 * A problem in words, with the portal workflow that fixes it, else "Try again" if it can help.
 * For both modes of <buy-feature>: `text` says the problem, `retry` sends again.
 */
export function problemBox(
  host: RemedyHost,
  error: BillingError,
  text: string,
  { canRetry, retry }: { canRetry: boolean; retry: () => void },
): TemplateResult {
  const { code } = error;
  const page = remedyFor(code);
  let action: TemplateResult | typeof nothing = nothing;
  if (page) {
    action = html`<button
      type="button"
      class="secondary"
      part="button remedy"
      @click=${(event: Event) =>
        void openRemedy(host, page, code, event.currentTarget as HTMLElement)}
    >
      ${message(host, `remedy.${page}` as MessageKey)}
    </button>`;
  } else if (canRetry) {
    action = html`<button type="button" class="secondary" part="button retry" @click=${retry}>
      ${message(host, 'retry')}
    </button>`;
  }
  // A subscription to complete or to choose is a step still ahead, not a failure: said in the
  // calm look of the meters' empty states, without the alarm tint.
  const calm = CALM_CODES.has(code) ? 'calm' : nothing;
  return html`<div class="problem" part="error" data-tone=${calm}>
    <p>${text}</p>
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
    const max =
      cause === 'at-once' ? /between -?\d+ and (\d+)/.exec(error.message)?.[1] : undefined;
    if (max)
      return message(host, 'buy.refused.at-once.max', { max: formatNumber(host, Number(max)) });
    return message(host, refusalText(cause), { label: names.title });
  }
  return errorMessage(host, error.code, 'error.generic');
}

import { html, nothing, type TemplateResult } from 'lit';
import type { PricingResponse } from '../../contract/proxy-api.js';
import { message } from '../../client/i18n.js';
import type { QuoteView } from '../shared/confirm-dialog.js';
import type { LatestTaskState } from '../shared/latest-task.js';
import { money, termPrice } from './wording.js';

// How <buy-feature> shows a price quoted by the service, in the page's language: its own words
// for the labels, the amounts formatted with Intl from the service's amounts and currency; only
// the service's breakdown lines keep its labels (asked in the page's language). Everything is
// rendered as text, never as markup.

/** The words of the immediate price: what is paid, nothing, or what is credited. */
function nowLabel(host: Element, pricing: PricingResponse): string {
  const amount = pricing.AmountTotal;
  return message(
    host,
    amount > 0 ? 'buy.price.due-now' : amount < 0 ? 'buy.price.credit' : 'buy.price.no-charge',
  );
}

/**
 * Whether the recurring price stays as it is. The proxy says a change is free overall
 * (`confirmationRequired: false`) only when its next term costs no more than today's; adding
 * units never lowers it, so for an addition that is "unchanged".
 */
function recurringUnchanged(pricing: PricingResponse, increment: number): boolean {
  return pricing.confirmationRequired === false && increment > 0;
}

function nextLabel(host: Element, pricing: PricingResponse, increment: number): string {
  return message(
    host,
    recurringUnchanged(pricing, increment) ? 'buy.price.unchanged' : 'buy.price.next',
  );
}

/**
 * The live preview: the immediate cost, and the next term's price when the service gives it (an
 * unchanged one says so without showing it again: the dialog shows it, and a phone's row keeps
 * one line; its value stays in the list for assistive technology, so the term has its value).
 */
export function previewLines(
  host: Element,
  pricing: PricingResponse,
  increment: number,
): TemplateResult {
  const nextTerm = pricing.NextTerm;
  return html`<dl>
    <div class="line now" part="price-now">
      <dt>${nowLabel(host, pricing)}</dt>
      <dd>${money(host, pricing.AmountTotal, pricing.Currency)}</dd>
    </div>
    ${
      nextTerm
        ? html`<div class="line next" part="price-next">
            <dt>${nextLabel(host, pricing, increment)}</dt>
            <dd class=${recurringUnchanged(pricing, increment) ? 'visually-hidden' : nothing}>
              ${termPrice(host, nextTerm, pricing.Currency)}
            </dd>
          </div>`
        : nothing
    }
  </dl>`;
}

/**
 * The live price preview's region: a placeholder of the price's size (announced as being
 * calculated) while it is asked, its lines once known, nothing otherwise. `increment` tells the
 * lines which way the change goes (units added; an add-on added is 1, removed -1).
 */
export function priceRegion<Args>(
  host: Element,
  state: LatestTaskState<Args, PricingResponse>,
  increment: (args: Args) => number,
): TemplateResult {
  const pending = state.status === 'pending';
  let content: unknown = nothing;
  if (pending) {
    content = html`<div class="bars" aria-hidden="true">
        <span class="skeleton"></span><span class="skeleton"></span>
      </div>
      <span class="visually-hidden">${message(host, 'buy.calculating')}</span>`;
  } else if (state.status === 'complete') {
    content = previewLines(host, state.value, increment(state.args));
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

/**
 * The dialog's price block (shared/confirm-dialog.ts draws it): the immediate price, the
 * service's breakdown of it (prorated units, discounts) when it gives one, the next term, and
 * whether these prices include tax when the business said.
 */
export function pricingQuote(
  host: Element,
  pricing: PricingResponse,
  increment: number,
): QuoteView {
  const nextTerm = pricing.NextTerm;
  const lines = (pricing.Details ?? [])
    .filter((line) => line.LabelLocalized)
    .map((line) => ({
      label: line.LabelLocalized ?? '',
      amount:
        line.AmountTotal === undefined
          ? (line.PricingLocalized ?? '')
          : money(host, line.AmountTotal, pricing.Currency),
    }));
  return {
    nowLabel: nowLabel(host, pricing),
    amount: money(host, pricing.AmountTotal, pricing.Currency),
    lines,
    nextTerm: nextTerm && {
      label: nextLabel(host, pricing, increment),
      price: termPrice(host, nextTerm, pricing.Currency),
    },
    taxes: pricing.taxes && message(host, `buy.taxes.${pricing.taxes}`),
  };
}

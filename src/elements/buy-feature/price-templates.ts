import { html, nothing, type TemplateResult } from 'lit';
import type { PricingResponse } from '../../contract/proxy-api.js';

// How <buy-feature> shows a price quoted by the service: its labels and formatted amounts as
// the service wrote them, in the customer's language, rendered as text (never as markup).

/** The live preview: the immediate cost, and the next term's price when the service gives it. */
export function previewLines(pricing: PricingResponse): TemplateResult {
  const nextTerm = pricing.NextTerm;
  return html`<dl>
    <div class="line now" part="price-now">
      <dt>${pricing.LabelLocalized}</dt>
      <dd>${pricing.PricingLocalized}</dd>
    </div>
    ${
      nextTerm
        ? html`<div class="line next" part="price-next">
            <dt>${nextTerm.LabelLocalized}</dt>
            <dd>${nextTerm.PricingLocalized}</dd>
          </div>`
        : nothing
    }
  </dl>`;
}

/**
 * The dialog's price block (it describes the dialog): the immediate price in large type, the
 * service's breakdown of it (prorated units, discounts) when it gives one, and the next term.
 */
export function quoteBlock(pricing: PricingResponse): TemplateResult {
  const nextTerm = pricing.NextTerm;
  const lines = pricing.Details?.filter((line) => line.LabelLocalized) ?? [];
  return html`<div id="quote" class="quote" part="quote">
    <p class="label">${pricing.LabelLocalized}</p>
    <p class="amount" part="amount">${pricing.PricingLocalized}</p>
    ${
      lines.length
        ? html`<ul class="details" part="details">
            ${lines.map(
              (line) =>
                html`<li>
                  <span>${line.LabelLocalized}</span><span>${line.PricingLocalized ?? ''}</span>
                </li>`,
            )}
          </ul>`
        : nothing
    }
    ${
      nextTerm
        ? html`<p class="next-term" part="next-term">
            ${nextTerm.LabelLocalized} <strong>${nextTerm.PricingLocalized}</strong>
          </p>`
        : nothing
    }
  </div>`;
}

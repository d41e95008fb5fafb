import { html, nothing, type TemplateResult } from 'lit';

/**
 * The live region of a change's progress ("Applying your purchase…") and then its outcome
 * ("Done…"): always in place, so that what appears in it is announced. Empty `text`: nothing
 * to say.
 */
export function statusRegion(text: string, done: boolean): TemplateResult {
  return html`<div class="status" part="status" role="status">
    ${
      text
        ? html`<div class=${done ? 'outcome' : 'progress'} part=${done ? 'success' : 'progress'}>
            <p>${text}</p>
          </div>`
        : nothing
    }
  </div>`;
}

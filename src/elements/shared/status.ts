import { html, nothing, type ReactiveElement, type TemplateResult } from 'lit';

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

/**
 * Brings the outcome of a change into view when it appears (the status region's success): after
 * a confirmation near the bottom of a phone's screen, the line saying what happened would
 * otherwise be below the fold. Only as far as needed (`nearest`), and once per outcome.
 */
export function revealOutcome(host: ReactiveElement): void {
  let shown: Element | null = null;
  host.addController({
    hostUpdated() {
      const outcome = host.renderRoot.querySelector('[part~="success"]');
      if (outcome && outcome !== shown) outcome.scrollIntoView({ block: 'nearest' });
      shown = outcome;
    },
  });
}

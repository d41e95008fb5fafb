import { html, type TemplateResult } from 'lit';
import { message } from '../../client/i18n.js';
import type { CallToAction, Remedy } from './call-to-action.js';

/**
 * The quiet link of an element whose `remedy` another element of its region offers ("See what
 * to do"): brings that one into view and moves the focus to its action.
 */
export function remedyPointer(
  host: Element,
  callToAction: CallToAction,
  remedy: Remedy,
): TemplateResult {
  return html`<button
    type="button"
    class="link"
    part="pointer"
    @click=${() => callToAction.showSpeaker(remedy)}
  >
    ${message(host, 'cta.pointer')}
  </button>`;
}

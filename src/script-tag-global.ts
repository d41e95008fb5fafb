// The type of `window.BillingElements`, which the script-tag file (dist/billing-elements.js)
// defines. Types only: a TypeScript page that loads that file opts in with
// `import type {} from 'billing-elements/billing-elements.js'` (or a triple-slash reference).
import type * as ScriptTag from './script-tag.js';

/** What `window.BillingElements` holds: the script-tag file's exports. */
export type BillingElementsGlobal = typeof ScriptTag;

declare global {
  interface Window {
    /** Set by the script-tag file (`billing-elements.js`). */
    BillingElements: BillingElementsGlobal;
  }
  // `BillingElements.configureBilling(...)` in a page's script, without `window.`.
  var BillingElements: BillingElementsGlobal;
}

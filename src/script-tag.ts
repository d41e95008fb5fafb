// The script-tag file (dist/billing-elements.js): registers the six elements and exposes, as
// `window.BillingElements`, what a page without a build step needs to drive them from a script:
// the page configuration, the usage store (to grant or refuse access), opening a portal
// workflow, the error type and the element classes. The rest of the npm API (formatting and
// text helpers, the portal loader, the proxy client) stays out of this file: a page that
// needs it uses the npm build.
//
// The simplest install: one classic script for every element. A page that shows only some of
// them downloads less with the autoloader (dist/cdn/autoloader.js, see src/autoloader.ts).
import './elements/usage-meter/define.js';
import './elements/buy-feature/define.js';
import './elements/billing-portal/define.js';
import './elements/plan-picker/define.js';
import './elements/feature-gate/define.js';
import './elements/billing-history/define.js';

export {
  BillingError,
  BillingHistory,
  BillingPortal,
  BuyFeature,
  FeatureGate,
  PlanPicker,
  UNLIMITED_QUANTITY,
  UsageMeter,
  configureBilling,
  getUsageStore,
  isBillingError,
  isUnlimited,
  openPortalPage,
} from './index.js';

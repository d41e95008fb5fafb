// The script-tag file (dist/billing-elements.js): registers every element and exposes, as
// `window.BillingElements`, what a page without a build step needs to drive them from a script:
// the page configuration, the usage store (to grant or refuse access), opening a portal
// workflow, the error type and the element classes. The rest of the npm API (formatting and
// text helpers, the portal loader, the proxy client) stays out of this file: a page that
// needs it uses the npm build.
import './define.js';

export {
  BillingError,
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

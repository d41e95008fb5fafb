// The script-tag file (dist/billing-elements.js): registers the three core elements and exposes, as
// `window.BillingElements`, what a page without a build step needs to drive them from a script:
// the page configuration, the usage store (to grant or refuse access), opening a portal
// workflow, the error type and the element classes. The rest of the npm API (formatting and
// text helpers, the portal loader, the proxy client) stays out of this file: a page that
// needs it uses the npm build.
//
// <plan-picker> and <feature-gate> are left out: with them the file weighed 27.5 KiB gzipped,
// over its 24 KiB budget. Pages that use them load the npm build's define modules.
import './elements/usage-meter/define.js';
import './elements/buy-feature/define.js';
import './elements/billing-portal/define.js';

export {
  BillingError,
  BillingPortal,
  BuyFeature,
  UNLIMITED_QUANTITY,
  UsageMeter,
  configureBilling,
  getUsageStore,
  isBillingError,
  isUnlimited,
  openPortalPage,
} from './index.js';

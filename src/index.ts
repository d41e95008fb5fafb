// billing-elements: the element classes, the browser runtime and the types. No side effects:
// importing this module registers no tag and touches neither window nor document (so it
// loads under Node for server rendering). Register the tags with `billing-elements/define`
// or with each class's static `define()`.

export { UsageMeter } from './elements/usage-meter/usage-meter.js';
export { BillingPortal, type PortalMode } from './elements/billing-portal/billing-portal.js';
export { BuyFeature } from './elements/buy-feature/buy-feature.js';
export { PlanPicker } from './elements/plan-picker/plan-picker.js';
export { FeatureGate, type GateState } from './elements/feature-gate/feature-gate.js';
export { BillingHistory, type HistoryState } from './elements/billing-history/billing-history.js';
export { openPortalPage } from './elements/billing-portal/open.js';
export { remedyLabel } from './elements/shared/remedy.js';
export type { OpenPortalPageOptions } from './elements/shared/remedy.js';

export {
  configureBilling,
  getBillingConfig,
  resetBillingConfig,
  resolveEndpoint,
  type BillingConfig,
  type BillingConfigOptions,
} from './client/config.js';
export { BillingError, isBillingError, type ClientErrorCode } from './client/errors.js';
export { ProxyClient, getProxyClient } from './client/proxy-client.js';
export {
  UsageStore,
  getUsageStore,
  isUnlimited,
  type UsageListener,
  type UsageStoreState,
  type UsageStoreStatus,
} from './client/usage-store.js';
export {
  embedPortal,
  loadPortalScript,
  registerPortalHost,
  remedyFor,
  DEFAULT_PORTAL_CONTAINER_ID,
  type EmbedPortalOptions,
  type LoadPortalScriptOptions,
  type PortalHost,
  type ServicePortalApi,
} from './client/portal.js';
export {
  LANGUAGES,
  formatDate,
  formatMoney,
  formatNumber,
  formatPercent,
  languageOf,
  loadLanguage,
  message,
  messageFor,
  registerTexts,
  type BillingMessages,
  type Language,
  type MessageKey,
  type OtherLanguage,
  type TextTable,
  type Translation,
  type TranslationSource,
} from './client/i18n.js';
export { watchLang } from './client/lang-observer.js';
export {
  BillingEvent,
  BillingAddOnChangeEvent,
  BillingBeforeAddOnChangeEvent,
  BillingBeforePurchaseEvent,
  BillingEntitlementChangeEvent,
  BillingPlanChangeEvent,
  BillingErrorEvent,
  BillingPortalCompleteEvent,
  BillingPortalReadyEvent,
  BillingPurchaseEvent,
  BillingRemedyEvent,
  BillingThresholdEvent,
  BillingUpdatedEvent,
  type AddOnChangeDetail,
  type BeforeAddOnChangeDetail,
  type BeforePurchaseDetail,
  type EntitlementChangeDetail,
  type PlanChangeDetail,
  type ErrorDetail,
  type PortalCompleteDetail,
  type PortalDetail,
  type PortalWorkflow,
  type PurchaseDetail,
  type RemedyDetail,
  type ThresholdDetail,
  type ThresholdLevel,
  type UpdatedDetail,
} from './client/events.js';
export {
  BillingBeforeDecreaseEvent,
  BillingDecreaseEvent,
  type BeforeDecreaseDetail,
  type DecreaseDetail,
} from './client/decrease-events.js';

export { changePlan, getPlanQuote } from './client/plan-client.js';
export { getInvoices } from './client/invoices-client.js';
export { UNLIMITED_QUANTITY } from './contract/constants.js';
export type { Usage, PricingUsageResult, NextTerm } from './contract/resources.js';
export type { Offer, OfferFeature, UpgradeQuote } from './contract/catalog.js';
export type {
  AddOnChangeRequest,
  AddOnChangeResponse,
  AddOnPricingRequest,
  InvoiceStatus,
  InvoiceSummary,
  InvoicesResponse,
  DecreasePricingRequest,
  DecreaseRequest,
  DecreaseResponse,
  PortalPage,
  PortalRequest,
  PortalResponse,
  LinksResponse,
  PricingRefusal,
  PricingRefusalCode,
  PricingRequest,
  PricingResponse,
  PurchaseRequest,
  PurchaseResponse,
  OffersResponse,
  PlanChangeRequest,
  PlanChangeResponse,
  PlanQuoteRequest,
  PlanQuoteResponse,
  SubscriptionStatusResponse,
  UsagesResponse,
} from './contract/proxy-api.js';

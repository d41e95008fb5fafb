import { BillingHistory } from './billing-history.js';

BillingHistory.define();

declare global {
  interface HTMLElementTagNameMap {
    'billing-history': BillingHistory;
  }
}

export { BillingHistory };

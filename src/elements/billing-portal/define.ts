import { BillingPortal } from './billing-portal.js';

BillingPortal.define();

declare global {
  interface HTMLElementTagNameMap {
    'billing-portal': BillingPortal;
  }
}

export { BillingPortal };

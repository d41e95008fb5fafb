import type { PricingResponse } from '../contract/proxy-api.js';
import type { Usage } from '../contract/resources.js';
import { BillingEvent } from './events.js';

// The events of a decrease (`<buy-feature allow-decrease>`), in a module of their own: only a
// page that lowers a quantity loads them, not every page that loads the shared events.

export interface BeforeDecreaseDetail {
  feature: string;
  /** The quantity the feature goes down to. */
  quantity: number;
  /** The price the user is confirming (now, and `NextTerm` per period afterwards). */
  pricing: PricingResponse;
}

/** `billing-before-decrease`: a confirmed decrease is about to be applied; cancelable. */
export class BillingBeforeDecreaseEvent extends BillingEvent<BeforeDecreaseDetail> {
  static readonly type = 'billing-before-decrease';
  constructor(detail: BeforeDecreaseDetail) {
    super(BillingBeforeDecreaseEvent.type, detail, true);
  }
}

export interface DecreaseDetail {
  feature: string;
  /** The quantity the feature went down to. */
  quantity: number;
  /** The feature's usage after the decrease. */
  usage: Usage;
  /** The amount confirmed now, in hundredths: 0 when nothing is credited, negative for a credit. */
  amountTotal: number;
  /** The recurring price confirmed from the next term, in hundredths per period. */
  nextTermAmountTotal: number;
  /** True when the proxy answered with the stored outcome of an earlier attempt. */
  replayed: boolean;
}

/** `billing-decrease`: a Limitation was lowered. */
export class BillingDecreaseEvent extends BillingEvent<DecreaseDetail> {
  static readonly type = 'billing-decrease';
  constructor(detail: DecreaseDetail) {
    super(BillingDecreaseEvent.type, detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'billing-before-decrease': BillingBeforeDecreaseEvent;
    'billing-decrease': BillingDecreaseEvent;
  }
}

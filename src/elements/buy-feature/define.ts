import { BuyFeature } from './buy-feature.js';

BuyFeature.define();

declare global {
  interface HTMLElementTagNameMap {
    'buy-feature': BuyFeature;
  }
}

export { BuyFeature };

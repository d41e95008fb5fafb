import { FeatureGate } from './feature-gate.js';

FeatureGate.define();

declare global {
  interface HTMLElementTagNameMap {
    'feature-gate': FeatureGate;
  }
}

export { FeatureGate };

import { UsageMeter } from './usage-meter.js';

UsageMeter.define();

declare global {
  interface HTMLElementTagNameMap {
    'usage-meter': UsageMeter;
  }
}

export { UsageMeter };

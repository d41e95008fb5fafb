import type { MessageKey } from '../../client/i18n.js';

/**
 * The quantities a `<buy-feature>` allows: whole numbers from `min`, by `step`, up to `max`. A
 * step that is not a positive whole number counts as 1; no finite `max` is no upper bound.
 */
export class QuantityRange {
  readonly min: number;
  /** Infinity when there is no upper bound. */
  readonly max: number;
  readonly step: number;

  constructor(min: number, max: number | null, step: number) {
    this.min = min;
    this.max = max !== null && Number.isFinite(max) ? max : Infinity;
    this.step = Number.isInteger(step) && step > 0 ? step : 1;
  }

  get hasMax(): boolean {
    return this.max < Infinity;
  }

  allows(value: number): boolean {
    return (
      Number.isInteger(value) &&
      value >= this.min &&
      value <= this.max &&
      (value - this.min) % this.step === 0
    );
  }

  /** The text that says which quantities are allowed: the range or the minimum, and the step. */
  get invalidMessage(): MessageKey {
    const stepped = this.step > 1;
    if (this.hasMax) return stepped ? 'buy.invalid.step' : 'buy.invalid';
    return stepped ? 'buy.invalid.min-step' : 'buy.invalid.min';
  }
}

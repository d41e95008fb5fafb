import { PlanPicker } from './plan-picker.js';

PlanPicker.define();

declare global {
  interface HTMLElementTagNameMap {
    'plan-picker': PlanPicker;
  }
}

export { PlanPicker };

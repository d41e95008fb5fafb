import type { ThresholdLevel } from '../../client/events.js';

/**
 * The level of a ratio against the thresholds' attribute values, each falling back to its
 * default unless a finite positive number, the warning never above the critical one
 * (critical wins when both are crossed).
 */
export function levelOf(ratio: number, warning: number, critical: number): ThresholdLevel {
  const valid = (threshold: number) => threshold > 0 && threshold < Number.POSITIVE_INFINITY;
  const safeCritical = valid(critical) ? critical : 1;
  if (ratio >= safeCritical) return 'critical';
  return ratio >= Math.min(valid(warning) ? warning : 0.8, safeCritical) ? 'warning' : 'normal';
}

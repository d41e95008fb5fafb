import type { Usage } from '../../contract/resources.js';
import type { ThresholdLevel } from '../../client/events.js';
import { isUnlimited } from '../../client/usage-store.js';

/** Used over included for a quantity feature; 0 when there is no ratio (on/off, unlimited). */
export function usageRatio(usage: Usage): number {
  const included = usage.QuantityIncluded;
  if (usage.TypeFeature === 'OnOff' || included === undefined || isUnlimited(usage)) return 0;
  const used = usage.QuantityCurrent ?? 0;
  return included > 0 ? used / included : used > 0 ? Number.POSITIVE_INFINITY : 0;
}

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

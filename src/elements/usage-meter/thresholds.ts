import type { ThresholdLevel } from '../../client/events.js';

/** The share of the included quantity from which a meter warns, unless told otherwise. */
const DEFAULT_WARNING_THRESHOLD = 0.8;
/** The share of the included quantity from which a meter is critical: all of it used. */
const DEFAULT_CRITICAL_THRESHOLD = 1;

/** A threshold attribute's value that can be used: a finite positive number. */
function isThreshold(value: number): boolean {
  return value > 0 && value < Number.POSITIVE_INFINITY;
}

/**
 * The level of a ratio against the thresholds' attribute values, each falling back to its
 * default unless a finite positive number, the warning never above the critical one
 * (critical wins when both are crossed).
 */
export function levelOf(ratio: number, warning: number, critical: number): ThresholdLevel {
  const criticalFrom = isThreshold(critical) ? critical : DEFAULT_CRITICAL_THRESHOLD;
  const warningFrom = Math.min(
    isThreshold(warning) ? warning : DEFAULT_WARNING_THRESHOLD,
    criticalFrom,
  );
  if (ratio >= criticalFrom) return 'critical';
  if (ratio >= warningFrom) return 'warning';
  return 'normal';
}

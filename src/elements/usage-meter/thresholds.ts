import type { Usage } from '../../contract/resources.js';
import type { ThresholdLevel } from '../../client/events.js';
import { isUnlimited } from '../../client/usage-store.js';

export interface Thresholds {
  warning: number;
  critical: number;
}

/** Used over included for a quantity feature; null when there is no ratio (on/off, unlimited). */
export function usageRatio(usage: Usage): number | null {
  if (usage.TypeFeature === 'OnOff' || isUnlimited(usage)) return null;
  const included = usage.QuantityIncluded;
  if (included === undefined) return null;
  const used = usage.QuantityCurrent ?? 0;
  if (included <= 0) return used > 0 ? Number.POSITIVE_INFINITY : 0;
  return used / included;
}

/** The level of a ratio against the thresholds (critical wins when both are crossed). */
export function levelOf(ratio: number | null, thresholds: Thresholds): ThresholdLevel {
  if (ratio === null) return 'normal';
  if (ratio >= thresholds.critical) return 'critical';
  if (ratio >= thresholds.warning) return 'warning';
  return 'normal';
}

/** Thresholds from attribute values, falling back to the defaults for anything not a number. */
export function readThresholds(warning: number, critical: number): Thresholds {
  const safeCritical = Number.isFinite(critical) && critical > 0 ? critical : 1;
  const safeWarning =
    Number.isFinite(warning) && warning > 0 ? Math.min(warning, safeCritical) : 0.8;
  return { warning: Math.min(safeWarning, safeCritical), critical: safeCritical };
}

const RANK: Record<ThresholdLevel, number> = { normal: 0, warning: 1, critical: 2 };

/** The most severe of some levels. */
export function worstLevel(levels: Iterable<ThresholdLevel>): ThresholdLevel {
  let worst: ThresholdLevel = 'normal';
  for (const level of levels) if (RANK[level] > RANK[worst]) worst = level;
  return worst;
}

import type { FactorThreshold, SaveAreaThreshold, ThresholdKind } from '@shuili/contract';

/** One level as edited: its condition ('none': no rule) and bounds. */
export interface LevelDraft {
  kind: ThresholdKind | 'none';
  low: number | null;
  high: number | null;
}

/** A factor's thresholds as the row edits them. */
export interface ThresholdDraft {
  warning: LevelDraft;
  danger: LevelDraft;
  hysteresis: number | null;
  noDataMinutes: number | null;
}

const levelOf = (stored: FactorThreshold['warning']): LevelDraft =>
  stored
    ? { kind: stored.kind, low: stored.low, high: stored.high }
    : { kind: 'none', low: null, high: null };

/** The row's draft as the server has the factor. */
export function draftOf(factor: FactorThreshold): ThresholdDraft {
  return {
    warning: levelOf(factor.warning),
    danger: levelOf(factor.danger),
    hysteresis: factor.hysteresis,
    noDataMinutes: factor.noData?.minutes ?? null,
  };
}

/** Whether a condition uses the low bound, the high bound. */
export const usesLow = (kind: LevelDraft['kind']) => kind === 'below' || kind === 'outside';
export const usesHigh = (kind: LevelDraft['kind']) => kind === 'above' || kind === 'outside';

/** A level as saved: none is no rule; bounds its condition does not use are left out. */
function levelBody(level: LevelDraft): SaveAreaThreshold['warning'] {
  if (level.kind === 'none') return null;
  return {
    kind: level.kind,
    low: usesLow(level.kind) ? level.low : null,
    high: usesHigh(level.kind) ? level.high : null,
  };
}

/** The body of saveAreaThreshold for one factor's draft (the server checks the rest). */
export function saveBody(
  scope: { area: string; productId: string; deviceId?: string },
  key: string,
  draft: ThresholdDraft,
): SaveAreaThreshold {
  const hasLevel = draft.warning.kind !== 'none' || draft.danger.kind !== 'none';
  return {
    area: scope.area,
    productId: scope.productId,
    deviceId: scope.deviceId ?? null,
    propertyKey: key,
    warning: levelBody(draft.warning),
    danger: levelBody(draft.danger),
    // A band only matters beside a level.
    hysteresis: hasLevel ? draft.hysteresis : null,
    noDataMinutes: draft.noDataMinutes,
  };
}

/** Whether the row differs from what is stored (its save button is then enabled). */
export function isChanged(draft: ThresholdDraft, factor: FactorThreshold): boolean {
  return JSON.stringify(draft) !== JSON.stringify(draftOf(factor));
}

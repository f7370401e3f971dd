import type { AlarmKind, AlarmLevel } from '@shuili/contract';

/** A rule as the evaluator reads it (numbers already parsed). */
export interface AlarmRuleSpec {
  id: string;
  tenantId: string;
  ruleName: string;
  productId: string | null;
  deviceId: string | null;
  propertyKey: string;
  kind: AlarmKind;
  low: number | null;
  high: number | null;
  ratePerMinute: number | null;
  noDataMinutes: number | null;
  hysteresis: number;
  level: AlarmLevel;
}

/**
 * What one reading means for a rule: the condition holds (raise, unless already raised), the
 * value is back past the threshold by the hysteresis (clear, if raised), or it is in between.
 */
export type Verdict =
  { state: 'breach'; value: number; threshold: number } | { state: 'clear' } | { state: 'hold' };

const HOLD: Verdict = { state: 'hold' };
const CLEAR: Verdict = { state: 'clear' };

/**
 * Judges a value (or, for rateOfChange, the absolute change per minute since the previous
 * reading) against a rule. A rule missing the threshold its kind needs never fires.
 */
export function judge(rule: AlarmRuleSpec, value: number, ratePerMinute?: number): Verdict {
  const band = rule.hysteresis;
  switch (rule.kind) {
    case 'above':
      if (rule.high === null) return HOLD;
      if (value > rule.high) return { state: 'breach', value, threshold: rule.high };
      return value <= rule.high - band ? CLEAR : HOLD;
    case 'below':
      if (rule.low === null) return HOLD;
      if (value < rule.low) return { state: 'breach', value, threshold: rule.low };
      return value >= rule.low + band ? CLEAR : HOLD;
    case 'outside':
      if (rule.low === null || rule.high === null) return HOLD;
      if (value > rule.high) return { state: 'breach', value, threshold: rule.high };
      if (value < rule.low) return { state: 'breach', value, threshold: rule.low };
      return value >= rule.low + band && value <= rule.high - band ? CLEAR : HOLD;
    case 'rateOfChange':
      if (rule.ratePerMinute === null || ratePerMinute === undefined) return HOLD;
      if (ratePerMinute > rule.ratePerMinute)
        return { state: 'breach', value: ratePerMinute, threshold: rule.ratePerMinute };
      return ratePerMinute <= rule.ratePerMinute - band ? CLEAR : HOLD;
    case 'noData':
      // Any reading ends a silence; raising is the timer's job.
      return CLEAR;
  }
}

/** Whether a rule watches this device's property (its own rule or its product's). */
export function appliesTo(
  rule: AlarmRuleSpec,
  point: { deviceId: string; productId: string | null; key: string },
): boolean {
  if (rule.propertyKey !== point.key) return false;
  if (rule.deviceId !== null) return rule.deviceId === point.deviceId;
  return rule.productId !== null && rule.productId === point.productId;
}

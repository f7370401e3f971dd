import { describe, expect, it } from 'vitest';
import { appliesTo, judge, type AlarmRuleSpec } from './alarm-evaluator';

const rule = (overrides: Partial<AlarmRuleSpec>): AlarmRuleSpec => ({
  id: '1',
  tenantId: '1',
  ruleName: 'r',
  productId: '7',
  deviceId: null,
  propertyKey: 'waterLevel',
  kind: 'above',
  low: null,
  high: null,
  ratePerMinute: null,
  noDataMinutes: null,
  hysteresis: 0,
  level: 'red',
  ...overrides,
});

describe('judge', () => {
  it('raises above the high threshold and clears only below it by the hysteresis', () => {
    const above = rule({ kind: 'above', high: 5, hysteresis: 0.5 });
    expect(judge(above, 5)).toEqual({ state: 'hold' });
    expect(judge(above, 5.1)).toEqual({ state: 'breach', value: 5.1, threshold: 5 });
    expect(judge(above, 4.8)).toEqual({ state: 'hold' });
    expect(judge(above, 4.5)).toEqual({ state: 'clear' });
  });

  it('raises below the low threshold and clears above it by the hysteresis', () => {
    const below = rule({ kind: 'below', low: 1, hysteresis: 0.2 });
    expect(judge(below, 0.9)).toMatchObject({ state: 'breach', threshold: 1 });
    expect(judge(below, 1.1)).toEqual({ state: 'hold' });
    expect(judge(below, 1.2)).toEqual({ state: 'clear' });
  });

  it('raises outside the band with the crossed threshold and clears inside it', () => {
    const outside = rule({ kind: 'outside', low: 6, high: 8, hysteresis: 0.1 });
    expect(judge(outside, 8.5)).toMatchObject({ state: 'breach', threshold: 8 });
    expect(judge(outside, 5)).toMatchObject({ state: 'breach', threshold: 6 });
    expect(judge(outside, 7.95)).toEqual({ state: 'hold' });
    expect(judge(outside, 7)).toEqual({ state: 'clear' });
  });

  it('judges the rate of change, and holds without a previous reading', () => {
    const rate = rule({ kind: 'rateOfChange', ratePerMinute: 0.5, hysteresis: 0.1 });
    expect(judge(rate, 3)).toEqual({ state: 'hold' });
    expect(judge(rate, 3, 0.6)).toEqual({ state: 'breach', value: 0.6, threshold: 0.5 });
    expect(judge(rate, 3, 0.45)).toEqual({ state: 'hold' });
    expect(judge(rate, 3, 0.3)).toEqual({ state: 'clear' });
  });

  it('never fires a rule that lacks its threshold; any reading ends a silence', () => {
    expect(judge(rule({ kind: 'above', high: null }), 1e9)).toEqual({ state: 'hold' });
    expect(judge(rule({ kind: 'noData', noDataMinutes: 5 }), 1)).toEqual({ state: 'clear' });
  });
});

describe('appliesTo', () => {
  it("matches a device's own rules and its product's rules on the same key", () => {
    const point = { deviceId: '3', productId: '7', key: 'waterLevel' };
    expect(appliesTo(rule({}), point)).toBe(true);
    expect(appliesTo(rule({ deviceId: '3', productId: null }), point)).toBe(true);
    expect(appliesTo(rule({ deviceId: '4' }), point)).toBe(false);
    expect(appliesTo(rule({ productId: '8' }), point)).toBe(false);
    expect(appliesTo(rule({ propertyKey: 'flow' }), point)).toBe(false);
  });
});

import type { FactorThreshold } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { draftOf, isChanged, saveBody } from './threshold-edit';

const factor: FactorThreshold = {
  key: 'flow',
  name: { en: 'Flow', zh: '流量', tw: '流量' },
  unit: 'm³/h',
  precision: 2,
  min: 0,
  max: 200,
  warning: { ruleId: '7', kind: 'above', low: null, high: 100, enabled: true },
  danger: null,
  hysteresis: 5,
  noData: { ruleId: '9', minutes: 30 },
};

describe('threshold drafts', () => {
  it('start as stored and tell when they change', () => {
    const draft = draftOf(factor);
    expect(draft).toEqual({
      warning: { kind: 'above', low: null, high: 100 },
      danger: { kind: 'none', low: null, high: null },
      hysteresis: 5,
      noDataMinutes: 30,
    });
    expect(isChanged(draft, factor)).toBe(false);
    expect(isChanged({ ...draft, hysteresis: 6 }, factor)).toBe(true);
  });

  it('save a level without the bound its condition does not use, none as no rule', () => {
    const draft = {
      ...draftOf(factor),
      warning: { kind: 'below' as const, low: 3, high: 100 },
    };
    expect(saveBody({ area: 'pumpStation', productId: '4' }, 'flow', draft)).toEqual({
      area: 'pumpStation',
      productId: '4',
      deviceId: null,
      propertyKey: 'flow',
      warning: { kind: 'below', low: 3, high: null },
      danger: null,
      hysteresis: 5,
      noDataMinutes: 30,
    });
    const bare = {
      ...draft,
      warning: { kind: 'none' as const, low: null, high: null },
    };
    expect(saveBody({ area: 'a', productId: '4', deviceId: '2' }, 'flow', bare)).toMatchObject({
      deviceId: '2',
      warning: null,
      hysteresis: null,
    });
  });
});

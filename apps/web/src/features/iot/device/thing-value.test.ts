import type { ThingParam } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { formatThingValue, mergeReadings, readingsOf } from './thing-value';

const name = { en: 'x', zh: 'x', tw: 'x' };
const level: ThingParam = {
  key: 'waterLevel',
  name,
  type: 'number',
  unit: 'm',
  precision: 2,
  min: 0,
  max: 10,
};
const valve: ThingParam = {
  key: 'valve',
  name,
  type: 'enum',
  options: [
    { value: 0, label: { en: 'Closed', zh: '关', tw: '關' } },
    { value: 1, label: { en: 'Open', zh: '开', tw: '開' } },
  ],
};
const running: ThingParam = { key: 'running', name, type: 'boolean' };
const words = { label: (label: { en: string }) => label.en, yes: 'Yes', no: 'No' };

describe('formatThingValue', () => {
  it('shows numbers with the declared decimals and unit', () => {
    expect(formatThingValue(level, 1.5, words)).toBe('1.50 m');
    expect(formatThingValue({ ...level, unit: undefined, precision: undefined }, 3, words)).toBe(
      '3',
    );
  });

  it('shows enum labels, booleans as words, and nothing for no value', () => {
    expect(formatThingValue(valve, 1, words)).toBe('Open');
    expect(formatThingValue(valve, 7, words)).toBe('7');
    expect(formatThingValue(running, 0, words)).toBe('No');
    expect(formatThingValue(running, true, words)).toBe('Yes');
    expect(formatThingValue(level, undefined, words)).toBeUndefined();
  });
});

describe('readingsOf', () => {
  it('keeps the values the thing model accepts, with their time or the arrival time', () => {
    const readings = readingsOf(
      { values: { waterLevel: 2.5, valve: 1, unknown: 3, running: 'yes' } },
      [level, valve, running],
      1000,
    );
    expect(readings).toEqual([
      { key: 'waterLevel', value: 2.5, ts: 1000 },
      { key: 'valve', value: 1, ts: 1000 },
    ]);
  });

  it('reads batches and drops out-of-range values and shapeless items', () => {
    const readings = readingsOf(
      [{ ts: 5000, values: { waterLevel: 11 } }, 'junk', { ts: 6000, values: { waterLevel: 3 } }],
      [level],
      1000,
    );
    expect(readings).toEqual([{ key: 'waterLevel', value: 3, ts: 6000 }]);
  });
});

describe('mergeReadings', () => {
  it('keeps the newest reading per key', () => {
    const first = mergeReadings(new Map(), [{ key: 'a', value: 1, ts: 10 }]);
    const late = mergeReadings(first, [{ key: 'a', value: 0, ts: 5 }]);
    expect(late.get('a')?.value).toBe(1);
    const fresh = mergeReadings(late, [{ key: 'a', value: 2, ts: 20 }]);
    expect(fresh.get('a')?.value).toBe(2);
  });
});

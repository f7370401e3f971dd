import { productOfKind, type ThingParam } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { paramMessage, paramValueText, parseTypedNumber } from './param-value';

const [channel, duration] = productOfKind('irrigation_valve').thingModel.commands[0]!.params as [
  ThingParam,
  ThingParam,
];
const t = (key: string, values?: Record<string, unknown>) => `${key} ${JSON.stringify(values)}`;
const check = (param: ThingParam, text: string) =>
  paramMessage(param, 'Channel', parseTypedNumber(text), t);

describe('typed command values are checked, never guessed', () => {
  it('keeps what was typed: numbers as numbers, anything else as text', () => {
    expect(parseTypedNumber(' 9 ')).toBe(9);
    expect(parseTypedNumber('-5')).toBe(-5);
    expect(parseTypedNumber('2.5')).toBe(2.5);
    expect(parseTypedNumber('abc')).toBe('abc');
    expect(parseTypedNumber('1e3')).toBe('1e3');
    expect(parseTypedNumber('')).toBeUndefined();
  });

  it('refuses 9, -5, abc, 99999 and nothing, naming the parameter and the range', () => {
    expect(check(channel, '9')).toBe(
      'iot.command.problem.outOfRange {"param":"Channel","min":1,"max":4}',
    );
    expect(check(duration, '-5')).toContain('iot.command.problem.outOfRange');
    expect(check(channel, 'abc')).toContain('iot.command.problem.integer');
    expect(check(duration, '99999')).toContain('"max":1440');
    expect(check(channel, '')).toContain('iot.command.problem.required');
    expect(check(channel, '4')).toBeUndefined();
  });

  it('reads values back with their unit for the confirmation', () => {
    // A time unit is a word, said in the reader's language; a symbol stays as it is.
    expect(paramValueText(duration, 30, (label) => label.en, t)).toBe(`30 ${t('iot.unit.min')}`);
    const flow = { ...duration, key: 'flow', unit: 'm³/h' };
    expect(paramValueText(flow, 12.5, (label) => label.en, t)).toBe('12.5 m³/h');
  });
});

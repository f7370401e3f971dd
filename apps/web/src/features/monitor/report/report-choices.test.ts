import type { ThingModel } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { defaultFactors, factorChoices } from './report-choices';

const name = { en: 'x', zh: 'x', tw: 'x' };
const model = (...keys: Array<[string, string]>): ThingModel => ({
  properties: keys.map(([key, type]) => ({ key, type, name, access: 'r' }) as never),
  events: [],
  commands: [],
});

describe('factorChoices', () => {
  it('offers numeric properties once, the area report factors first', () => {
    const choices = factorChoices(
      [
        model(['valve1State', 'enum'], ['pressure', 'number'], ['note', 'string']),
        model(['flow', 'number'], ['pressure', 'number'], ['running', 'boolean']),
      ],
      ['flow', 'pressure', 'cumulativeVolume'],
    );
    expect(choices.map((property) => property.key)).toEqual([
      'flow',
      'pressure',
      'valve1State',
      'running',
    ]);
    expect(defaultFactors(choices, ['flow', 'pressure', 'cumulativeVolume'])).toEqual([
      'flow',
      'pressure',
    ]);
  });

  it('opens on the first factor when the area names none the devices have', () => {
    const choices = factorChoices([model(['ec', 'number'], ['ph', 'number'])], ['flow']);
    expect(defaultFactors(choices, ['flow'])).toEqual(['ec']);
    expect(defaultFactors([], ['flow'])).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { cleanParam, type ParamValues } from './param-values';

const name = { en: 'Level', zh: '水位', tw: '水位' };

describe('cleanParam', () => {
  it('trims the key and unit and keeps a number the fields of a number', () => {
    const values: ParamValues = {
      key: ' level ',
      name,
      type: 'number',
      unit: ' m ',
      min: 0,
      max: 10,
      precision: 2,
      factor: 'waterLevel',
    };
    expect(cleanParam(values, false)).toEqual({
      key: 'level',
      name,
      type: 'number',
      unit: 'm',
      min: 0,
      max: 10,
      precision: 2,
      factor: 'waterLevel',
    });
  });

  it('drops what the type does not use and gives a property its access', () => {
    const values: ParamValues = { key: 'state', name, type: 'enum', unit: 'm', min: 1 };
    expect(cleanParam(values, true)).toEqual({
      key: 'state',
      name,
      type: 'enum',
      access: 'r',
      options: [],
    });
    expect(cleanParam({ ...values, access: 'rw' }, false)).not.toHaveProperty('access');
  });
});

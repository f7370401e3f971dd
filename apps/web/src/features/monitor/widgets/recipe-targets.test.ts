import { describe, expect, it } from 'vitest';
import { recipeTargetsOf, withinBand } from './recipe-targets';

describe('recipeTargetsOf', () => {
  it('reads the newest recipe the machine acknowledged, params as JSON text or object', () => {
    expect(
      recipeTargetsOf([
        { name: 'setRecipe', status: 'failed', params: '{"targetEc":3,"targetPh":5}' },
        { name: 'startProgram', status: 'succeeded', params: '{"group":1}' },
        {
          name: 'setRecipe',
          status: 'succeeded',
          params: '{"targetEc":1.6,"targetPh":6.2}',
          ackedAt: '2025-06-01T08:00:00Z',
        },
        { name: 'setRecipe', status: 'succeeded', params: { targetEc: 1.2, targetPh: 6.8 } },
      ]),
    ).toEqual({ ec: 1.6, ph: 6.2, since: '2025-06-01T08:00:00Z' });
  });

  it('knows no targets without an accepted recipe, or from a broken one', () => {
    expect(recipeTargetsOf([])).toEqual({});
    expect(
      recipeTargetsOf([{ name: 'setRecipe', status: 'succeeded', params: 'not json' }]),
    ).toEqual({ ec: undefined, ph: undefined, since: undefined });
  });
});

describe('withinBand', () => {
  it('compares with target ± band, the edges included', () => {
    expect(withinBand(2.1, 1.6, 0.5)).toBe(true);
    expect(withinBand(2.11, 1.6, 0.5)).toBe(false);
    expect(withinBand(undefined, 1.6, 0.5)).toBeUndefined();
    expect(withinBand(1, undefined, 0.5)).toBeUndefined();
  });
});

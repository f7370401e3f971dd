import { describe, expect, it } from 'vitest';
import { columnsOf, fillCells, placeCamera } from './grid-cells';

describe('the camera grid cells', () => {
  it('lays 1, 4 and 9 cells out square', () => {
    expect([1, 4, 9].map((layout) => columnsOf(layout as 1 | 4 | 9))).toEqual([1, 2, 3]);
  });

  it('opens full with the first cameras and keeps those still listed where they are', () => {
    expect(fillCells([], ['a', 'b', 'c', 'd', 'e'], 4).slice(0, 4)).toEqual(['a', 'b', 'c', 'd']);
    // A zone picked: "c" stays in its cell, the others leave, the new ones fill the gaps.
    expect(fillCells(['a', 'b', 'c', 'd'], ['c', 'x', 'y'], 4).slice(0, 4)).toEqual([
      'x',
      'y',
      'c',
      undefined,
    ]);
    // A bigger layout fills its new cells with cameras not shown yet.
    expect(fillCells(['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'd', 'e'], 9).slice(0, 5)).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
  });

  it('puts a picked camera in the selected cell only, then selects the next cell', () => {
    expect(placeCamera(['a', 'b', 'c', 'd'], 0, 'c', 4)).toEqual({
      cells: ['c', 'b', undefined, 'd'],
      next: 1,
    });
    expect(placeCamera(['a'], 0, 'z', 1)).toEqual({ cells: ['z'], next: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import { keyTaken, moveItem, putItem, removeItem } from './list-edit';

describe('thing model list edits', () => {
  const rows = [{ key: 'a' }, { key: 'b' }, { key: 'c' }];

  it('moves a row up or down and leaves the ends in place', () => {
    expect(moveItem(rows, 1, -1).map((row) => row.key)).toEqual(['b', 'a', 'c']);
    expect(moveItem(rows, 1, 1).map((row) => row.key)).toEqual(['a', 'c', 'b']);
    expect(moveItem(rows, 0, -1).map((row) => row.key)).toEqual(['a', 'b', 'c']);
    expect(moveItem(rows, 2, 1).map((row) => row.key)).toEqual(['a', 'b', 'c']);
  });

  it('replaces, appends and removes without touching the original', () => {
    expect(putItem(rows, { key: 'x' }, 1).map((row) => row.key)).toEqual(['a', 'x', 'c']);
    expect(putItem(rows, { key: 'x' }, undefined).map((row) => row.key)).toEqual([
      'a',
      'b',
      'c',
      'x',
    ]);
    expect(removeItem(rows, 0).map((row) => row.key)).toEqual(['b', 'c']);
    expect(rows.map((row) => row.key)).toEqual(['a', 'b', 'c']);
  });

  it('finds a key taken by another row, not by the row being edited', () => {
    expect(keyTaken(rows, 'b', undefined)).toBe(true);
    expect(keyTaken(rows, 'b', 1)).toBe(false);
    expect(keyTaken(rows, 'b', 0)).toBe(true);
    expect(keyTaken(rows, 'z', undefined)).toBe(false);
  });
});

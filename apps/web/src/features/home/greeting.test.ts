import { describe, expect, it } from 'vitest';
import { dayPart } from './greeting';

describe('dayPart', () => {
  it('splits the day at 5, 12, 18 and 23 o’clock', () => {
    expect([0, 4, 5, 11, 12, 17, 18, 22, 23].map(dayPart)).toEqual([
      'night',
      'night',
      'morning',
      'morning',
      'afternoon',
      'afternoon',
      'evening',
      'evening',
      'night',
    ]);
  });
});

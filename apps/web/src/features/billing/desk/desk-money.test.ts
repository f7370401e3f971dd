import { describe, expect, it } from 'vitest';
import { fenOf } from './desk-money';

describe('yuan typed at the desk as fen', () => {
  it('reads whole yuan and up to two decimals exactly', () => {
    expect(fenOf('50')).toBe(5000);
    expect(fenOf('12.5')).toBe(1250);
    expect(fenOf('0.07')).toBe(7);
    expect(fenOf(' 19.99 ')).toBe(1999);
    // 0.1 + 0.2 in floating point is not 0.3: no float ever touches the amount.
    expect(fenOf('0.3')).toBe(30);
  });

  it('refuses what is not an amount', () => {
    for (const text of ['', '-1', '1.234', '1e3', 'abc', '1,5', undefined, null])
      expect(fenOf(text)).toBeUndefined();
  });
});

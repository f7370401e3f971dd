import { describe, expect, it } from 'vitest';
import { idNumberCheckChar, isValidIdNumber, maskIdNumber } from './id-number';

describe('resident ID numbers', () => {
  it('accepts numbers with their check character (X for 10)', () => {
    expect(isValidIdNumber('11010519491231002X')).toBe(true);
    expect(isValidIdNumber('11010519491231002x')).toBe(true);
    expect(idNumberCheckChar('11010519491231002')).toBe('X');
  });

  it('refuses a wrong check character, an impossible birth date, other lengths', () => {
    expect(isValidIdNumber('110105194912310021')).toBe(false);
    expect(isValidIdNumber('110105194902300028')).toBe(false);
    expect(isValidIdNumber('11010519491231002')).toBe(false);
    expect(isValidIdNumber('11010519491231002XX')).toBe(false);
  });

  it('is shown with its birth date and sequence hidden', () => {
    expect(maskIdNumber('370102198001011234')).toBe('370102********1234');
  });
});

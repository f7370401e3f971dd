import { describe, expect, it } from 'vitest';
import { filenameOf, percentOf } from './download-file';

describe('filenameOf', () => {
  it('prefers the UTF-8 name of RFC 5987 to the plain one', () => {
    expect(
      filenameOf(`attachment; filename="users.xlsx"; filename*=UTF-8''%E7%94%A8%E6%88%B7.xlsx`),
    ).toBe('用户.xlsx');
  });

  it('reads a plain name, quoted or not', () => {
    expect(filenameOf('attachment; filename="users 2024.csv"')).toBe('users 2024.csv');
    expect(filenameOf('attachment; filename=users.pdf')).toBe('users.pdf');
  });

  it('has no name for no header', () => {
    expect(filenameOf(null)).toBeUndefined();
    expect(filenameOf('attachment')).toBeUndefined();
  });
});

describe('percentOf', () => {
  it('is the whole percent of Content-Length received', () => {
    expect(percentOf({ loaded: 0, total: 200 })).toBe(0);
    expect(percentOf({ loaded: 99, total: 200 })).toBe(49);
    expect(percentOf({ loaded: 200, total: 200 })).toBe(100);
  });

  it('is unknown without a length', () => {
    expect(percentOf({ loaded: 10, total: undefined })).toBeUndefined();
  });
});

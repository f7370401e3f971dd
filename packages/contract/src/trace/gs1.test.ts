import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildDigitalLink,
  checkDigitalLinkParts,
  checkGtin,
  completeGtin,
  encodeDigitalLinkValue,
  gs1Date,
  gtinCheckDigit,
  isoFromGs1Date,
  packageDigitalLink,
  parseDigitalLink,
  toGtin14,
  type DigitalLinkParts,
} from './gs1';

const VECTOR = 'https://id.gs1.org/01/09521234543213/10/ABC123/21/12345?17=261231';

describe('GTIN check digits', () => {
  it('computes the GS1 check digit (0952123454321 → 3)', () => {
    expect(gtinCheckDigit('0952123454321')).toBe(3);
    expect(gtinCheckDigit('952123454321')).toBe(3);
    expect(gtinCheckDigit('9638507')).toBe(4); // GTIN-8 96385074
    expect(gtinCheckDigit('03600029145')).toBe(2); // GTIN-12 036000291452
    expect(completeGtin('0952123454321')).toBe('09521234543213');
  });

  it('checks GTIN-8, -12, -13 and -14 and normalises them to GTIN-14', () => {
    expect(checkGtin('96385074')).toEqual({ ok: true, gtin14: '00000096385074', length: 8 });
    expect(checkGtin('036000291452')).toEqual({ ok: true, gtin14: '00036000291452', length: 12 });
    expect(checkGtin('9521234543213')).toEqual({ ok: true, gtin14: '09521234543213', length: 13 });
    expect(checkGtin('09521234543213')).toMatchObject({ ok: true, length: 14 });
    expect(checkGtin(' 952-1234-54321 3')).toMatchObject({ ok: true, gtin14: '09521234543213' });
    expect(toGtin14('6901234567892')).toBe('06901234567892');
  });

  it('refuses with a reason: empty, not digits, length, wrong check digit (naming the right one)', () => {
    expect(checkGtin('')).toEqual({ ok: false, reason: 'empty' });
    expect(checkGtin('95212345A3213')).toEqual({ ok: false, reason: 'notDigits' });
    expect(checkGtin('952123454321')).toMatchObject({ ok: false, reason: 'checkDigit' });
    expect(checkGtin('95212345432')).toEqual({ ok: false, reason: 'length' });
    expect(checkGtin('9521234543214')).toEqual({
      ok: false,
      reason: 'checkDigit',
      expectedCheckDigit: 3,
    });
    expect(() => toGtin14('9521234543214')).toThrow(TypeError);
  });
});

describe('GS1 Digital Link', () => {
  it('reads and writes the RESEARCH vector', () => {
    const parsed = parseDigitalLink(VECTOR);
    expect(parsed).toEqual({
      ok: true,
      value: {
        resolver: 'https://id.gs1.org',
        gtin: '09521234543213',
        lot: 'ABC123',
        serial: '12345',
        bestBefore: '261231',
        attributes: {},
      },
    });
    if (!parsed.ok) return;
    const { resolver, attributes: _attributes, ...parts } = parsed.value;
    expect(buildDigitalLink(parts, resolver)).toBe(VECTOR);
    expect(buildDigitalLink(parts)).toBe(VECTOR);
  });

  it('writes key qualifiers in the order 22, 10, 21 whatever order they are given in', () => {
    expect(
      buildDigitalLink(
        { serial: 'S1', lot: 'L1', cpv: 'V', gtin: '9521234543213' },
        'https://r.example/dl/',
      ),
    ).toBe('https://r.example/dl/01/09521234543213/22/V/10/L1/21/S1');
  });

  it('percent-encodes everything of CSET 82 outside the URI unreserved characters', () => {
    expect(encodeDigitalLinkValue('AB/12')).toBe('AB%2F12');
    expect(encodeDigitalLinkValue(`!"%&'()*+,:;<=>?`)).toBe(
      '%21%22%25%26%27%28%29%2A%2B%2C%3A%3B%3C%3D%3E%3F',
    );
    expect(encodeDigitalLinkValue('a-b.c_d')).toBe('a-b.c_d');
    const uri = buildDigitalLink({ gtin: '09521234543213', lot: 'A/B?C', serial: '..' });
    expect(uri).toBe('https://id.gs1.org/01/09521234543213/10/A%2FB%3FC/21/..');
    expect(parseDigitalLink(uri)).toMatchObject({
      ok: true,
      value: { lot: 'A/B?C', serial: '..' },
    });
  });

  it('refuses qualifiers out of order, unknown ones, bad values, a bad GTIN, a bad date', () => {
    const base = 'https://id.gs1.org/01/09521234543213';
    expect(parseDigitalLink(`${base}/21/1/10/A`)).toEqual({ ok: false, reason: 'order', ai: '10' });
    expect(parseDigitalLink(`${base}/10/A/10/B`)).toEqual({ ok: false, reason: 'order', ai: '10' });
    expect(parseDigitalLink(`${base}/99/A`)).toEqual({
      ok: false,
      reason: 'unknownQualifier',
      ai: '99',
    });
    expect(parseDigitalLink(`${base}/10/${'A'.repeat(21)}`)).toMatchObject({ reason: 'value' });
    expect(parseDigitalLink(`${base}/10/%E4%B8%AD`)).toMatchObject({ reason: 'value' });
    expect(parseDigitalLink(`${base}/10/%E4`)).toMatchObject({ reason: 'value' });
    expect(parseDigitalLink('https://id.gs1.org/01/09521234543214')).toMatchObject({
      reason: 'gtin',
    });
    expect(parseDigitalLink(`${base}?17=261332`)).toMatchObject({ reason: 'bestBefore' });
    expect(parseDigitalLink('https://id.gs1.org/10/ABC')).toMatchObject({ reason: 'noGtin' });
    expect(parseDigitalLink('ftp://id.gs1.org/01/09521234543213')).toMatchObject({
      reason: 'notUri',
    });
    expect(checkDigitalLinkParts({ gtin: '09521234543213', lot: '批次1' })).toEqual({
      field: 'lot',
      reason: 'value',
    });
    expect(checkDigitalLinkParts({ gtin: '1', lot: 'A' })).toEqual({
      field: 'gtin',
      reason: 'length',
    });
    expect(() => buildDigitalLink({ gtin: '09521234543213', serial: '' })).toThrow(/serial/);
  });

  it('reads a resolver with a path, GTIN-13 in the path, Digital Link 1.0 names, other keys', () => {
    expect(
      parseDigitalLink('https://example.com/p/q/01/9521234543213/lot/A1/ser/7?exp=270100&x=1%2B1'),
    ).toEqual({
      ok: true,
      value: {
        resolver: 'https://example.com/p/q',
        gtin: '09521234543213',
        lot: 'A1',
        serial: '7',
        bestBefore: '270100',
        attributes: { x: '1+1' },
      },
    });
  });

  it('names a package batch: GTIN, lot, trace code as serial, best before', () => {
    expect(
      packageDigitalLink({
        gtin: '06901234567892',
        lot: 'P20260603-01',
        traceCode: '7KQ2M9X4TD0C',
        bestBefore: '2027-06-03',
      }),
    ).toBe('https://id.gs1.org/01/06901234567892/10/P20260603-01/21/7KQ2M9X4TD0C?17=270603');
    expect(
      packageDigitalLink(
        { gtin: '6901234567892', lot: '批次一', traceCode: 'ABCD' },
        'https://r.cn',
      ),
    ).toBe('https://r.cn/01/06901234567892/21/ABCD');
    expect(packageDigitalLink({ gtin: null, lot: 'L', traceCode: 'ABCD' })).toBeUndefined();
    expect(packageDigitalLink({ gtin: '06901234567893', traceCode: 'ABCD' })).toBeUndefined();
  });

  it('turns ISO dates into YYMMDD and back (GS1 century window, DD 00 the last day)', () => {
    expect(gs1Date('2026-12-31')).toBe('261231');
    expect(gs1Date('2026-12-31T23:00:00+08:00')).toBe('261231');
    const today = new Date('2026-11-26T00:00:00Z');
    expect(isoFromGs1Date('261231', today)).toBe('2026-12-31');
    expect(isoFromGs1Date('280200', today)).toBe('2028-02-29');
    expect(isoFromGs1Date('270200', today)).toBe('2027-02-28');
    expect(isoFromGs1Date('760101', today)).toBe('2076-01-01');
    expect(isoFromGs1Date('770101', today)).toBe('1977-01-01');
    expect(isoFromGs1Date('300101', new Date('2080-06-01T00:00:00Z'))).toBe('2130-01-01');
    expect(isoFromGs1Date('310101', new Date('2080-06-01T00:00:00Z'))).toBe('2031-01-01');
    expect(isoFromGs1Date('270229', today)).toBeUndefined();
    expect(isoFromGs1Date('271301', today)).toBeUndefined();
  });
});

const CSET82 = `!"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz`;
const cset82Value = fc
  .array(fc.constantFrom(...CSET82.split('')), { minLength: 1, maxLength: 20 })
  .map((chars) => chars.join(''));
const gtin14 = fc
  .array(fc.integer({ min: 0, max: 9 }), { minLength: 13, maxLength: 13 })
  .map((digits) => completeGtin(digits.join('')));
const yymmdd = fc
  .record({
    yy: fc.integer({ min: 0, max: 99 }),
    mm: fc.integer({ min: 1, max: 12 }),
    dd: fc.integer({ min: 0, max: 28 }),
  })
  .map(({ yy, mm, dd }) => [yy, mm, dd].map((n) => String(n).padStart(2, '0')).join(''));

describe('Digital Link round trips (property)', () => {
  it('parse(build(parts)) gives the parts back, under any resolver', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            gtin: gtin14,
            cpv: cset82Value,
            lot: cset82Value,
            serial: cset82Value,
            bestBefore: yymmdd,
          },
          { requiredKeys: ['gtin'] },
        ),
        fc.constantFrom(
          'https://id.gs1.org',
          'https://trace.example.cn/r',
          'http://127.0.0.1:3000',
        ),
        (parts: DigitalLinkParts, resolver) => {
          const uri = buildDigitalLink(parts, resolver);
          expect(uri).toMatch(/^[A-Za-z0-9\-._~:/?=%]+$/);
          expect(parseDigitalLink(uri)).toEqual({
            ok: true,
            value: { ...parts, resolver, attributes: {} },
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('every GTIN with one digit changed fails its check digit', () => {
    fc.assert(
      fc.property(
        gtin14,
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 1, max: 9 }),
        (g, i, d) => {
          const changed = g.slice(0, i) + String((Number(g[i]) + d) % 10) + g.slice(i + 1);
          expect(checkGtin(changed).ok).toBe(false);
        },
      ),
    );
  });
});

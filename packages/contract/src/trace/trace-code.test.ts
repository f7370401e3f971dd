import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CROCKFORD_ALPHABET,
  formatTraceCode,
  isTraceCode,
  newTraceCode,
  normalizeTraceCode,
  parseTraceCode,
  traceCodeCheckChar,
  TRACE_CODE_RE,
  traceHomeUrl,
} from './trace-code';

describe('trace codes', () => {
  it('are 12 characters of Crockford base 32 ending with their check character', () => {
    for (let i = 0; i < 200; i++) {
      const code = newTraceCode();
      expect(code).toMatch(TRACE_CODE_RE);
      expect(isTraceCode(code)).toBe(true);
    }
    expect(new Set(Array.from({ length: 1000 }, () => newTraceCode())).size).toBe(1000);
  });

  it('are drawn from the random bytes given, 5 bits of each', () => {
    const zeros = newTraceCode((n) => new Uint8Array(n));
    expect(zeros).toBe('000000000000');
    const code = newTraceCode((n) => Uint8Array.from({ length: n }, (_, i) => i + 32));
    expect(code.slice(0, 11)).toBe('0123456789A');
    expect(code[11]).toBe(traceCodeCheckChar('0123456789A'));
  });

  it('read what a person types: case, I/L/O, dashes, spaces, full-width forms, a scanned URL', () => {
    const code = newTraceCode((n) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + 3) & 31));
    expect(parseTraceCode(code)).toEqual({ ok: true, code });
    expect(normalizeTraceCode(formatTraceCode(code).toLowerCase())).toBe(code);
    expect(normalizeTraceCode(` ${code.slice(0, 4)} ${code.slice(4, 8)}\t${code.slice(8)} `)).toBe(
      code,
    );
    const wide = code.replace(/[0-9A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    expect(normalizeTraceCode(wide)).toBe(code);
    expect(normalizeTraceCode(`https://x.example/traceHome?code=${formatTraceCode(code)}`)).toBe(
      code,
    );

    const body = '1O1L0I00000';
    const full = body.replace(/O/g, '0').replace(/[IL]/g, '1');
    const withCheck = full + traceCodeCheckChar(full);
    expect(normalizeTraceCode(body + withCheck[11])).toBe(withCheck);
  });

  it('open the public page of their code', () => {
    expect(traceHomeUrl('https://console.example.cn/', '7KQ2M9X4TD0C')).toBe(
      'https://console.example.cn/traceHome?code=7KQ2M9X4TD0C',
    );
    expect(normalizeTraceCode(traceHomeUrl('http://localhost:3000', '000000000000'))).toBe(
      '000000000000',
    );
  });

  it('refuse with a reason: empty, characters (U, symbols), length, check', () => {
    expect(parseTraceCode('  - ')).toEqual({ ok: false, reason: 'empty' });
    expect(parseTraceCode('U00000000000')).toEqual({ ok: false, reason: 'characters' });
    expect(parseTraceCode('00000000000#')).toEqual({ ok: false, reason: 'characters' });
    expect(parseTraceCode('0000000000')).toEqual({ ok: false, reason: 'length' });
    expect(parseTraceCode('000000000001')).toEqual({ ok: false, reason: 'check' });
  });

  it('catch any one character changed and any two neighbours swapped but 0 and Z (property)', () => {
    const codeArb = fc
      .uint8Array({ minLength: 11, maxLength: 11 })
      .map((bytes) => newTraceCode(() => bytes));
    fc.assert(
      fc.property(codeArb, fc.nat(11), fc.integer({ min: 1, max: 31 }), (code, i, shift) => {
        const changed = CROCKFORD_ALPHABET[(CROCKFORD_ALPHABET.indexOf(code[i]!) + shift) % 32]!;
        expect(isTraceCode(code.slice(0, i) + changed + code.slice(i + 1))).toBe(false);
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(codeArb, fc.nat(10), (code, i) => {
        fc.pre(
          code[i] !== code[i + 1] &&
            `${code[i]}${code[i + 1]}` !== '0Z' &&
            `${code[i]}${code[i + 1]}` !== 'Z0',
        );
        const swapped = code.slice(0, i) + code[i + 1] + code[i] + code.slice(i + 2);
        expect(isTraceCode(swapped)).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });
});

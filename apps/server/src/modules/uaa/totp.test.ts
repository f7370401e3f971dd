import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  hotp,
  matchTotp,
  newTotpSecret,
  otpauthUrl,
  totpCode,
  totpStep,
} from './totp';

/** The key of the RFC 4226 and RFC 6238 test vectors (SHA-1). */
const RFC_KEY = Buffer.from('12345678901234567890', 'ascii');

describe('TOTP (RFC 6238) and HOTP (RFC 4226)', () => {
  it('gives the HOTP values of RFC 4226 appendix D', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    expect(expected.map((_, counter) => hotp(RFC_KEY, counter))).toEqual(expected);
  });

  it('gives the SHA-1 TOTP values of RFC 6238 appendix B', () => {
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, code] of vectors) {
      expect(hotp(RFC_KEY, totpStep(seconds * 1000), 8)).toBe(code);
      expect(totpCode(base32Encode(RFC_KEY), totpStep(seconds * 1000))).toBe(code.slice(2));
    }
  });

  it('round-trips base32 and makes 160-bit secrets', () => {
    expect(base32Encode(RFC_KEY)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('gezd gnbv-gy3tqojqgezdgnbvgy3tqojq')).toEqual(RFC_KEY);
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
  });

  it('accepts a code one step either side of now, never a used step again', () => {
    const secret = newTotpSecret();
    const now = Date.UTC(2026, 10, 22, 12, 0, 10);
    const step = totpStep(now);
    expect(matchTotp(secret, totpCode(secret, step), 0, now)).toBe(step);
    expect(matchTotp(secret, totpCode(secret, step - 1), 0, now)).toBe(step - 1);
    expect(matchTotp(secret, totpCode(secret, step + 1), 0, now)).toBe(step + 1);
    expect(matchTotp(secret, totpCode(secret, step + 2), 0, now)).toBeUndefined();
    expect(matchTotp(secret, totpCode(secret, step - 2), 0, now)).toBeUndefined();
    // Replay: the step already used, or an earlier one, is refused.
    expect(matchTotp(secret, totpCode(secret, step), step, now)).toBeUndefined();
    expect(matchTotp(secret, totpCode(secret, step - 1), step, now)).toBeUndefined();
    expect(matchTotp(secret, totpCode(secret, step + 1), step, now)).toBe(step + 1);
    expect(matchTotp(secret, 'abcdef', 0, now)).toBeUndefined();
  });

  it('writes the otpauth URL authenticator apps read', () => {
    expect(otpauthUrl('JBSWY3DPEHPK3PXP', 'demo', 'li wei')).toBe(
      'otpauth://totp/Shuili:demo/li%20wei?secret=JBSWY3DPEHPK3PXP&issuer=Shuili&algorithm=SHA1&digits=6&period=30',
    );
  });
});

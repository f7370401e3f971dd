import crypto from 'node:crypto';

/** RFC 6238 parameters every authenticator app understands: SHA-1, 30-second steps, 6 digits. */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of now, for clocks that drift a little (RFC 6238 §5.2). */
export const TOTP_WINDOW = 1;
export const TOTP_ISSUER = 'Shuili';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding, the form otpauth:// URLs carry. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new shared secret: 160 random bits (RFC 4226 §4 recommends the HMAC-SHA-1 output size). */
export function newTotpSecret(): string {
  return base32Encode(crypto.randomBytes(20));
}

/** RFC 4226 HOTP: HMAC-SHA-1 of the counter, dynamically truncated to `digits` decimal digits. */
export function hotp(key: Buffer, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = crypto.createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary =
    ((mac[offset]! & 0x7f) << 24) |
    (mac[offset + 1]! << 16) |
    (mac[offset + 2]! << 8) |
    mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The RFC 6238 time step of a moment. */
export function totpStep(nowMs = Date.now()): number {
  return Math.floor(nowMs / 1000 / TOTP_STEP_SECONDS);
}

/** The code of a base32 secret at a step. */
export function totpCode(secret: string, step = totpStep()): string {
  return hotp(base32Decode(secret), step);
}

/**
 * The step a code belongs to, within ±TOTP_WINDOW of now and after `lastUsedStep` (a code, once
 * accepted, is never accepted again: RFC 6238 §5.2), or undefined.
 */
export function matchTotp(
  secret: string,
  code: string,
  lastUsedStep: number,
  nowMs = Date.now(),
): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const key = base32Decode(secret);
  const now = totpStep(nowMs);
  let found: number | undefined;
  // Every candidate is computed and compared in constant time, whichever matches.
  for (let step = now - TOTP_WINDOW; step <= now + TOTP_WINDOW; step += 1) {
    const expected = Buffer.from(hotp(key, step));
    if (crypto.timingSafeEqual(expected, Buffer.from(code)) && step > lastUsedStep) found ??= step;
  }
  return found;
}

/** The otpauth:// URL authenticator apps read from the QR code (Key Uri Format). */
export function otpauthUrl(secret: string, tenantCode: string, username: string): string {
  const label = `${encodeURIComponent(TOTP_ISSUER)}:${encodeURIComponent(tenantCode)}/${encodeURIComponent(username)}`;
  const params = new URLSearchParams({
    secret,
    issuer: TOTP_ISSUER,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}

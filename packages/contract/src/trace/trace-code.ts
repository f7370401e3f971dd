/**
 * Trace codes (docs/traceability.md "Codes"): 12 characters of Crockford's base 32 (digits and
 * letters without I, L, O, U), 11 random (55 bits) and a check character, unique across tenants,
 * so the public look-up needs no tenant. Printed in groups of four (ABCD-EFGH-JKMN); what a person
 * types is read leniently (lower case, full-width characters, I and L for 1, O for 0, spaces and
 * dashes) and the check character catches every single mistyped character and every swap of two
 * neighbours (but 0 and Z) before the database is asked.
 */

/** Crockford's base 32 alphabet. */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const TRACE_CODE_LENGTH = 12;

/** A trace code as stored: upper case, no separators (the database's check: the same set). */
export const TRACE_CODE_RE = /^[0-9A-HJKMNP-TV-Z]{12}$/;

const BODY_LENGTH = TRACE_CODE_LENGTH - 1;
const N = CROCKFORD_ALPHABET.length;

function valueOf(char: string): number {
  return CROCKFORD_ALPHABET.indexOf(char);
}

/**
 * The check character of a code's first 11 characters: Luhn mod 32 (the Luhn algorithm over the
 * alphabet's 32 values), which finds any one wrong character and any two neighbours swapped
 * except 0 and Z (as Luhn's 09 and 90).
 */
export function traceCodeCheckChar(body: string): string {
  let factor = 2;
  let sum = 0;
  for (let i = body.length - 1; i >= 0; i--) {
    const value = valueOf(body[i]!);
    if (value < 0) throw new TypeError(`traceCodeCheckChar: not Crockford base 32: ${body}`);
    const addend = factor * value;
    sum += Math.floor(addend / N) + (addend % N);
    factor = factor === 2 ? 1 : 2;
  }
  return CROCKFORD_ALPHABET[(N - (sum % N)) % N]!;
}

/** Whether a stored-form code (upper case, 12 characters) ends with its check character. */
export function isTraceCode(code: string): boolean {
  return (
    TRACE_CODE_RE.test(code) && traceCodeCheckChar(code.slice(0, BODY_LENGTH)) === code[BODY_LENGTH]
  );
}

/**
 * A new trace code from `randomBytes` (the platform's crypto.getRandomValues by default: Node
 * 20 and browsers). Each character takes 5 bits of its own byte, so every code is equally likely.
 */
export function newTraceCode(
  randomBytes: (length: number) => Uint8Array = (length) =>
    globalThis.crypto.getRandomValues(new Uint8Array(length)),
): string {
  const bytes = randomBytes(BODY_LENGTH);
  if (bytes.length < BODY_LENGTH) throw new RangeError('newTraceCode: too few random bytes');
  let body = '';
  for (let i = 0; i < BODY_LENGTH; i++) body += CROCKFORD_ALPHABET[bytes[i]! & 31];
  return body + traceCodeCheckChar(body);
}

/** A code as printed for people: groups of four joined by dashes (ABCD-EFGH-JKMN). */
export function formatTraceCode(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? code;
}

/**
 * The address a trace code's QR label opens: the console's public page of that code,
 * `{origin}/traceHome?code={code}` (the origin without a trailing slash, e.g.
 * https://console.example.cn).
 */
export function traceHomeUrl(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, '')}/traceHome?code=${encodeURIComponent(code)}`;
}

export type TraceCodeProblem = 'empty' | 'characters' | 'length' | 'check';

export type TraceCodeParse = { ok: true; code: string } | { ok: false; reason: TraceCodeProblem };

/**
 * What a person typed (or a scanner read) as a stored-form trace code, or why it is none:
 * full-width forms folded (NFKC), spaces, dashes and dots removed, upper-cased, I and L read as
 * 1 and O as 0; then only the alphabet may remain, 12 characters, with a good check character.
 * A scanned console address (…/traceHome?code=…) gives its code.
 */
export function parseTraceCode(input: string): TraceCodeParse {
  let text = input.normalize('NFKC').trim();
  const fromUrl = /[?&]code=([^&#\s]*)/i.exec(text);
  if (fromUrl) {
    try {
      text = decodeURIComponent(fromUrl[1]!);
    } catch {
      return { ok: false, reason: 'characters' };
    }
  }
  const code = text
    .replace(/[\s\-‐-―−_.·]/g, '')
    .toUpperCase()
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0');
  if (code === '') return { ok: false, reason: 'empty' };
  if (!/^[0-9A-HJKMNP-TV-Z]*$/.test(code)) return { ok: false, reason: 'characters' };
  if (code.length !== TRACE_CODE_LENGTH) return { ok: false, reason: 'length' };
  if (!isTraceCode(code)) return { ok: false, reason: 'check' };
  return { ok: true, code };
}

/** The stored form of what a person typed, or undefined (parseTraceCode tells why). */
export function normalizeTraceCode(input: string): string | undefined {
  const parsed = parseTraceCode(input);
  return parsed.ok ? parsed.code : undefined;
}

/**
 * GS1 identifiers of a package batch (docs/traceability.md "Codes"): the GTIN and its check
 * digit (GS1 General Specifications §7.9.1), and the GS1 Digital Link URI that carries the GTIN,
 * its key qualifiers (22 consumer product variant, 10 batch/lot, 21 serial, in that order) and
 * the best-before date (data attribute 17, YYMMDD) in the query string. (GS1 names AI 17 "use by
 * or expiry" and AI 15 "best before"; docs/traceability.md settled on 17 for the package's date.)
 *
 * Pure functions, no I/O: used by the server (package batches, labels, EPCIS export) and by the
 * public page alike.
 */

/** The resolver a Digital Link is written under when a tenant has none of its own. */
export const GS1_RESOLVER = 'https://id.gs1.org';

/** Why a GTIN was refused. */
export type GtinProblem = 'empty' | 'notDigits' | 'length' | 'checkDigit';

export type GtinCheck =
  | { ok: true; gtin14: string; length: 8 | 12 | 13 | 14 }
  | { ok: false; reason: GtinProblem; expectedCheckDigit?: number };

/**
 * The GS1 check digit of a GTIN's other digits: weights 3 and 1 from the right, the digit that
 * makes the sum a multiple of 10 (0952123454321 → 3). `body` is 7, 11, 12 or 13 digits.
 */
export function gtinCheckDigit(body: string): number {
  if (!/^\d+$/.test(body)) throw new TypeError(`gtinCheckDigit: not digits: ${body}`);
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * Checks a GTIN-8, -12, -13 or -14 as typed (spaces and dashes between the digits are allowed)
 * and gives it as a GTIN-14 (zeros on the left), or the reason it is refused; a wrong check
 * digit comes with the expected one.
 */
export function checkGtin(input: string): GtinCheck {
  const digits = input.replace(/[\s-]/g, '');
  if (digits === '') return { ok: false, reason: 'empty' };
  if (!/^\d+$/.test(digits)) return { ok: false, reason: 'notDigits' };
  const length = digits.length;
  if (length !== 8 && length !== 12 && length !== 13 && length !== 14) {
    return { ok: false, reason: 'length' };
  }
  const expected = gtinCheckDigit(digits.slice(0, -1));
  if (expected !== Number(digits.at(-1))) {
    return { ok: false, reason: 'checkDigit', expectedCheckDigit: expected };
  }
  return { ok: true, gtin14: digits.padStart(14, '0'), length };
}

export function isValidGtin(input: string): boolean {
  return checkGtin(input).ok;
}

/** A valid GTIN as a GTIN-14; throws on an invalid one (use checkGtin to tell why). */
export function toGtin14(input: string): string {
  const checked = checkGtin(input);
  if (!checked.ok) throw new TypeError(`Invalid GTIN (${checked.reason}): ${input}`);
  return checked.gtin14;
}

/** A GTIN-14 from its first 13 digits, with the check digit appended. */
export function completeGtin(body13: string): string {
  const padded = body13.padStart(13, '0');
  return `${padded}${gtinCheckDigit(padded)}`;
}

// ---------------------------------------------------------------------------------------------
// GS1 AI encodable character set 82 and the Digital Link's percent-encoding

/** GS1 AI encodable character set 82 (GS1 General Specifications, figure 7.11-1). */
const CSET82 = /^[!"%&'()*+,\-./0-9:;<=>?A-Z_a-z]*$/;

export function isCset82(value: string): boolean {
  return CSET82.test(value);
}

/**
 * A batch or serial as a Digital Link path segment or query value: everything but the URI
 * unreserved characters A–Z a–z 0–9 - . _ is percent-encoded (as the GS1 Digital Link standard
 * and GS1's own syntax engine write them: "/" → %2F, "!" → %21, "(" → %28 …).
 */
export function encodeDigitalLinkValue(value: string): string {
  let out = '';
  for (const char of value) {
    if (/[A-Za-z0-9\-._~]/.test(char)) out += char;
    else {
      for (const byte of new TextEncoder().encode(char)) {
        out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
      }
    }
  }
  return out;
}

/** The reverse of encodeDigitalLinkValue (also reads values a writer left unescaped). */
export function decodeDigitalLinkValue(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Dates (AI 17 best before, YYMMDD)

/** A calendar day YYYY-MM-DD (or an ISO time, whose date part is taken) as GS1 YYMMDD. */
export function gs1Date(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  if (!match) throw new TypeError(`gs1Date: not an ISO date: ${isoDate}`);
  return `${match[1]!.slice(2)}${match[2]}${match[3]}`;
}

/** Whether YYMMDD is a GS1 date: a real month, a day of it, or 00 (the month's last day). */
export function isGs1Date(value: string): boolean {
  const match = /^(\d{2})(\d{2})(\d{2})$/.exec(value);
  if (!match) return false;
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12) return false;
  // 2000 is a leap year, so 29 February passes for every YY, as GS1 allows.
  return day <= new Date(Date.UTC(2000, month, 0)).getUTCDate();
}

/**
 * GS1 YYMMDD as YYYY-MM-DD. The century follows GS1 General Specifications §7.12: a year 51 or
 * more ahead of `today`'s is in the previous century, one 50 or more behind in the next. DD 00
 * is the month's last day.
 */
export function isoFromGs1Date(value: string, today: Date = new Date()): string | undefined {
  if (!isGs1Date(value)) return undefined;
  const yy = Number(value.slice(0, 2));
  const currentYear = today.getUTCFullYear();
  const century = Math.floor(currentYear / 100) * 100;
  const diff = yy - (currentYear % 100);
  const year = diff >= 51 ? century - 100 + yy : diff <= -50 ? century + 100 + yy : century + yy;
  const month = Number(value.slice(2, 4));
  let day = Number(value.slice(4, 6));
  if (day === 0) day = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Digital Link URIs

/** What a Digital Link of a trade item says (values decoded; GTIN as GTIN-14). */
export interface DigitalLinkParts {
  /** AI 01, 14 digits with a correct check digit (GTIN-8/12/13 are accepted and padded). */
  gtin: string;
  /** AI 22, consumer product variant (CSET 82, up to 20). */
  cpv?: string;
  /** AI 10, batch or lot number (CSET 82, up to 20). */
  lot?: string;
  /** AI 21, serial number (CSET 82, up to 20). */
  serial?: string;
  /** AI 17, best before, YYMMDD (DD may be 00). */
  bestBefore?: string;
}

/** A Digital Link read back: its parts, the resolver it was written under and other query keys. */
export interface ParsedDigitalLink extends DigitalLinkParts {
  /** Scheme, host and any path before /01/, without a trailing slash. */
  resolver: string;
  /** Other query parameters (further data attributes, non-GS1 keys), decoded. */
  attributes: Record<string, string>;
}

export type DigitalLinkField = 'gtin' | 'cpv' | 'lot' | 'serial' | 'bestBefore' | 'resolver';

export type DigitalLinkProblem =
  'notUri' | 'resolver' | 'noGtin' | 'gtin' | 'order' | 'unknownQualifier' | 'value' | 'bestBefore';

/** Key qualifiers of AI 01 in the one order the Digital Link standard allows. */
const QUALIFIERS = [
  { ai: '22', field: 'cpv', alias: 'cpv' },
  { ai: '10', field: 'lot', alias: 'lot' },
  { ai: '21', field: 'serial', alias: 'ser' },
] as const;

const MAX_QUALIFIER_LENGTH = 20;

function qualifierProblem(value: string | undefined): boolean {
  return (
    value !== undefined &&
    (value.length === 0 || value.length > MAX_QUALIFIER_LENGTH || !isCset82(value))
  );
}

/**
 * The first field of a Digital Link's parts that cannot be written, with the reason: a GTIN
 * without its check digit, a batch or serial of more than 20 characters or outside CSET 82, a
 * best-before that is no YYMMDD date, a resolver that is no http(s) address.
 */
export function checkDigitalLinkParts(
  parts: DigitalLinkParts,
  resolver: string = GS1_RESOLVER,
): { field: DigitalLinkField; reason: string } | undefined {
  const gtin = checkGtin(parts.gtin);
  if (!gtin.ok) return { field: 'gtin', reason: gtin.reason };
  for (const { field } of QUALIFIERS) {
    if (qualifierProblem(parts[field])) return { field, reason: 'value' };
  }
  if (parts.bestBefore !== undefined && !isGs1Date(parts.bestBefore)) {
    return { field: 'bestBefore', reason: 'bestBefore' };
  }
  if (!resolverOk(resolver)) return { field: 'resolver', reason: 'resolver' };
  return undefined;
}

function resolverOk(resolver: string): boolean {
  try {
    const url = new URL(resolver);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.search && !url.hash;
  } catch {
    return false;
  }
}

/**
 * The Digital Link URI of a trade item: `{resolver}/01/{GTIN-14}[/22/…][/10/…][/21/…][?17=YYMMDD]`.
 * Throws a TypeError naming the field when a part cannot be written (checkDigitalLinkParts first
 * to answer a person).
 */
export function buildDigitalLink(parts: DigitalLinkParts, resolver: string = GS1_RESOLVER): string {
  const problem = checkDigitalLinkParts(parts, resolver);
  if (problem) throw new TypeError(`Digital Link: invalid ${problem.field} (${problem.reason})`);
  let uri = `${resolver.replace(/\/+$/, '')}/01/${toGtin14(parts.gtin)}`;
  for (const { ai, field } of QUALIFIERS) {
    const value = parts[field];
    if (value !== undefined) uri += `/${ai}/${encodeDigitalLinkValue(value)}`;
  }
  if (parts.bestBefore !== undefined) uri += `?17=${parts.bestBefore}`;
  return uri;
}

export type DigitalLinkParse =
  { ok: true; value: ParsedDigitalLink } | { ok: false; reason: DigitalLinkProblem; ai?: string };

/**
 * Reads a Digital Link URI of a trade item (primary key 01). Key qualifiers must follow in the
 * order 22, 10, 21 (each at most once); the short names of Digital Link 1.0 (gtin, cpv, lot,
 * ser) are read too. Values are percent-decoded and must be CSET 82. AI 17 in the query is the
 * best before; other query keys are kept in `attributes`.
 */
export function parseDigitalLink(uri: string): DigitalLinkParse {
  // Read by hand, not with URL: a WHATWG URL resolves "." and ".." (also "%2E") path segments,
  // which are valid batch and serial numbers.
  const match = /^(https?):\/\/([^/?#\s]+)([^?#\s]*)(?:\?([^#\s]*))?(?:#\S*)?$/i.exec(uri.trim());
  if (!match) return { ok: false, reason: 'notUri' };
  const [, scheme, authority, path = '', query] = match;
  let origin: string;
  try {
    origin = new URL(`${scheme!.toLowerCase()}://${authority}`).origin;
  } catch {
    return { ok: false, reason: 'notUri' };
  }
  const segments = path.split('/').slice(1);
  if (segments.at(-1) === '') segments.pop();
  // The primary key is the last 01 (or gtin) from which the rest of the path reads as pairs.
  let start = -1;
  for (let i = segments.length - 2; i >= 0; i--) {
    if ((segments[i] === '01' || segments[i] === 'gtin') && (segments.length - i) % 2 === 0) {
      start = i;
      break;
    }
  }
  if (start < 0) return { ok: false, reason: 'noGtin' };
  const gtinValue = segments[start + 1]!;
  const gtin = /^\d+$/.test(gtinValue) ? checkGtin(gtinValue) : undefined;
  if (!gtin?.ok) return { ok: false, reason: 'gtin', ai: '01' };

  const prefix = segments.slice(0, start);
  const value: ParsedDigitalLink = {
    resolver: `${origin}${prefix.length ? `/${prefix.join('/')}` : ''}`,
    gtin: gtin.gtin14,
    attributes: {},
  };
  let next = 0;
  for (let i = start + 2; i < segments.length; i += 2) {
    const key = segments[i]!;
    const index = QUALIFIERS.findIndex((q) => q.ai === key || q.alias === key);
    if (index < 0) return { ok: false, reason: 'unknownQualifier', ai: key };
    const qualifier = QUALIFIERS[index]!;
    if (index < next) return { ok: false, reason: 'order', ai: qualifier.ai };
    next = index + 1;
    const decoded = decodeDigitalLinkValue(segments[i + 1]!);
    if (decoded === undefined || qualifierProblem(decoded)) {
      return { ok: false, reason: 'value', ai: qualifier.ai };
    }
    value[qualifier.field] = decoded;
  }
  for (const pair of (query ?? '').split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const key = decodeDigitalLinkValue(equals < 0 ? pair : pair.slice(0, equals));
    const raw = decodeDigitalLinkValue(equals < 0 ? '' : pair.slice(equals + 1));
    if (key === undefined || raw === undefined) return { ok: false, reason: 'notUri' };
    if (key === '17' || key === 'exp') {
      if (!isGs1Date(raw)) return { ok: false, reason: 'bestBefore', ai: '17' };
      value.bestBefore = raw;
    } else value.attributes[key] = raw;
  }
  return { ok: true, value };
}

/**
 * The Digital Link of a package batch (docs/traceability.md "Codes"): its GTIN, batch/lot, the
 * trace code as serial and the best-before (a YYYY-MM-DD in the batch's own time zone) as AI 17;
 * undefined without a GTIN. A lot the Digital Link cannot carry (over 20 characters, outside
 * CSET 82) is left out rather than refused: the trace code alone still names the batch.
 */
export function packageDigitalLink(
  pkg: { gtin?: string | null; lot?: string | null; traceCode: string; bestBefore?: string | null },
  resolver: string = GS1_RESOLVER,
): string | undefined {
  if (!pkg.gtin || !isValidGtin(pkg.gtin)) return undefined;
  const lot = pkg.lot && !qualifierProblem(pkg.lot) ? pkg.lot : undefined;
  const bestBefore = pkg.bestBefore ? gs1Date(pkg.bestBefore) : undefined;
  return buildDigitalLink(
    {
      gtin: pkg.gtin,
      ...(lot ? { lot } : {}),
      serial: pkg.traceCode,
      ...(bestBefore && isGs1Date(bestBefore) ? { bestBefore } : {}),
    },
    resolver,
  );
}

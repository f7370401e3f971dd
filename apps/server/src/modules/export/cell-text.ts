/**
 * Characters XML 1.0 forbids (C0 controls but tab / LF / CR, U+FFFE/U+FFFF, lone surrogates):
 * one of them in a cell makes Excel and Word reject the whole file as corrupt.
 */
const XML_INVALID =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Leading characters that make Excel, LibreOffice or Sheets read a cell as a formula (or DDE). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** East Asian wide and fullwidth ranges: such a character takes about two columns of Latin text. */
const WIDE =
  /^(?:[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]|[\uD840-\uD87F][\uDC00-\uDFFF])$/;

/**
 * The text of any cell value. Types are only a promise at run time, so dates, bigints and objects
 * are written as text too rather than failing the whole export.
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.replace(XML_INVALID, '');
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  try {
    return (JSON.stringify(value) ?? '').replace(XML_INVALID, '');
  } catch {
    return String(value).replace(XML_INVALID, '');
  }
}

/**
 * Prefixes an apostrophe to text a spreadsheet would evaluate (OWASP "CSV injection"), so an
 * exported `=HYPERLINK(...)` typed by one user cannot run on another user's machine.
 */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** Cuts text to at most `max` UTF-16 units, ending in "…", without splitting a surrogate pair. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** Width in Latin-character units (CJK counts double), looking at most at `limit` characters. */
export function displayWidth(text: string, limit = 200): number {
  let width = 0;
  let seen = 0;
  for (const char of text) {
    if (++seen > limit) break;
    width += WIDE.test(char) ? 2 : 1;
  }
  return width;
}

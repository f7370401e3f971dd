/**
 * PRC resident identity numbers (GB 11643-1999): 6 digits of the issuing region, the birth date
 * as YYYYMMDD, a 3-digit sequence and a check character (ISO 7064 MOD 11-2, X for 10).
 */
const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] as const;
const CHECK_CHARS = '10X98765432';
const SHAPE = /^\d{17}[\dX]$/;

/** The check character the first 17 digits call for. */
export function idNumberCheckChar(first17: string): string {
  let sum = 0;
  for (let index = 0; index < 17; index++) sum += Number(first17[index]) * WEIGHTS[index]!;
  return CHECK_CHARS[sum % 11]!;
}

/** Whether an 18-character number has the right shape, a real birth date and its check character. */
export function isValidIdNumber(value: string): boolean {
  const id = value.toUpperCase();
  if (!SHAPE.test(id)) return false;
  const year = Number(id.slice(6, 10));
  const month = Number(id.slice(10, 12));
  const day = Number(id.slice(12, 14));
  const birth = new Date(Date.UTC(year, month - 1, day));
  if (
    year < 1900 ||
    birth.getUTCFullYear() !== year ||
    birth.getUTCMonth() !== month - 1 ||
    birth.getUTCDate() !== day
  )
    return false;
  return idNumberCheckChar(id.slice(0, 17)) === id[17];
}

/**
 * How lists, exports and screens show a number: the region and the last four, the birth date and
 * sequence hidden (370102********1234). The full number stays on the server.
 */
export function maskIdNumber(value: string): string {
  return value.length === 18 ? `${value.slice(0, 6)}********${value.slice(14)}` : '****';
}

/** The same mask as SQL over a column, for the entity's computed field. */
export const MASKED_ID_SQL = (column: string) =>
  `CASE WHEN length(${column}) = 18 THEN overlay(${column} placing '********' from 7 for 8) ELSE '****' END`;

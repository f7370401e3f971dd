import { fenText } from '../reader/card-reader-text';

/** Yuan as typed (up to two decimals) into integer fen, exactly: "12.3" → 1230; else undefined. */
export function fenOf(yuan: string | number | null | undefined): number | undefined {
  const text = String(yuan ?? '').trim();
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

export { fenText };

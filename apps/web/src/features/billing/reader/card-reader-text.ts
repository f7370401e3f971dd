import type { TFunction } from 'i18next';
import { loadFeatureStrings } from '../../../i18n/i18n';
import { CardReaderRequestError } from './card-reader-client';

/** The commands a service desk starts the card-reading service with (README.md). */
export const START_COMMAND = 'npm run card-reader';
export const SIMULATE_COMMAND = 'npm run card-reader -- --simulate';

/** The reader's texts; the status card loads them, a page showing reader errors may too. */
export function loadCardReaderStrings(): Promise<void> {
  return loadFeatureStrings(['billing']);
}

/** Yuan from integer fen, exactly (no floating point on money): 12345 → "123.45". */
export function fenText(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const size = Math.abs(fen);
  return `${sign}${Math.floor(size / 100)}.${String(size % 100).padStart(2, '0')}`;
}

/** What to tell the cashier about a failed reader request, in their language. */
export function cardReaderErrorText(t: TFunction, error: unknown): string {
  if (!(error instanceof CardReaderRequestError)) return t('cardReader.error.READER_ERROR');
  return t(`cardReader.error.${error.code}`, {
    block: error.block ?? '?',
    detail: error.message,
  });
}

import { AppError } from '../../../http/app-error';

const isKey = (error: unknown, ...keys: string[]) =>
  error instanceof AppError && keys.includes(error.key);

/**
 * A transaction's work again when it lost a race the ledger refused (up to 3 times): two swipes
 * of one household (the second finds the money held and is refused on what is left), an end and
 * a void of one session (the second finds it ended).
 */
export async function retried<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const race = isKey(error, 'billing.insufficientBalance', 'billing.holdEnded');
      if (!race || attempt >= 3) throw error;
    }
  }
}

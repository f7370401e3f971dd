import { z } from 'zod';

/** An id as the job calls take it: digits, as a string or a number (answered as a string). */
export const idParam = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform(String)
  .pipe(z.string().regex(/^\d{1,18}$/));

/** A time as the job calls answer it. */
export const isoOrNull = (value: Date | null) => (value ? value.toISOString() : null);

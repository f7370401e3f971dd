import { z } from 'zod';
import { BILLING_PATH } from '../entities/billing/billing-targets';

/** The water rights' call besides their generic ones. */
export const WATER_RIGHT_CALLS = {
  /** Creates the year's water right of every enabled household that has none yet. */
  distributeYear: `${BILLING_PATH}/waterRight/distributeYear`,
} as const;

export const distributeYearSchema = z.object({
  year: z
    .number({ error: 'validation.invalid' })
    .int({ error: 'validation.invalid' })
    .min(2000)
    .max(2100),
});
export type DistributeYear = z.input<typeof distributeYearSchema>;

export const distributeYearResultSchema = z.object({
  /** Rows made now. */
  created: z.number(),
  /** The year's rows after the call (those made now and those kept as they were). */
  total: z.number(),
});
export type DistributeYearResult = z.infer<typeof distributeYearResultSchema>;

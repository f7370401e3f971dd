import type { ApiEnvelope, PageResult } from '@shuili/contract';
import { z } from 'zod';

/** The success envelope of DESIGN §5. */
export function ok<T>(data: T, message = 'success'): ApiEnvelope<T> {
  return { code: 200, message, data };
}

export function page<T>(
  list: T[],
  total: number,
  currentPage: number,
  pageSize: number,
): ApiEnvelope<PageResult<T>> {
  return ok({ list, total, currentPage, pageSize });
}

/** The envelope's schema around a data schema, for response validation and OpenAPI. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number(), message: z.string(), data });
}

export function pageOf<T extends z.ZodType>(item: T) {
  return envelopeOf(
    z.object({
      list: z.array(item),
      total: z.number(),
      currentPage: z.number(),
      pageSize: z.number(),
    }),
  );
}

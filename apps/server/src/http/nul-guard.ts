import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error';

/** Nesting deeper than any schema allows is left to the schemas (they refuse it first). */
const MAX_DEPTH = 32;

/**
 * The field (top-level name, as forms show it) of the first string holding U+0000, '' for the
 * whole value, or undefined when there is none. Raw bytes (uploads) are not text and are skipped.
 */
export function fieldWithNul(value: unknown, field = '', depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? field : undefined;
  if (
    value === null ||
    typeof value !== 'object' ||
    Buffer.isBuffer(value) ||
    // An upload's body is its request stream, read by the route itself (device-file.routes.ts).
    value instanceof Readable ||
    depth > MAX_DEPTH
  )
    return undefined;
  for (const [key, child] of Object.entries(value)) {
    const found =
      fieldWithNul(key, field || key, depth + 1) ?? fieldWithNul(child, field || key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * PostgreSQL text cannot hold U+0000, and a schema's "any string" lets it through: refuse it
 * after validation with a 400 naming the field, instead of letting the database fail the
 * statement with a server error.
 */
export function registerNulGuard(app: FastifyInstance) {
  app.addHook('preHandler', async (request) => {
    const parts = { body: request.body, querystring: request.query, params: request.params };
    for (const [part, value] of Object.entries(parts)) {
      const field = fieldWithNul(value);
      if (field !== undefined)
        throw new AppError(400, 'validation.invalid', {
          fields: [{ field: field || part, key: 'validation.invalid' }],
        });
    }
  });
}

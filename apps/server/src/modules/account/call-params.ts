import { z } from 'zod';
import { AppError } from '../../http/app-error';
import { issuesToProblems } from '../../http/validation-problems';

/**
 * The route schemas of a call that takes spec §7 "params": the query string (other names ignored,
 * as any query's are) or a body, an application/x-www-form-urlencoded form or JSON (the console's),
 * strict against unknown fields. Each part alone may leave params out; `callParams` checks the
 * whole.
 */
export function paramSchemas<Shape extends z.ZodRawShape>(shape: Shape) {
  return {
    querystring: z.object(shape).partial(),
    body: z.strictObject(shape).partial().nullish(),
  };
}

/** An optional param a form may send blank (`parentId=`) or JSON as null: absent either way. */
export function optionalParam<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    schema.optional(),
  );
}

const objectOf = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/**
 * A call's params from its query and body together, the body winning where both name one (as on
 * the token endpoint and in http/form-params.ts, which serves the routes without a body of their
 * own), checked as a whole: a missing or bad param is a 400 naming it, like any validation error.
 */
export function callParams<T extends z.ZodType>(
  schema: T,
  request: { query: unknown; body: unknown },
): z.output<T> {
  const result = schema.safeParse({ ...objectOf(request.query), ...objectOf(request.body) });
  if (!result.success)
    throw new AppError(400, 'validation.invalid', {
      fields: issuesToProblems(result.error.issues as never),
      oauthError: 'invalid_request',
    });
  return result.data;
}

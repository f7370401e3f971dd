/** A field that failed validation, before translation. */
export interface FieldProblem {
  field: string;
  key: string;
  params?: Record<string, string | number>;
}

/**
 * An error the client caused or must act on. It carries a message key, not text: the error
 * handler translates it into the caller's language.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly key: string,
    readonly options: {
      params?: Record<string, string | number>;
      /** Envelope code when it differs from the HTTP status (spec §8: 50008, 50012, 50014). */
      code?: number;
      fields?: FieldProblem[];
      headers?: Record<string, string>;
      /** OAuth error code for the token endpoint and bearer failures (RFC 6749 / 6750). */
      oauthError?: string;
      /** More members of an OAuth error answer (RFC 6749 §5.2 allows them): an MFA ticket. */
      extra?: Record<string, string | number>;
    } = {},
  ) {
    super(key);
  }
}

export const badRequest = (key: string, params?: Record<string, string | number>) =>
  new AppError(400, key, { params });
export const forbidden = (key = 'auth.forbidden', params?: Record<string, string | number>) =>
  new AppError(403, key, { params });
export const notFound = (key = 'error.notFound') => new AppError(404, key);
export const conflict = (key: string, field?: string) =>
  new AppError(409, key, { fields: field ? [{ field, key }] : undefined });
export const tooManyRequests = (retryAfterSeconds: number, key = 'auth.throttled') =>
  new AppError(429, key, {
    params: { seconds: retryAfterSeconds },
    headers: { 'retry-after': String(retryAfterSeconds) },
    oauthError: 'slow_down',
  });

/** A failure of the OAuth token endpoint, answered in RFC 6749 form rather than the envelope. */
export const oauthError = (
  status: number,
  error: string,
  key: string,
  params?: Record<string, string | number>,
) => new AppError(status, key, { oauthError: error, params });

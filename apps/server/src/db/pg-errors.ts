/**
 * Whether a database error is a unique-constraint violation, optionally of one constraint or
 * index. node-postgres and PGlite both carry SQLSTATE in `code`; the constraint's name is in
 * `constraint` (node-postgres) or only in the message (PGlite).
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (!error || typeof error !== 'object') return false;
  const {
    code,
    constraint: name,
    message,
  } = error as { code?: unknown; constraint?: unknown; message?: unknown };
  if (code !== '23505') return false;
  if (!constraint) return true;
  return (
    name === constraint || (typeof message === 'string' && message.includes(`"${constraint}"`))
  );
}

/** SQLSTATE and the constraint a database error names (node-postgres field or PGlite message). */
export function pgErrorOf(
  error: unknown,
): { code: string; constraint: string | undefined } | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { code, constraint, message } = error as {
    code?: unknown;
    constraint?: unknown;
    message?: unknown;
  };
  if (typeof code !== 'string') return undefined;
  const named =
    typeof constraint === 'string'
      ? constraint
      : typeof message === 'string'
        ? (/constraint "([^"]+)"/.exec(message)?.[1] ?? /index "([^"]+)"/.exec(message)?.[1])
        : undefined;
  return { code, constraint: named };
}

export const PG = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  notNullViolation: '23502',
  checkViolation: '23514',
  invalidText: '22P02',
} as const;

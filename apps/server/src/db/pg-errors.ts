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

/** Row-level security refused a row (SQLSTATE 42501 with the policy's message, not a grant's). */
export function isRowSecurityRefusal(error: unknown): boolean {
  const pg = pgErrorOf(error);
  const message = (error as { message?: unknown } | undefined)?.message;
  return (
    pg?.code === '42501' && typeof message === 'string' && message.includes('row-level security')
  );
}

export const PG = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  notNullViolation: '23502',
  checkViolation: '23514',
  invalidText: '22P02',
} as const;

/**
 * Every pooled connection stayed busy for the wait allowed, while the database was answering:
 * the node is overloaded, the database is not down (that is isDatabaseUnavailable).
 */
export class DatabaseBusyError extends Error {
  readonly code = 'DATABASE_BUSY';
  constructor() {
    super('every database connection is busy');
  }
}

/** Socket errors of a database that went away or cannot be reached. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']);

/**
 * Whether an error says the database cannot be reached right now (stopped, restarting, network):
 * socket errors, SQLSTATE class 08 (connection exception), 57P01-57P03 (shut down, crashed,
 * starting up) and node-postgres' own connection messages. Such a request may succeed later.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (UNREACHABLE.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code)) return true;
  }
  return (
    typeof message === 'string' &&
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
      message,
    )
  );
}

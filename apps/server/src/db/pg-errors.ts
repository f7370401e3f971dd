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

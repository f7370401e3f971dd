const PLAIN = /^\s*(SELECT|WITH|INSERT|UPDATE|DELETE)\b/i;
/**
 * A prepared statement answering `*` fails for good once a later migration adds a column to its
 * table ("cached plan must not change result type"), so such statements stay unnamed.
 */
const STAR = /\b(SELECT|RETURNING)\s+\*/i;

/**
 * Names for the statements a PostgreSQL connection may keep prepared. A named statement is parsed
 * and planned once per connection (and, after a few runs, served by its generic plan) instead of
 * at every call: planning the list's statements cost more than running them. Only plain DML
 * and queries are named, and at most `limit` distinct texts, so SQL built with inlined values
 * cannot grow every connection's cache without bound; the rest run unnamed, as before.
 */
export function preparedStatementNames(limit = 2_000) {
  const names = new Map<string, string>();
  return (text: string): string | undefined => {
    const known = names.get(text);
    if (known !== undefined) return known;
    if (names.size >= limit || !PLAIN.test(text) || STAR.test(text)) return undefined;
    const name = `shuili_${names.size + 1}`;
    names.set(text, name);
    return name;
  };
}

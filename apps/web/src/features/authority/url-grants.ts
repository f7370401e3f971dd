/** A URL permission as querySysUrl lists it. */
export interface UrlRow {
  id: string;
  url: string;
  method: string;
  description?: string | null;
}

/** The resource a URL belongs to: everything up to its last segment, '/api/admin/sysuser/'. */
export function urlPrefix(url: string): string {
  const at = url.lastIndexOf('/');
  return at < 0 ? url : url.slice(0, at + 1);
}

export interface UrlPrefix {
  prefix: string;
  count: number;
}

/** The resources of the URLs with how many URLs each has, in alphabetical order. */
export function urlPrefixes(rows: readonly UrlRow[]): UrlPrefix[] {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const prefix = urlPrefix(row.url);
    counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  return [...counts]
    .map(([prefix, count]) => ({ prefix, count }))
    .sort((a, b) => a.prefix.localeCompare(b.prefix));
}

/** The ids of the URLs starting with a prefix. */
export function idsWithPrefix(rows: readonly UrlRow[], prefix: string): string[] {
  return rows.filter((row) => row.url.startsWith(prefix)).map((row) => row.id);
}

const READ_ONLY = /^(query|export)/;

/** Calls that only read: their last segment starts with query or export (queryX, exportPDFX). */
export function isReadOnlyUrl(url: string): boolean {
  return READ_ONLY.test(url.slice(url.lastIndexOf('/') + 1));
}

/** The ids of the read-only calls among the URLs. */
export function readOnlyIds(rows: readonly UrlRow[]): string[] {
  return rows.filter((row) => isReadOnlyUrl(row.url)).map((row) => row.id);
}

/** The URLs whose address or description holds the text (case-insensitive). */
export function filterUrls(rows: readonly UrlRow[], text: string): UrlRow[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return [...rows];
  return rows.filter(
    (row) =>
      row.url.toLowerCase().includes(needle) ||
      (row.description ?? '').toLowerCase().includes(needle),
  );
}

/** The selection with ids added (on) or taken away (off), in the order first chosen. */
export function toggleIds(
  selected: readonly string[],
  ids: readonly string[],
  on: boolean,
): string[] {
  if (on) return [...new Set([...selected, ...ids])];
  const off = new Set(ids);
  return selected.filter((id) => !off.has(id));
}

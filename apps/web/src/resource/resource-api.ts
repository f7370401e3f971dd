import {
  entityCalls,
  type EntityDef,
  type LinkTarget,
  type PageResult,
  type RefTarget,
} from '@shuili/contract';
import { http } from '../lib/http';
import type { ResourceRow } from './resource-row';
import type { QueryParams } from './search-params';

/** One entry of a dictionary (queryDictByDictType). */
export interface DictEntry {
  dictName: string;
  dictValue: string;
}

/** The export formats every exporting entity offers, with their calls. */
export const EXPORT_FORMATS = ['xlsx', 'docx', 'pdf', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const EXPORT_CALL = {
  xlsx: 'exportXlsx',
  docx: 'exportDocx',
  pdf: 'exportPdf',
  csv: 'exportCsv',
} as const satisfies Record<ExportFormat, keyof ReturnType<typeof entityCalls>>;

/** How many options a reference select fetches per search. */
export const REF_PAGE_SIZE = 20;

/** The generic calls of one entity (DESIGN §3), over the console's http client. */
export function resourceApi(entity: EntityDef) {
  const calls = entityCalls(entity);
  return {
    query: (params: QueryParams, signal?: AbortSignal) =>
      http.get<PageResult<ResourceRow>>(calls.query, { params, signal }),
    /** One level of a tree: the roots for no parent (lazy loading, rows carry hasChildren). */
    tree: (parentId: string | undefined, signal?: AbortSignal) =>
      http.get<ResourceRow[]>(calls.tree, { params: { parentId: parentId ?? '' }, signal }),
    add: (body: Record<string, unknown>) =>
      http.post<unknown>(calls.add, { data: body, quietFieldErrors: true }),
    update: (body: Record<string, unknown>) =>
      http.put<unknown>(calls.update, { data: body, quietFieldErrors: true }),
    /**
     * Batch delete: the keys comma-separated in one parameter named after the entity's key (id;
     * regionCode for regions, clientId for app clients).
     */
    remove: (keys: readonly string[]) =>
      http.post<unknown>(calls.delete, { params: { [entity.key]: keys.join(',') } }),
    setStatus: (ids: readonly string[], status: 0 | 1) =>
      http.post<unknown>(calls.status, { data: { ids, status } }),
    exportUrl: (format: ExportFormat) => calls[EXPORT_CALL[format]],
  };
}

export type ResourceApi = ReturnType<typeof resourceApi>;

export const DICT_CALL = '/api/admin/sysdict/queryDictByDictType';

/** The entries of one dictionary type, feeding every `dict` field's select. */
export function fetchDict(dictType: string, signal?: AbortSignal): Promise<DictEntry[]> {
  return http.get<DictEntry[]>(DICT_CALL, { params: { dictType }, signal });
}

/** Options of a reference select: the target's rows whose label matches what was typed. */
export function searchRefs(
  target: RefTarget | LinkTarget,
  text: string,
  signal?: AbortSignal,
  field: string = target.labelField,
): Promise<PageResult<ResourceRow>> {
  return http.get<PageResult<ResourceRow>>(target.queryCall, {
    params: {
      currentPage: 1,
      pageSize: REF_PAGE_SIZE,
      [field]: text.trim() || undefined,
    },
    signal,
  });
}

/**
 * Records whose label or code holds the text (a product by its name or its serial number):
 * the two searches run side by side, label matches first, each record once.
 */
export async function searchRefsByLabelOrCode(
  target: RefTarget | LinkTarget,
  text: string,
  signal?: AbortSignal,
): Promise<ResourceRow[]> {
  const { codeField } = target;
  if (!codeField || !text.trim()) return (await searchRefs(target, text, signal)).list;
  const [byLabel, byCode] = await Promise.all([
    searchRefs(target, text, signal),
    searchRefs(target, text, signal, codeField),
  ]);
  const seen = new Set<string>();
  return [...byLabel.list, ...byCode.list].filter((row) => !seen.has(row.id) && !!seen.add(row.id));
}

/** One level of a reference's tree (tree selects load children as they open). */
export function fetchRefTree(
  treeCall: string,
  parentId: string | undefined,
  signal?: AbortSignal,
): Promise<ResourceRow[]> {
  return http.get<ResourceRow[]>(treeCall, { params: { parentId: parentId ?? '' }, signal });
}

import type { EntityDef } from '@shuili/contract';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { fetchDict, resourceApi } from './resource-api';
import type { ResourceRow } from './resource-row';
import type { QueryParams } from './search-params';

/** Every query of an entity starts with this key: one invalidation refreshes list and tree. */
export const resourceKey = (entity: EntityDef) => ['resource', entity.name] as const;
/** Reference selects' options; any write may rename what they show. */
export const REF_KEY = ['resource-ref'] as const;
export const DICT_KEY = ['dict'] as const;
/** Dictionaries change rarely: a screen reuses them this long before asking again. */
const DICT_STALE_MS = 5 * 60_000;

export function useResourceApi(entity: EntityDef) {
  return useMemo(() => resourceApi(entity), [entity]);
}

/** One page of query<Name> with the given filters, paging and sorting. */
export function useResourcePage(entity: EntityDef, params: QueryParams, enabled = true) {
  const api = useResourceApi(entity);
  return useQuery({
    queryKey: [...resourceKey(entity), 'page', params],
    queryFn: ({ signal }) => api.query(params, signal),
    placeholderData: (previous) => previous,
    enabled,
  });
}

/**
 * A tree loaded a level at a time: the roots, and the children of every expanded node (keyed by
 * the node's key), each its own cached query.
 */
export function useResourceTree(
  entity: EntityDef,
  expandedKeys: readonly string[],
  enabled = true,
) {
  const api = useResourceApi(entity);
  const roots = useQuery({
    queryKey: [...resourceKey(entity), 'tree', ''],
    queryFn: ({ signal }) => api.tree(undefined, signal),
    enabled,
  });
  const levels = useQueries({
    queries: expandedKeys.map((key) => ({
      queryKey: [...resourceKey(entity), 'tree', key],
      queryFn: ({ signal }: { signal: AbortSignal }) => api.tree(key, signal),
      enabled,
    })),
  });
  const children = new Map<string, ResourceRow[]>();
  expandedKeys.forEach((key, index) => {
    const data = levels[index]?.data;
    if (data) children.set(key, data);
  });
  return {
    roots,
    children,
    loadingChildren: levels.some((level) => level.isFetching),
  };
}

/** The entries of a dictionary type, cached per type. */
export function useDict(dictType: string | undefined) {
  return useQuery({
    queryKey: [...DICT_KEY, dictType],
    queryFn: ({ signal }) => fetchDict(dictType!, signal),
    enabled: !!dictType,
    staleTime: DICT_STALE_MS,
  });
}

/** Writes of an entity; each refreshes the entity's lists and the reference selects' options. */
export function useResourceMutations(entity: EntityDef) {
  const api = useResourceApi(entity);
  const queryClient = useQueryClient();
  const onSettled = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: resourceKey(entity) }),
      queryClient.invalidateQueries({ queryKey: REF_KEY }),
      // Dictionary entries feed every dict select.
      entity.table === 'sys_dict' ? queryClient.invalidateQueries({ queryKey: DICT_KEY }) : null,
    ]);
  };
  const add = useMutation({ mutationFn: api.add, onSettled });
  const update = useMutation({ mutationFn: api.update, onSettled });
  const remove = useMutation({ mutationFn: api.remove, onSettled });
  const setStatus = useMutation({
    mutationFn: ({ ids, status }: { ids: readonly string[]; status: 0 | 1 }) =>
      api.setStatus(ids, status),
    onSettled,
  });
  return { add, update, remove, setStatus };
}

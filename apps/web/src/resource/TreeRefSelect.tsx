import type { RefTarget } from '@shuili/contract';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { TreeSelect } from 'antd';
import { useState } from 'react';
import type { LabeledValue } from './form-values';
import { fetchRefTree } from './resource-api';
import type { ResourceRow } from './resource-row';
import { REF_KEY } from './use-resource';

export interface TreeRefSelectProps {
  target: RefTarget & { treeCall: string };
  value?: LabeledValue | null;
  onChange?: (value: LabeledValue | undefined) => void;
  id?: string;
  disabled?: boolean;
  allowClear?: boolean;
  placeholder?: string;
  /** A node that may not be chosen, nor anything under it (a record as its own parent). */
  excludeId?: string;
}

interface SimpleNode {
  id: string;
  pId: string;
  value: string;
  title: string;
  isLeaf: boolean;
  disabled?: boolean;
}

const ROOT = '';

/** A tree select of another entity's records, loading each level as the user opens it. */
export function TreeRefSelect({ target, excludeId, onChange, ...props }: TreeRefSelectProps) {
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const [loadedKeys, setLoadedKeys] = useState<string[]>([ROOT]);
  const levelKey = (parentId: string) => [...REF_KEY, target.treeCall, parentId];

  const levels = useQueries({
    queries: loadedKeys.map((parentId) => ({
      queryKey: levelKey(parentId),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        fetchRefTree(target.treeCall, parentId || undefined, signal),
      enabled: opened,
    })),
  });

  const nodes: SimpleNode[] = [];
  loadedKeys.forEach((parentId, index) => {
    for (const row of (levels[index]?.data ?? []) as ResourceRow[]) {
      if (row.id === excludeId) continue;
      nodes.push({
        id: row.id,
        pId: parentId,
        value: row.id,
        title: String(row[target.labelField] ?? row.id),
        isLeaf: row.hasChildren === false,
      });
    }
  });

  const loadData = async (node: { value?: unknown }) => {
    const parentId = String(node.value);
    await queryClient.fetchQuery({
      queryKey: levelKey(parentId),
      queryFn: ({ signal }) => fetchRefTree(target.treeCall, parentId, signal),
    });
    setLoadedKeys((keys) => (keys.includes(parentId) ? keys : [...keys, parentId]));
  };

  return (
    <TreeSelect
      {...props}
      labelInValue
      value={props.value ?? undefined}
      onChange={(value: LabeledValue | undefined) =>
        onChange?.(value ? { value: String(value.value), label: String(value.label) } : undefined)
      }
      treeDataSimpleMode={{ id: 'id', pId: 'pId', rootPId: ROOT }}
      treeData={nodes}
      loadData={loadData}
      treeLoadedKeys={loadedKeys.filter((key) => key !== ROOT)}
      onOpenChange={(open) => {
        if (open) setOpened(true);
      }}
      loading={levels.some((level) => level.isFetching)}
      showSearch={{ treeNodeFilterProp: 'title' }}
      popupMatchSelectWidth={false}
      style={{ width: '100%' }}
    />
  );
}

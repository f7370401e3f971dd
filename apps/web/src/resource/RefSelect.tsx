import type { LinkTarget, RefTarget } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Select, Spin } from 'antd';
import { useEffect, useState } from 'react';
import type { LabeledValue } from './form-values';
import { searchRefs } from './resource-api';
import { REF_KEY } from './use-resource';

/** Waits this long after the last keystroke before asking the server. */
const SEARCH_DEBOUNCE_MS = 300;

export interface RefSelectProps {
  target: RefTarget | LinkTarget;
  multiple?: boolean;
  value?: LabeledValue | LabeledValue[] | null;
  onChange?: (value: LabeledValue | LabeledValue[] | undefined) => void;
  id?: string;
  disabled?: boolean;
  allowClear?: boolean;
  placeholder?: string;
  /** An id that may not be chosen (a record as its own parent). */
  excludeId?: string;
}

/**
 * A select of another entity's records: typing searches its query call by the label field, the
 * options show that label, and the value keeps it, so a chosen record reads right before any
 * search has run.
 */
export function RefSelect({ target, multiple, excludeId, onChange, ...props }: RefSelectProps) {
  const [opened, setOpened] = useState(false);
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const options = useQuery({
    queryKey: [...REF_KEY, target.queryCall, target.labelField, search],
    queryFn: ({ signal }) => searchRefs(target, search, signal),
    enabled: opened,
    placeholderData: (previous) => previous,
  });

  return (
    <Select<LabeledValue | LabeledValue[]>
      {...props}
      labelInValue
      mode={multiple ? 'multiple' : undefined}
      value={props.value ?? undefined}
      onChange={(value) => onChange?.(value ?? undefined)}
      showSearch={{ filterOption: false, onSearch: setText }}
      onOpenChange={(open) => {
        if (open) setOpened(true);
      }}
      notFoundContent={options.isFetching ? <Spin size="small" /> : undefined}
      options={(options.data?.list ?? [])
        .filter((row) => row.id !== excludeId)
        .map((row) => ({ value: row.id, label: String(row[target.labelField] ?? row.id) }))}
    />
  );
}

import type { LinkTarget, RefTarget } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Select, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { LabeledValue } from './form-values';
import { searchRefsByLabelOrCode } from './resource-api';
import type { ResourceRow } from './resource-row';
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

/** A record as an option: its label, and its code (shown beside it) when the target has one. */
function optionOf(target: RefTarget | LinkTarget, row: ResourceRow) {
  const code = target.codeField ? row[target.codeField] : undefined;
  return {
    value: row.id,
    label: String(row[target.labelField] ?? row.id),
    code: code === undefined || code === null ? undefined : String(code),
  };
}

/**
 * A select of another entity's records: typing searches its query call by the label field (and
 * the code field, when the target has one), the options show that label, and the value keeps
 * it, so a chosen record reads right before any search has run.
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
    queryFn: ({ signal }) => searchRefsByLabelOrCode(target, search, signal),
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
      options={(options.data ?? [])
        .filter((row) => row.id !== excludeId)
        .map((row) => optionOf(target, row))}
      // The chosen value keeps the label alone; the list shows the code beside it.
      optionRender={(option) =>
        option.data.code ? (
          <>
            {option.label} <Typography.Text type="secondary">{option.data.code}</Typography.Text>
          </>
        ) : (
          option.label
        )
      }
    />
  );
}

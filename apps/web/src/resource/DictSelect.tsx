import { Select, type SelectProps } from 'antd';
import { useDict } from './use-resource';

export interface DictSelectProps extends Omit<SelectProps<string>, 'options' | 'mode'> {
  dictType: string;
}

/** A select of one dictionary's entries (queryDictByDictType), showing names, keeping values. */
export function DictSelect({ dictType, ...props }: DictSelectProps) {
  const dict = useDict(dictType);
  return (
    <Select<string>
      {...props}
      loading={dict.isLoading}
      showSearch={{ optionFilterProp: 'label' }}
      options={(dict.data ?? []).map((entry) => ({
        value: entry.dictValue,
        label: entry.dictName,
      }))}
    />
  );
}

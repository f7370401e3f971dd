import { SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Popover, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ColumnSpec } from './columns';

export interface ColumnSettingsProps {
  /** The columns the user may show or hide (those the rows carry). */
  columns: readonly ColumnSpec[];
  hidden: ReadonlySet<string>;
  titleOf: (column: ColumnSpec) => string;
  onChange: (hidden: Set<string>) => void;
}

/** The column-visibility menu of a list. */
export function ColumnSettings({ columns, hidden, titleOf, onChange }: ColumnSettingsProps) {
  const { t } = useTranslation();
  const shown = columns.filter((column) => !hidden.has(column.name)).map((column) => column.name);
  const content = (
    <Checkbox.Group
      value={shown}
      style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
      options={columns.map((column) => ({ value: column.name, label: titleOf(column) }))}
      onChange={(values) => {
        const wanted = new Set(values.map(String));
        const names = new Set(columns.map((column) => column.name));
        // Columns not offered now (absent from the rows) keep their setting.
        const kept = [...hidden].filter((name) => !names.has(name));
        onChange(new Set([...kept, ...[...names].filter((name) => !wanted.has(name))]));
      }}
    />
  );
  return (
    <Popover
      content={content}
      trigger="click"
      placement="bottomRight"
      title={t('resource.columns')}
    >
      <Tooltip title={t('resource.columns')}>
        <Button
          icon={<SettingOutlined />}
          aria-label={t('resource.columns')}
          data-testid="resource-columns"
        />
      </Tooltip>
    </Popover>
  );
}

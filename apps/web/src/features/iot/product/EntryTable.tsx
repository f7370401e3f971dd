import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  EditOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import type { ThingEvent } from '@shuili/contract';
import { Button, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../../resource/field-label';
import { EntryDialog, type Entry, type EntryKind } from './EntryDialog';
import { moveItem, putItem, removeItem } from './list-edit';

export interface EntryTableProps<T extends Entry> {
  kind: EntryKind;
  items: readonly T[];
  onChange: (items: T[]) => void;
  badRows?: ReadonlySet<number>;
  testId: string;
}

/** The events or commands of a thing model: add, edit, remove and reorder. */
export function EntryTable<T extends Entry>(props: EntryTableProps<T>) {
  const { t } = useTranslation();
  const label = useLabel();
  const [editing, setEditing] = useState<{ index: number | undefined; value: Partial<T> }>();
  const { items, onChange, kind } = props;

  const columns: ColumnsType<T> = [
    {
      title: t('iot.thingModel.key'),
      dataIndex: 'key',
      render: (key: string) => <code>{key}</code>,
    },
    { title: t('iot.thingModel.name'), key: 'name', render: (_, row) => label(row.name) },
    kind === 'event'
      ? {
          title: t('iot.thingModel.level'),
          key: 'level',
          render: (_, row) => t(`iot.thingModel.levels.${(row as ThingEvent).level}`),
        }
      : {
          title: t('iot.thingModel.timeoutSeconds'),
          key: 'timeout',
          render: (_, row) => (row as { timeoutSeconds?: number }).timeoutSeconds,
        },
    {
      title: t('iot.thingModel.params'),
      key: 'params',
      render: (_, row) => row.params.map((param) => param.key).join(', '),
    },
    {
      title: t('iot.thingModel.actions'),
      key: 'actions',
      width: 170,
      render: (_, row, index) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            icon={<EditOutlined />}
            aria-label={t('iot.thingModel.edit')}
            onClick={() => setEditing({ index, value: row })}
          />
          <Button
            type="link"
            size="small"
            icon={<ArrowUpOutlined />}
            aria-label={t('iot.thingModel.moveUp')}
            disabled={index === 0}
            onClick={() => onChange(moveItem(items, index, -1))}
          />
          <Button
            type="link"
            size="small"
            icon={<ArrowDownOutlined />}
            aria-label={t('iot.thingModel.moveDown')}
            disabled={index === items.length - 1}
            onClick={() => onChange(moveItem(items, index, 1))}
          />
          <Button
            type="link"
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('iot.thingModel.remove')}
            onClick={() => onChange(removeItem(items, index))}
          />
        </Space>
      ),
    },
  ];

  return (
    <div data-testid={props.testId}>
      <Table<T>
        size="small"
        rowKey={(_, index) => String(index)}
        columns={columns}
        dataSource={[...items]}
        pagination={false}
        rowClassName={(_, index) => (props.badRows?.has(index) ? 'ant-table-row-selected' : '')}
        locale={{ emptyText: t('iot.thingModel.empty') }}
      />
      <Button
        type="dashed"
        icon={<PlusOutlined />}
        style={{ marginTop: 8 }}
        onClick={() => setEditing({ index: undefined, value: {} as Partial<T> })}
        data-testid={`${props.testId}-add`}
      >
        {t(kind === 'event' ? 'iot.thingModel.addEvent' : 'iot.thingModel.addCommand')}
      </Button>
      <EntryDialog
        kind={kind}
        value={editing?.value}
        index={editing?.index}
        siblings={items}
        onClose={() => setEditing(undefined)}
        onSave={(value) => {
          onChange(putItem(items, value as T, editing?.index));
          setEditing(undefined);
        }}
      />
    </div>
  );
}

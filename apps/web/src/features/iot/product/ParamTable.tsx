import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  EditOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import type { ThingValueType } from '@shuili/contract';
import { Button, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../../resource/field-label';
import { moveItem, putItem, removeItem } from './list-edit';
import { ParamDialog, type ParamValues } from './ParamDialog';

export interface ParamTableProps<T extends ParamValues> {
  items: readonly T[];
  onChange: (items: T[]) => void;
  /** Properties (with read/write access) rather than a command's or event's parameters. */
  withAccess: boolean;
  /** Rows the server named in a 400. */
  badRows?: ReadonlySet<number>;
  testId: string;
}

function rangeText(param: ParamValues): string {
  if (param.min === undefined && param.max === undefined) return '';
  return `${param.min ?? '−∞'} … ${param.max ?? '+∞'}`;
}

/** An ordered list of properties or parameters: add, edit, remove and reorder. */
export function ParamTable<T extends ParamValues>(props: ParamTableProps<T>) {
  const { t } = useTranslation();
  const label = useLabel();
  const [editing, setEditing] = useState<{ index: number | undefined; value: Partial<T> }>();
  const { items, onChange } = props;

  const columns: ColumnsType<T> = [
    {
      title: t('iot.thingModel.key'),
      dataIndex: 'key',
      render: (key: string) => <code>{key}</code>,
    },
    { title: t('iot.thingModel.name'), key: 'name', render: (_, row) => label(row.name) },
    {
      title: t('iot.thingModel.type'),
      dataIndex: 'type',
      render: (type: ThingValueType) => t(`iot.thingModel.types.${type}`),
    },
    { title: t('iot.thingModel.unit'), dataIndex: 'unit' },
    { title: t('iot.thingModel.range'), key: 'range', render: (_, row) => rangeText(row) },
    ...(props.withAccess
      ? ([
          {
            title: t('iot.thingModel.access'),
            dataIndex: 'access',
            render: (access: string) =>
              access === 'rw' ? (
                <Tag color="blue">{t('iot.thingModel.accessRw')}</Tag>
              ) : (
                <Tag>{t('iot.thingModel.accessR')}</Tag>
              ),
          },
        ] satisfies ColumnsType<T>)
      : []),
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
        {t(props.withAccess ? 'iot.thingModel.addProperty' : 'iot.thingModel.addParam')}
      </Button>
      <ParamDialog
        value={editing?.value}
        index={editing?.index}
        siblings={items}
        withAccess={props.withAccess}
        onClose={() => setEditing(undefined)}
        onSave={(value) => {
          onChange(putItem(items, value as T, editing?.index));
          setEditing(undefined);
        }}
      />
    </div>
  );
}

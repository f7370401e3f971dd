import { PlusOutlined } from '@ant-design/icons';
import { Button, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { moveItem, putItem, removeItem } from './list-edit';
import { RowActions } from './RowActions';

/** What the dialog editing one row of a list is given by the list. */
export interface RowDialogProps<T> {
  /** Closed when undefined; an empty object opens it for a new row. */
  value: Partial<T> | undefined;
  /** The edited row's index among the siblings; undefined for a new row. */
  index: number | undefined;
  /** The sibling rows, for the duplicate-key check. */
  siblings: readonly T[];
  onSave: (value: T) => void;
  onClose: () => void;
}

/** What the owner of a list passes in: the rows, where changes go, and how to find it. */
export interface ListProps<T> {
  items: readonly T[];
  onChange: (items: T[]) => void;
  /** Rows the server named in a 400. */
  badRows?: ReadonlySet<number>;
  testId: string;
}

export interface ListTableProps<T> extends ListProps<T> {
  /** The rows' own columns; the actions column follows them. */
  columns: ColumnsType<T>;
  /** The add button's (translated) text. */
  addText: string;
  /** The dialog that edits one row, or a new one. */
  dialog: (props: RowDialogProps<T>) => ReactNode;
}

/**
 * An ordered list of a thing model (properties, events, commands, parameters): add, edit, remove
 * and reorder rows, each change handed up as a new array. The order is kept because devices and
 * monitoring screens see the rows in it.
 */
export function ListTable<T extends object>(props: ListTableProps<T>) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ index: number | undefined; value: Partial<T> }>();
  const { items, onChange } = props;

  const columns: ColumnsType<T> = [
    ...props.columns,
    {
      title: t('iot.thingModel.actions'),
      key: 'actions',
      width: 170,
      render: (_, row, index) => (
        <RowActions
          index={index}
          count={items.length}
          onEdit={() => setEditing({ index, value: row })}
          onMove={(delta) => onChange(moveItem(items, index, delta))}
          onRemove={() => onChange(removeItem(items, index))}
        />
      ),
    },
  ];

  return (
    <div data-testid={props.testId}>
      <Table<T>
        size="small"
        // A row's key can change in its dialog; its position is what identifies it here.
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
        {props.addText}
      </Button>
      {props.dialog({
        value: editing?.value,
        index: editing?.index,
        siblings: items,
        onClose: () => setEditing(undefined),
        onSave: (value) => {
          onChange(putItem(items, value, editing?.index));
          setEditing(undefined);
        },
      })}
    </div>
  );
}

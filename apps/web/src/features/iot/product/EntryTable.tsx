import type { ThingEvent } from '@shuili/contract';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { EntryDialog, type Entry, type EntryKind } from './EntryDialog';
import { useIdentityColumns } from './identity-columns';
import { ListTable, type ListProps } from './ListTable';

export interface EntryTableProps<T extends Entry> extends ListProps<T> {
  kind: EntryKind;
}

/** The events or commands of a thing model: add, edit, remove and reorder. */
export function EntryTable<T extends Entry>(props: EntryTableProps<T>) {
  const { t } = useTranslation();
  const { kind, ...list } = props;
  const columns: ColumnsType<T> = [
    ...useIdentityColumns<T>(),
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
  ];

  return (
    <ListTable<T>
      {...list}
      columns={columns}
      addText={t(kind === 'event' ? 'iot.thingModel.addEvent' : 'iot.thingModel.addCommand')}
      dialog={(dialog) => (
        <EntryDialog
          {...dialog}
          kind={kind}
          // The dialog answers an event or a command: the kind this list holds.
          onSave={(value) => dialog.onSave(value as T)}
        />
      )}
    />
  );
}

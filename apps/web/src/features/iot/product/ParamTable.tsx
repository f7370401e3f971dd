import type { ThingValueType } from '@shuili/contract';
import { Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { useIdentityColumns } from './identity-columns';
import { ListTable, type ListProps } from './ListTable';
import { ParamDialog } from './ParamDialog';
import type { ParamValues } from './param-values';

export interface ParamTableProps<T extends ParamValues> extends ListProps<T> {
  /** Properties (with read/write access) rather than a command's or event's parameters. */
  withAccess: boolean;
}

function rangeText(param: ParamValues): string {
  if (param.min === undefined && param.max === undefined) return '';
  return `${param.min ?? '−∞'} … ${param.max ?? '+∞'}`;
}

/** An ordered list of properties or parameters: add, edit, remove and reorder. */
export function ParamTable<T extends ParamValues>(props: ParamTableProps<T>) {
  const { t } = useTranslation();
  const { withAccess, ...list } = props;
  const columns: ColumnsType<T> = [
    ...useIdentityColumns<T>(),
    {
      title: t('iot.thingModel.type'),
      dataIndex: 'type',
      render: (type: ThingValueType) => t(`iot.thingModel.types.${type}`),
    },
    { title: t('iot.thingModel.unit'), dataIndex: 'unit' },
    { title: t('iot.thingModel.range'), key: 'range', render: (_, row) => rangeText(row) },
    ...(withAccess
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
  ];

  return (
    <ListTable<T>
      {...list}
      columns={columns}
      addText={t(withAccess ? 'iot.thingModel.addProperty' : 'iot.thingModel.addParam')}
      dialog={(dialog) => (
        <ParamDialog
          {...dialog}
          withAccess={withAccess}
          // A parameter, or with withAccess a property (access set): the kind this list holds.
          onSave={(value) => dialog.onSave(value as T)}
        />
      )}
    />
  );
}

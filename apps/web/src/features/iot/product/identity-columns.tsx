import type { Label } from '@shuili/contract';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../../resource/field-label';

/** The columns every thing-model list starts with: the row's key and its name. */
export function useIdentityColumns<T extends { key: string; name: Label }>(): ColumnsType<T> {
  const { t } = useTranslation();
  const label = useLabel();
  return [
    {
      title: t('iot.thingModel.key'),
      dataIndex: 'key',
      // The key is what devices put in their JSON: shown as code, never translated.
      render: (key: string) => <code>{key}</code>,
    },
    { title: t('iot.thingModel.name'), key: 'name', render: (_, row) => label(row.name) },
  ];
}

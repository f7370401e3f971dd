import { useQuery } from '@tanstack/react-query';
import { Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { deskApi, DESK_KEYS } from './desk-api';
import { PendingWrites } from './PendingWrites';
import { useDeskReader } from './use-desk-reader';

/**
 * Every card write still waiting at the tenant's desks (pending, or given up and not reversed):
 * a card placed on this desk's reader is written from here; any may be given up and reversed.
 */
export function PendingWriteList() {
  const { t } = useTranslation();
  const desk = useDeskReader();
  const writes = useQuery({
    queryKey: [...DESK_KEYS.all, 'writes'],
    queryFn: ({ signal }) => deskApi.writes({}, signal),
  });
  return (
    <Card size="small" title={t('desk.pending.allTitle')}>
      {writes.data && writes.data.length > 0 ? (
        <PendingWrites desk={desk} writes={writes.data} />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      )}
    </Card>
  );
}

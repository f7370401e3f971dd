import { ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format';
import { deviceApi } from './device-api';

/** What ingestion refused from the device, counted by kind, and the last refusal. */
export function IngestProblems({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const stat = useQuery({
    queryKey: ['iot', 'ingestStat', deviceId],
    queryFn: ({ signal }) => deviceApi.ingestStat(deviceId, signal),
  });
  const data = stat.data;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Button
        icon={<ReloadOutlined />}
        loading={stat.isFetching}
        onClick={() => void stat.refetch()}
      >
        {t('iot.ingest.refresh')}
      </Button>
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, md: 3 }}
        data-testid="ingest-problems"
        items={[
          { key: 'accepted', label: t('iot.ingest.accepted'), children: data?.accepted ?? 0 },
          {
            key: 'unknownKeys',
            label: t('iot.ingest.unknownKeys'),
            children: data?.unknownKeys ?? 0,
          },
          { key: 'wrongType', label: t('iot.ingest.wrongType'), children: data?.wrongType ?? 0 },
          { key: 'outOfRange', label: t('iot.ingest.outOfRange'), children: data?.outOfRange ?? 0 },
          { key: 'badPayload', label: t('iot.ingest.badPayload'), children: data?.badPayload ?? 0 },
          { key: 'badTime', label: t('iot.ingest.badTime'), children: data?.badTime ?? 0 },
          {
            key: 'lastProblem',
            label: t('iot.ingest.lastProblem'),
            children: data?.lastProblem
              ? `${data.lastProblem} (${formatDate(data.lastProblemAt)})`
              : t('iot.ingest.none'),
          },
        ]}
      />
    </Space>
  );
}

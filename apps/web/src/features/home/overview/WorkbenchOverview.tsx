import { useQuery } from '@tanstack/react-query';
import { Button, Skeleton, Space, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { loadFeatureStrings } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/format';
import { HttpError } from '../../../lib/http';
import { AreaStateCards } from './AreaStateCards';
import { OverviewFigures } from './OverviewFigures';
import styles from './WorkbenchOverview.module.css';
import { useSeen } from './use-seen';
import { useWorkbenchLive } from './use-workbench-live';
import { OVERVIEW_KEY, workbenchApi } from './workbench-api';

// The map (Leaflet) and the records (named from their devices' thing models, in the IoT screens'
// words) below the fold download when the reader scrolls to them.
const WorkbenchActivity = lazy(() =>
  Promise.all([import('./WorkbenchActivity'), loadFeatureStrings(['iot'])]).then(([module]) => ({
    default: module.WorkbenchActivity,
  })),
);

/** The lower half's height before it has loaded, px, and the share of it that must be in view. */
const ACTIVITY_HEIGHT = 480;
const ACTIVITY_SEEN = 0.2;

/**
 * Water delivered follows readings (far too many to push each): read again every minute while
 * the workbench is open. Devices, alarms and commands are pushed (use-workbench-live).
 */
const WATER_REFRESH_MS = 60_000;

/**
 * The operations overview (issue 18): devices by area and state, alarms by level, water
 * delivered, operations today, the map and the newest records, all in the reader's zones, kept
 * live over MQTT. A role without the overview's call sees the workbench without it.
 */
export function WorkbenchOverview() {
  const { t } = useTranslation();
  const [lower, seen] = useSeen(ACTIVITY_SEEN);
  const overview = useQuery({
    queryKey: OVERVIEW_KEY,
    queryFn: ({ signal }) => workbenchApi.overview(signal),
    refetchInterval: WATER_REFRESH_MS,
    retry: (count, error) => !(error instanceof HttpError && error.status === 403) && count < 2,
  });
  useWorkbenchLive();

  if (overview.error instanceof HttpError && overview.error.status === 403) return null;
  if (overview.isPending) return <Skeleton active data-testid="workbench-overview-loading" />;
  if (!overview.data)
    return (
      <Space data-testid="workbench-overview-failed">
        <Typography.Text type="danger">{t('home.overview.failed')}</Typography.Text>
        <Button size="small" onClick={() => void overview.refetch()}>
          {t('home.overview.retry')}
        </Button>
      </Space>
    );
  const data = overview.data;
  return (
    <div
      className={styles.stack}
      data-testid="workbench-overview"
      data-generated-at={data.generatedAt}
    >
      <OverviewFigures overview={data} />
      <AreaStateCards areas={data.areas} />
      <div
        ref={lower}
        data-testid="workbench-activity"
        style={seen ? undefined : { minHeight: ACTIVITY_HEIGHT }}
      >
        {seen && (
          <Suspense fallback={<Skeleton active />}>
            <WorkbenchActivity overview={data} />
          </Suspense>
        )}
      </div>
      <Typography.Text type="secondary">
        {t('home.overview.updated', { time: formatDate(data.generatedAt) })}
      </Typography.Text>
    </div>
  );
}

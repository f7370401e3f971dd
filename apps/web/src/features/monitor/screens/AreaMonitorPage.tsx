import { Card, Flex, Pagination, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AreaDeviceBoard } from '../devices/AreaDeviceBoard';
import { AreaDeviceFilters } from '../devices/AreaDeviceFilters';
import { AreaSummary } from '../devices/AreaSummary';
import { useAreaDevices } from '../devices/use-area-devices';
import type { AreaScreenProps } from './area-screen-props';

/** Cards per page: full rows of the grid at its widths (2, 3 and 4 across). */
const MONITOR_PAGE_SIZE = 48;

/**
 * An area's live overview (spec: /soilMoisture/soilMoistureMonitor, /weatherStation/weatherMonitor):
 * the counts by state, a card per device in its state's colour with its key values and the
 * area's card widget, all live over MQTT; the selected device's panels (the area's own
 * widgets) beside the cards.
 */
export function AreaMonitorPage({ area }: AreaScreenProps) {
  if (!area) return null;
  return <AreaMonitor area={area} />;
}

function AreaMonitor({ area }: Required<AreaScreenProps>) {
  const { t } = useTranslation();
  const list = useAreaDevices(area, MONITOR_PAGE_SIZE);
  const { page } = list;

  return (
    <Flex vertical gap={12} data-testid="area-monitor" data-area={area.code}>
      {page && <AreaSummary total={page.total} counts={page.counts} />}
      <Card size="small">
        <div style={{ marginBottom: 12 }}>
          <AreaDeviceFilters value={list.filters} onChange={list.setFilters} />
        </div>
        {!list.loading && (
          <AreaDeviceBoard
            area={area}
            devices={list.devices}
            footer={
              (page?.total ?? 0) > list.pageSize && (
                <Flex justify="end" style={{ marginTop: 12 }}>
                  <Pagination
                    current={list.currentPage}
                    pageSize={list.pageSize}
                    total={page?.total ?? 0}
                    showSizeChanger={false}
                    onChange={list.setPage}
                  />
                </Flex>
              )
            }
          />
        )}
        {list.failed && (
          <Typography.Text type="danger">{t('monitor.devices.loadFailed')}</Typography.Text>
        )}
      </Card>
    </Flex>
  );
}

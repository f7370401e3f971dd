import { iotDevicePageRoute } from '@shuili/contract';
import { Card, Flex, Pagination, Segmented, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AreaDeviceBoard } from '../devices/AreaDeviceBoard';
import { AreaDeviceFilters } from '../devices/AreaDeviceFilters';
import { AreaDeviceTable } from '../devices/AreaDeviceTable';
import { AreaDevicesMap } from '../devices/AreaDevicesMap';
import { AreaSummary } from '../devices/AreaSummary';
import { useAreaDevices } from '../devices/use-area-devices';
import type { AreaScreenProps } from './area-screen-props';

type View = 'list' | 'cards' | 'map';

/**
 * An area's device list (spec: /irrigation/irrigationDevice, /pumpStation/pumpDevice ...): the
 * area's devices in the user's zones with filters, the area's key factors live over MQTT,
 * health, connection, last seen and alarm; as a table, as cards (a card selected shows the
 * area's panels beside them) or on a map. A row or a marker opens the device's page.
 */
export function AreaDeviceListPage({ area }: AreaScreenProps) {
  if (!area) return null;
  return <AreaDeviceList area={area} />;
}

function AreaDeviceList({ area }: Required<AreaScreenProps>) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [view, setView] = useState<View>('list');
  const list = useAreaDevices(area);
  const { page } = list;
  const models = useMemo(
    () => (page?.products ?? []).map((product) => product.thingModel),
    [page?.products],
  );
  const open = (id: string) => void navigate(iotDevicePageRoute(id));
  const pagination = {
    current: list.currentPage,
    pageSize: list.pageSize,
    total: page?.total ?? 0,
    showSizeChanger: true,
    pageSizeOptions: [20, 50, 100, 200],
    showTotal: (total: number) => t('monitor.devices.total', { count: total }),
    onChange: list.setPage,
  };
  const pager = (
    <Flex justify="end" style={{ marginTop: 12 }}>
      <Pagination {...pagination} />
    </Flex>
  );

  return (
    <Flex vertical gap={12} data-testid="area-device-list" data-area={area.code}>
      {page && <AreaSummary total={page.total} counts={page.counts} />}
      <Card size="small">
        <Flex justify="space-between" wrap gap={8} style={{ marginBottom: 12 }}>
          <AreaDeviceFilters value={list.filters} onChange={list.setFilters} />
          <Segmented<View>
            value={view}
            onChange={setView}
            options={[
              { value: 'list', label: t('monitor.devices.viewList') },
              { value: 'cards', label: t('monitor.devices.viewCards') },
              { value: 'map', label: t('monitor.devices.viewMap') },
            ]}
            data-testid="area-view"
          />
        </Flex>
        {view === 'list' ? (
          <AreaDeviceTable
            area={area}
            devices={list.devices}
            models={models}
            withAlarms={page?.counts.alarm !== undefined}
            loading={list.loading}
            pagination={pagination}
          />
        ) : view === 'cards' ? (
          <AreaDeviceBoard area={area} devices={list.devices} footer={pager} />
        ) : (
          <>
            <AreaDevicesMap devices={list.devices} onSelect={open} />
            {pager}
          </>
        )}
        {list.failed && (
          <Typography.Text type="danger">{t('monitor.devices.loadFailed')}</Typography.Text>
        )}
      </Card>
    </Flex>
  );
}

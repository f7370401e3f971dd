import { reportIntervalOf, tileActions } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Result, Skeleton, Space, Tabs } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { HistoryPanel } from '../charts/HistoryPanel';
import { DeviceMap } from '../map/DeviceMap';
import { CommandPanel } from './CommandPanel';
import { CommandRecords } from './CommandRecords';
import { deviceApi, type DeviceDetail } from './device-api';
import { DeviceAlarms } from './DeviceAlarms';
import { DeviceHeader } from './DeviceHeader';
import { IngestProblems } from './IngestProblems';
import { LiveValues } from './LiveValues';
import { TileControls } from './TileControls';
import { useDeviceLive } from './use-device-live';

/**
 * /iot/device/{id}: one device drawn from its product's thing model: who and where it is, its
 * live values, history, controls, alarms, operation records and what ingestion refused.
 */
export function DevicePage() {
  const { id = '' } = useParams();
  const detail = useQuery({
    queryKey: ['iot', 'deviceDetail', id],
    queryFn: ({ signal }) => deviceApi.detail(id, signal),
    enabled: id !== '',
  });
  if (detail.isError) return <Result status="warning" title={detail.error.message} />;
  if (!detail.data) return <Skeleton active />;
  return <DeviceView detail={detail.data} key={detail.data.device.id} />;
}

function DeviceView({ detail }: { detail: DeviceDetail }) {
  const { t } = useTranslation();
  const { device, thingModel } = detail;
  const live = useDeviceLive(device, thingModel.properties);
  // Open/close beside each valve, start/stop beside each pump: read off the thing model.
  const tileControls = useMemo(() => tileActions(thingModel), [thingModel]);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="device-page">
      <Card size="small" title={device.deviceName}>
        <DeviceHeader detail={detail} online={live.online} lastSeen={live.lastSeen} />
      </Card>
      <Card size="small" title={t('iot.device.liveValues')}>
        <LiveValues
          properties={thingModel.properties}
          readings={live.readings}
          reportIntervalMs={reportIntervalOf(thingModel) * 1000}
          tileExtra={(property) => {
            const actions = tileControls.get(property.key);
            return actions ? (
              <TileControls
                deviceId={device.id}
                deviceName={device.deviceName}
                propertyKey={property.key}
                actions={actions}
              />
            ) : null;
          }}
        />
      </Card>
      <Card size="small">
        <Tabs
          items={[
            {
              key: 'history',
              label: t('iot.device.tabs.history'),
              children: <HistoryPanel deviceId={device.id} properties={thingModel.properties} />,
            },
            {
              key: 'control',
              label: t('iot.device.tabs.control'),
              children: (
                <CommandPanel
                  deviceId={device.id}
                  deviceNo={device.deviceNo}
                  deviceName={device.deviceName}
                  online={live.online}
                />
              ),
            },
            {
              key: 'records',
              label: t('iot.device.tabs.records'),
              children: <CommandRecords deviceId={device.id} />,
            },
            {
              key: 'alarms',
              label: t('iot.device.tabs.alarms'),
              children: <DeviceAlarms deviceId={device.id} />,
            },
            {
              key: 'problems',
              label: t('iot.device.tabs.problems'),
              children: <IngestProblems deviceId={device.id} />,
            },
            {
              key: 'location',
              label: t('iot.device.tabs.location'),
              children: <DeviceMap lat={device.lat} lng={device.lng} title={device.deviceName} />,
            },
          ]}
        />
      </Card>
    </Space>
  );
}

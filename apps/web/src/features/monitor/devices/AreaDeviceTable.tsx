import { iotDevicePageRoute, type AreaDef, type ThingModel } from '@shuili/contract';
import { Table, Typography, type TableColumnsType, type TablePaginationConfig } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useLabel } from '../../../resource/field-label';
import { AlarmLevelTag } from '../../iot/alarm/AlarmTags';
import { HealthCell, OnlineCell } from '../../iot/pages/device-list-cells';
import type { AreaDevice } from '../widgets/widget-types';
import { AreaValue } from './AreaValue';
import { LastSeen } from './LastSeen';

export interface AreaDeviceTableProps {
  area: AreaDef;
  devices: AreaDevice[];
  /** The page's products' thing models: the key factors' column titles. */
  models: readonly ThingModel[];
  /** Whether the reader may see alarms (the answer carries them). */
  withAlarms: boolean;
  loading: boolean;
  pagination: TablePaginationConfig;
}

/**
 * The area's devices as a table: name and number, zone, the area's key factors (live), health,
 * connection, last seen and alarm. A row opens the device's page.
 */
export function AreaDeviceTable({
  area,
  devices,
  models,
  withAlarms,
  loading,
  pagination,
}: AreaDeviceTableProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const navigate = useNavigate();

  const columns = useMemo<TableColumnsType<AreaDevice>>(() => {
    const factorName = (key: string) => {
      for (const model of models) {
        const property = model.properties.find((candidate) => candidate.key === key);
        if (property) return label(property.name);
      }
      return key;
    };
    return [
      {
        key: 'device',
        title: t('iot.device.name'),
        fixed: 'left',
        render: (_, device) => (
          <div>
            <Link
              to={iotDevicePageRoute(device.id)}
              onClick={(event) => event.stopPropagation()}
              data-testid="area-device-link"
            >
              {device.deviceName}
            </Link>
            <div>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {device.deviceNo}
              </Typography.Text>
            </div>
          </div>
        ),
      },
      {
        key: 'zone',
        title: t('iot.device.zone'),
        render: (_, device) => device.zoneName ?? '',
      },
      ...area.keyFactors.map((factor) => ({
        key: `factor:${factor}`,
        title: (
          <span data-testid="area-factor-column" data-key={factor}>
            {factorName(factor)}
          </span>
        ),
        render: (_: unknown, device: AreaDevice) => <AreaValue device={device} factor={factor} />,
      })),
      {
        key: 'status',
        title: t('iot.device.status'),
        render: (_, device) => <HealthCell value={device.status} />,
      },
      {
        key: 'online',
        title: t('iot.device.online'),
        render: (_, device) => <OnlineCell value={device.online} />,
      },
      {
        key: 'lastSeen',
        title: t('iot.device.lastSeen'),
        render: (_, device) => <LastSeen at={device.lastSeen} />,
      },
      ...(withAlarms
        ? [
            {
              key: 'alarm',
              title: t('monitor.devices.alarm'),
              render: (_: unknown, device: AreaDevice) =>
                device.alarmLevel ? <AlarmLevelTag level={device.alarmLevel} /> : null,
            },
          ]
        : []),
    ];
  }, [area, models, withAlarms, label, t]);

  return (
    <Table<AreaDevice>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={devices}
      loading={loading}
      pagination={pagination}
      scroll={{ x: 'max-content' }}
      onRow={(device) => ({
        onClick: () => void navigate(iotDevicePageRoute(device.id)),
        style: { cursor: 'pointer' },
        'data-testid': 'area-device-row',
        'data-device-no': device.deviceNo,
      })}
      data-testid="area-device-table"
    />
  );
}

import { iotDevicePageRoute, type WorkbenchMap } from '@shuili/contract';
import { Card, Space, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DevicesMap, type DeviceMarker } from '../../iot/map/DevicesMap';
import { ALARM_COLOR, STATE_COLOR } from '../../monitor/widgets/widget-colors';

/** A device's colour: fault over alarm over offline over online (the area screens' order). */
function colorOf(map: WorkbenchMap, i: number): string {
  const level = map.alarmLevels?.[i];
  if (map.status[i] !== 0) return STATE_COLOR.fault;
  if (level && ALARM_COLOR[level]) return ALARM_COLOR[level]!;
  return map.online[i] ? STATE_COLOR.running : STATE_COLOR.offline;
}

const LEGEND = [
  ['online', STATE_COLOR.running],
  ['offline', STATE_COLOR.offline],
  ['fault', STATE_COLOR.fault],
  ['alarmed', ALARM_COLOR.orange],
] as const;

/** Every located device of the areas, coloured by state; a click opens the device. */
export function OverviewMap({ devices }: { devices: WorkbenchMap }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const markers = useMemo<DeviceMarker[]>(
    () =>
      devices.ids.map((id, i) => ({
        id,
        lat: devices.lat[i]!,
        lng: devices.lng[i]!,
        title: devices.names[i]!,
        color: colorOf(devices, i),
      })),
    [devices],
  );
  return (
    <Card
      size="small"
      title={t('home.overview.map')}
      data-testid="workbench-map"
      extra={
        <Space size={10} wrap>
          {LEGEND.map(([state, color]) => (
            <Typography.Text key={state} type="secondary">
              <span
                aria-hidden
                style={{
                  display: 'inline-block',
                  width: 10,
                  height: 10,
                  borderRadius: 5,
                  background: color,
                  marginRight: 4,
                }}
              />
              {t(`home.overview.${state}`)}
            </Typography.Text>
          ))}
        </Space>
      }
    >
      <DevicesMap
        markers={markers}
        height={420}
        onSelect={(id) => void navigate(iotDevicePageRoute(id))}
      />
    </Card>
  );
}

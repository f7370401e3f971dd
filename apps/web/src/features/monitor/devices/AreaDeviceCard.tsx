import { iotDevicePageRoute, type AreaDef } from '@shuili/contract';
import { Card, Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AlarmLevelTag } from '../../iot/alarm/AlarmTags';
import { AreaWidget } from '../widgets/widget-registry';
import { deviceColor } from '../widgets/widget-colors';
import { useValueText } from '../widgets/use-value-text';
import type { AreaDevice } from '../widgets/widget-types';
import { AreaValue } from './AreaValue';
import { deviceState } from './device-state';
import { LastSeen } from './LastSeen';

/** How many key factors a card lists (the area's widget draws the rest its own way). */
const CARD_FACTORS = 4;

export interface AreaDeviceCardProps {
  area: AreaDef;
  device: AreaDevice;
  selected?: boolean;
  onSelect?: (device: AreaDevice) => void;
}

/**
 * One device at a glance, on the monitor and the device list's cards alike: its state as the
 * card's colour (fault red, alarm in its level's colour, offline grey, running green), name,
 * zone and last seen, its first key factors, and the area's card widget. Live: it redraws as
 * the device's values arrive.
 */
export function AreaDeviceCard({ area, device, selected, onSelect }: AreaDeviceCardProps) {
  const { t } = useTranslation();
  const { name } = useValueText(device);
  const color = deviceColor(device);
  const state = deviceState(device);
  return (
    <Card
      size="small"
      hoverable={!!onSelect}
      onClick={onSelect ? () => onSelect(device) : undefined}
      style={{
        borderTop: `4px solid ${color}`,
        boxShadow: selected ? `0 0 0 2px ${color}` : undefined,
        height: '100%',
      }}
      data-testid="area-device-card"
      data-device-no={device.deviceNo}
      data-state={state}
      data-selected={!!selected}
    >
      <Flex justify="space-between" align="start" gap={8}>
        <div style={{ minWidth: 0 }}>
          <Link
            to={iotDevicePageRoute(device.id)}
            onClick={(event) => event.stopPropagation()}
            data-testid="area-device-link"
          >
            <Typography.Text strong ellipsis>
              {device.deviceName}
            </Typography.Text>
          </Link>
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {[device.deviceNo, device.zoneName].filter(Boolean).join(' · ')}
            </Typography.Text>
          </div>
        </div>
        <Flex vertical align="end" gap={4}>
          {device.status !== 0 ? (
            <Tag color="red">{t('iot.device.fault', { code: device.status })}</Tag>
          ) : (
            <Tag color={device.online ? 'green' : 'default'}>
              {t(device.online ? 'iot.device.isOnline' : 'iot.device.isOffline')}
            </Tag>
          )}
          {device.alarmLevel && <AlarmLevelTag level={device.alarmLevel} />}
        </Flex>
      </Flex>
      <Flex wrap style={{ margin: '8px 0', columnGap: 12, rowGap: 2 }}>
        {area.keyFactors.slice(0, CARD_FACTORS).map((factor) => (
          <span key={factor} style={{ fontSize: 13 }}>
            <Typography.Text type="secondary">{name(factor)} </Typography.Text>
            <AreaValue device={device} factor={factor} />
          </span>
        ))}
      </Flex>
      {area.widgets.card && <AreaWidget name={area.widgets.card} area={area} device={device} />}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('iot.device.lastSeen')}: <LastSeen at={device.lastSeen} />
      </Typography.Text>
    </Card>
  );
}

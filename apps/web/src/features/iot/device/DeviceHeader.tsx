import { Badge, Descriptions, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate, formatRelative } from '../../../lib/format';
import { ActiveAlarm } from '../alarm/ActiveAlarm';
import type { DeviceDetail } from './device-api';

export interface DeviceHeaderProps {
  detail: DeviceDetail;
  online: boolean;
  lastSeen: number | undefined;
}

/** Who the device is, where it stands, whether it is healthy and when it last spoke. */
export function DeviceHeader({ detail, online, lastSeen }: DeviceHeaderProps) {
  const { t } = useTranslation();
  const { device } = detail;
  return (
    <Descriptions
      size="small"
      column={{ xs: 1, sm: 2, lg: 4 }}
      data-testid="device-header"
      items={[
        { key: 'name', label: t('iot.device.name'), children: device.deviceName },
        { key: 'no', label: t('iot.device.no'), children: <code>{device.deviceNo}</code> },
        {
          key: 'product',
          label: t('iot.device.product'),
          children: `${detail.productName} (${detail.serialNo})`,
        },
        { key: 'zone', label: t('iot.device.zone'), children: device.zoneIdLabel ?? '' },
        {
          key: 'status',
          label: t('iot.device.status'),
          children:
            device.status === 0 ? (
              <Tag color="green">{t('iot.device.normal')}</Tag>
            ) : (
              <Tag color="red">{t('iot.device.fault', { code: device.status })}</Tag>
            ),
        },
        // An alarm that holds is shown beside the health code, which it does not change.
        {
          key: 'alarm',
          label: t('iot.alarm.active'),
          children: <ActiveAlarm deviceId={device.id} />,
        },
        {
          key: 'online',
          label: t('iot.device.online'),
          children: (
            <span data-testid="device-online" data-online={online}>
              <Badge
                status={online ? 'success' : 'default'}
                text={online ? t('iot.device.isOnline') : t('iot.device.isOffline')}
              />
            </span>
          ),
        },
        {
          key: 'lastSeen',
          label: t('iot.device.lastSeen'),
          children: lastSeen ? (
            <Tooltip title={formatDate(lastSeen)}>
              <span>{formatRelative(lastSeen)}</span>
            </Tooltip>
          ) : (
            t('iot.device.never')
          ),
        },
        { key: 'project', label: t('iot.device.project'), children: device.projectIdLabel ?? '' },
      ]}
    />
  );
}

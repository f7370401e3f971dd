import { iotDevicePageRoute } from '@shuili/contract';
import { Card, Empty, Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { RegionValveGroup } from './region-api';
import type { RegionDevice } from './region-tree';

export interface ValveGroupListProps {
  groups: readonly RegionValveGroup[];
  /** Every device the caller sees, to name the members (others stay as their channel). */
  devices: ReadonlyMap<string, RegionDevice>;
}

/** The valve groups of the chosen zones: each with its member valve channels. */
export function ValveGroupList({ groups, devices }: ValveGroupListProps) {
  const { t } = useTranslation();
  if (groups.length === 0)
    return (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('monitor.regional.noGroups')} />
    );
  return (
    <Flex vertical gap={8} data-testid="region-groups">
      {groups.map((group) => (
        <Card
          key={group.id}
          size="small"
          title={group.groupName}
          extra={group.status === 1 ? null : <Tag>{t('monitor.regional.groupDisabled')}</Tag>}
          data-testid="region-group"
        >
          <Flex wrap gap={4}>
            {group.members.map((member) => {
              const device = devices.get(member.deviceId);
              const text = t('monitor.regional.member', {
                device: device?.deviceName ?? device?.deviceNo ?? member.deviceId,
                channel: member.channel,
              });
              return (
                <Tag
                  key={`${member.deviceId}:${member.channel}`}
                  color={device?.online ? 'green' : undefined}
                >
                  {device ? <Link to={iotDevicePageRoute(member.deviceId)}>{text}</Link> : text}
                </Tag>
              );
            })}
            {group.members.length === 0 && (
              <Typography.Text type="secondary">{t('monitor.regional.noMembers')}</Typography.Text>
            )}
          </Flex>
        </Card>
      ))}
    </Flex>
  );
}

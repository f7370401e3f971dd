import { alarmRecordEntity, iotDevicePageRoute, type WorkbenchAlarm } from '@shuili/contract';
import { Card, Empty, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/format';
import { AlarmAckTag, AlarmLevelTag, AlarmStateTag } from '../../iot/alarm/AlarmTags';
import { PropertyName } from '../../iot/alarm-rule/PropertyName';

/** The newest alarms, each with its level, state, device (a link to it) and factor. */
export function RecentAlarms({ alarms }: { alarms: readonly WorkbenchAlarm[] }) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={t('home.overview.recentAlarms')}
      data-testid="workbench-recent-alarms"
      extra={<Link to={alarmRecordEntity.route}>{t('home.overview.allAlarms')}</Link>}
    >
      {alarms.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.overview.noAlarms')} />
      ) : (
        <Flex vertical gap={8}>
          {alarms.map((alarm) => (
            <Flex
              key={alarm.id}
              wrap
              gap={6}
              align="center"
              data-testid="workbench-alarm"
              data-device-no={alarm.deviceNo ?? ''}
              data-level={alarm.level}
            >
              <AlarmLevelTag level={alarm.level} />
              {alarm.deviceId ? (
                <Link to={iotDevicePageRoute(alarm.deviceId)}>
                  {alarm.deviceName || alarm.deviceNo}
                </Link>
              ) : (
                <Typography.Text type="secondary">{t('home.overview.deviceGone')}</Typography.Text>
              )}
              <Typography.Text>
                <PropertyName
                  propertyKey={alarm.propertyKey}
                  row={{ id: alarm.id, deviceId: alarm.deviceId, deviceIdLabel: alarm.deviceName }}
                />
              </Typography.Text>
              <AlarmStateTag state={alarm.state} clearedAt={alarm.clearedAt} />
              {!alarm.acknowledged && <AlarmAckTag />}
              <Typography.Text type="secondary">{formatDate(alarm.startedAt)}</Typography.Text>
            </Flex>
          ))}
        </Flex>
      )}
    </Card>
  );
}

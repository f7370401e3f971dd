import {
  iotCommandEntity,
  iotDevicePageRoute,
  type CommandStatus,
  type WorkbenchCommand,
} from '@shuili/contract';
import { Card, Empty, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/format';
import { CommandStatusTag } from '../../iot/device/CommandStatusTag';
import { CommandText } from '../../iot/device/CommandText';

/** The newest operation records: what was sent to which device (a link to it), by whom, result. */
export function RecentCommands({ commands }: { commands: readonly WorkbenchCommand[] }) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={t('home.overview.recentCommands')}
      data-testid="workbench-recent-commands"
      extra={<Link to={iotCommandEntity.route}>{t('home.overview.allCommands')}</Link>}
    >
      {commands.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.overview.noCommands')} />
      ) : (
        <Flex vertical gap={8}>
          {commands.map((command) => (
            <Flex
              key={command.id}
              wrap
              gap={6}
              align="center"
              data-testid="workbench-command"
              data-device-no={command.deviceNo ?? ''}
              data-status={command.status}
            >
              <CommandStatusTag status={command.status as CommandStatus} />
              {command.deviceId ? (
                <Link to={iotDevicePageRoute(command.deviceId)}>
                  {command.deviceName || command.deviceNo}
                </Link>
              ) : (
                <Typography.Text type="secondary">{t('home.overview.deviceGone')}</Typography.Text>
              )}
              <Typography.Text strong>
                <CommandText deviceId={command.deviceId ?? ''} name={command.name} part="name" />
              </Typography.Text>
              <Typography.Text type="secondary">
                <CommandText
                  deviceId={command.deviceId ?? ''}
                  name={command.name}
                  params={command.params}
                  part="params"
                />
              </Typography.Text>
              <Typography.Text type="secondary">
                {command.username} · {formatDate(command.createdAt)}
              </Typography.Text>
            </Flex>
          ))}
        </Flex>
      )}
    </Card>
  );
}

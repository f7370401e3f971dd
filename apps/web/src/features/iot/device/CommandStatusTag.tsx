import type { CommandStatus } from '@shuili/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { COMMAND_STATUS_COLOR } from './command-status';

/** A command's status in words and colour. */
export function CommandStatusTag({ status }: { status: CommandStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={COMMAND_STATUS_COLOR[status]} data-testid="command-status" data-status={status}>
      {t(`iot.command.statuses.${status}`)}
    </Tag>
  );
}

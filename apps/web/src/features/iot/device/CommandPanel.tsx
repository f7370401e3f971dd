import {
  liveTopics,
  SET_PROPERTY_COMMAND,
  type CommandPush,
  type CommandView,
} from '@shuili/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Empty, List, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../../../core/session-store';
import { formatDate } from '../../../lib/format';
import { useLiveTopic } from '../../../core/live/use-live-topic';
import { useLabel } from '../../../resource/field-label';
import { CommandForm } from './CommandForm';
import { isFinalStatus } from './command-status';
import { CommandStatusTag } from './CommandStatusTag';
import { deviceApi } from './device-api';

export interface CommandPanelProps {
  deviceId: string;
  deviceNo: string;
  /** Named in every confirmation. */
  deviceName: string;
  online: boolean;
}

/** Pushes kept for sends still waiting for their answer. */
const EARLY_PUSHES = 50;

/**
 * The controls of the device drawn from its thing model: each command with a form of its
 * parameters, each writable property with its input. What was sent from here shows its status
 * as the server pushes it, until it succeeded, failed or timed out.
 */
export function CommandPanel({ deviceId, deviceNo, deviceName, online }: CommandPanelProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const queryClient = useQueryClient();
  const tenantCode = useSessionStore((state) => state.user?.tenantCode);
  const control = useQuery({
    queryKey: ['iot', 'control', deviceId],
    queryFn: ({ signal }) => deviceApi.control(deviceId, signal),
  });
  const [sent, setSent] = useState<CommandView[]>([]);
  /** Pushes of this device's commands, by id, for a send whose answer has not come yet. */
  const early = useRef(new Map<string, CommandView>());

  useLiveTopic(tenantCode ? liveTopics.commands(tenantCode) : undefined, (message) => {
    const push = message.payload as CommandPush | undefined;
    if (!push || (push.deviceId !== deviceId && push.deviceNo !== deviceNo)) return;
    // A push may come before the send's answer (a device that answers at once): kept for it.
    early.current.set(push.id, push);
    // Only the newest matter (the answer is moments behind): others' commands do not pile up.
    if (early.current.size > EARLY_PUSHES) early.current.delete(early.current.keys().next().value!);
    setSent((current) => current.map((command) => (command.id === push.id ? push : command)));
    void queryClient.invalidateQueries({ queryKey: ['iot', 'commands', deviceId] });
  });

  const send = async (name: string, params: Record<string, unknown>) => {
    const command = await deviceApi.send({ deviceId, name, params });
    // A push may have overtaken the answer: keep whichever is further along, so a final status
    // pushed first is not put back to "sent".
    const pushed = early.current.get(command.id);
    early.current.delete(command.id);
    const newer = pushed && isFinalStatus(pushed.status) ? pushed : command;
    setSent((current) => [newer, ...current.filter((one) => one.id !== command.id)]);
    void queryClient.invalidateQueries({ queryKey: ['iot', 'commands', deviceId] });
  };

  if (control.isLoading) return <Card loading />;
  const commands = control.data?.commands ?? [];
  const writable = control.data?.writable ?? [];

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="command-panel">
      {!online && <Alert type="info" showIcon title={t('iot.command.offlineHint')} />}
      {commands.length === 0 && writable.length === 0 && (
        <Empty description={t('iot.command.nothingToSend')} />
      )}
      {commands.map((command) => (
        <Card key={command.key} size="small" title={label(command.name)}>
          <CommandForm
            name={command.key}
            actionName={label(command.name)}
            deviceName={deviceName}
            params={command.params}
            onSend={(params) => send(command.key, params)}
            testId={`command-${command.key}`}
          />
        </Card>
      ))}
      {writable.length > 0 && (
        <Card size="small" title={t('iot.command.setProperties')}>
          <Space direction="vertical">
            {writable.map((property) => (
              <CommandForm
                key={property.key}
                name={SET_PROPERTY_COMMAND}
                actionName={t('iot.command.setValue', { name: label(property.name) })}
                deviceName={deviceName}
                params={[property]}
                onSend={(params) => send(SET_PROPERTY_COMMAND, params)}
                testId={`set-${property.key}`}
              />
            ))}
          </Space>
        </Card>
      )}
      {sent.length > 0 && (
        <Card size="small" title={t('iot.command.sentHere')}>
          <List
            size="small"
            dataSource={sent}
            data-testid="sent-commands"
            renderItem={(command) => (
              <List.Item data-testid={`sent-${command.id}`} data-name={command.name}>
                <Space wrap>
                  <code>{command.name}</code>
                  <Typography.Text type="secondary">
                    {JSON.stringify(command.params)}
                  </Typography.Text>
                  <CommandStatusTag status={command.status} />
                  {command.result && <Typography.Text>{command.result}</Typography.Text>}
                  <Typography.Text type="secondary">
                    {formatDate(command.createdAt)}
                  </Typography.Text>
                </Space>
              </List.Item>
            )}
          />
        </Card>
      )}
    </Space>
  );
}

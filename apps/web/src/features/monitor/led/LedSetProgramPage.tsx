import { SendOutlined } from '@ant-design/icons';
import {
  FINAL_COMMAND_STATUSES,
  ledArea,
  type CommandView,
  type LedSendResult,
} from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Select, Space, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { COMMAND_STATUS_COLOR } from '../../iot/device/command-status';
import { useAreaDevices } from '../devices/use-area-devices';
import { numberOf } from '../widgets/device-values';
import type { AreaScreenProps } from '../screens/area-screen-props';
import { ledApi, useLedPrograms } from './led-api';
import { LedPreview } from './LedPreview';
import { useScreenPrograms } from './use-screen-programs';

/** How often the page reads the sent commands again until every screen has answered. */
const FOLLOW_MS = 1000;

/**
 * /led/setProgram (hidden; reached from a program or a screen): pick a program and one or more
 * screens and send it. Each screen gets its own setProgram command of the IoT engine (an
 * operation record); the page follows each until the screen acknowledges it, refuses it, does
 * not answer in time, or (away) the command expires.
 */
export function LedSetProgramPage({ area = ledArea }: AreaScreenProps) {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const programs = useLedPrograms();
  const [programId, setProgramId] = useState<string | undefined>(
    search.get('programId') ?? undefined,
  );
  const [chosen, setChosen] = useState<string[]>(
    (search.get('deviceIds') ?? '').split(',').filter(Boolean),
  );
  const [sent, setSent] = useState<LedSendResult[]>([]);
  const [sending, setSending] = useState(false);
  const screens = useAreaDevices(area, 100);
  const program = programs.data?.list.find((row) => row.id === programId);
  const showing = useScreenPrograms(screens.devices.map((device) => device.id));
  const content = useQuery({
    queryKey: ['led', 'content', programId],
    queryFn: ({ signal }) => ledApi.content(programId!, signal),
    enabled: !!programId,
  });

  const ids = sent.map((result) => result.command.id);
  const follow = useQuery({
    queryKey: ['led', 'sends', ids],
    queryFn: ({ signal }) => ledApi.sends(ids, signal),
    enabled: ids.length > 0,
    refetchInterval: (query) =>
      (query.state.data ?? []).every((command) => FINAL_COMMAND_STATUSES.includes(command.status))
        ? false
        : FOLLOW_MS,
  });
  const now = useMemo(() => {
    const byId = new Map<string, CommandView>();
    for (const command of follow.data ?? []) byId.set(command.id, command);
    return byId;
  }, [follow.data]);

  const send = async () => {
    if (!programId || chosen.length === 0) return;
    setSending(true);
    const results = await ledApi.send(programId, chosen).catch(() => undefined);
    setSending(false);
    if (results) setSent(results);
  };

  return (
    <Flex vertical gap={16}>
      <Card title={t('monitor.led.sendTitle')}>
        <Flex gap={24} wrap align="flex-start">
          <Flex vertical gap={12} style={{ flex: '1 1 420px' }}>
            <Select
              showSearch
              optionFilterProp="label"
              placeholder={t('monitor.led.pickProgram')}
              value={programId}
              data-testid="led-send-program"
              onChange={(value) => {
                setProgramId(value);
                setSent([]);
              }}
              options={(programs.data?.list ?? []).map((row) => ({
                value: row.id,
                label: `${row.programName} (${row.programNo}) ${row.width} × ${row.height}`,
              }))}
            />
            <Table
              size="small"
              rowKey="id"
              loading={screens.loading}
              dataSource={screens.devices}
              pagination={false}
              data-testid="led-send-screens"
              rowSelection={{
                selectedRowKeys: chosen,
                onChange: (keys) => setChosen(keys.map(String)),
              }}
              columns={[
                { title: t('monitor.led.screen'), dataIndex: 'deviceName' },
                { title: t('monitor.led.deviceNo'), dataIndex: 'deviceNo' },
                {
                  title: t('monitor.led.online'),
                  dataIndex: 'online',
                  render: (online: boolean) => (
                    <Tag color={online ? 'green' : 'default'}>
                      {t(online ? 'monitor.led.isOnline' : 'monitor.led.isOffline')}
                    </Tag>
                  ),
                },
                {
                  title: t('monitor.led.resolution'),
                  key: 'resolution',
                  render: (_, device) => {
                    const width = numberOf(device, 'width');
                    const height = numberOf(device, 'height');
                    const tooSmall =
                      program &&
                      width !== undefined &&
                      height !== undefined &&
                      (program.width > width || program.height > height);
                    return width === undefined ? (
                      '—'
                    ) : (
                      <Typography.Text type={tooSmall ? 'danger' : undefined}>
                        {width} × {height}
                      </Typography.Text>
                    );
                  },
                },
                {
                  title: t('monitor.led.showing'),
                  key: 'program',
                  render: (_, device) => showing[device.id] || '—',
                },
              ]}
            />
            <Space>
              <Button
                type="primary"
                icon={<SendOutlined />}
                disabled={!programId || chosen.length === 0}
                loading={sending}
                data-testid="led-send"
                onClick={() => void send()}
              >
                {t('monitor.led.sendTo', { count: chosen.length })}
              </Button>
            </Space>
          </Flex>
          {content.data && (
            <div>
              <Typography.Title level={5}>{t('monitor.led.preview')}</Typography.Title>
              <LedPreview
                pages={content.data.pages}
                width={content.data.width}
                height={content.data.height}
                scale={Math.min(2, 384 / content.data.width)}
              />
            </div>
          )}
        </Flex>
      </Card>
      {sent.length > 0 && (
        <Card title={t('monitor.led.progress')} data-testid="led-send-progress">
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            message={t('monitor.led.progressHelp')}
          />
          <Table
            size="small"
            rowKey="deviceId"
            pagination={false}
            dataSource={sent}
            columns={[
              { title: t('monitor.led.screen'), dataIndex: 'deviceName' },
              { title: t('monitor.led.deviceNo'), dataIndex: 'deviceNo' },
              {
                title: t('monitor.led.state'),
                key: 'status',
                render: (_, result) => {
                  const command = now.get(result.command.id) ?? result.command;
                  return (
                    <span data-testid="led-send-status" data-device={result.deviceNo}>
                      <Tag
                        color={COMMAND_STATUS_COLOR[command.status]}
                        data-testid="command-status"
                        data-status={command.status}
                      >
                        {t(`monitor.led.statuses.${command.status}`)}
                      </Tag>
                    </span>
                  );
                },
              },
              {
                title: t('monitor.led.answer'),
                key: 'result',
                render: (_, result) => {
                  const command = now.get(result.command.id) ?? result.command;
                  if (command.status === 'pending')
                    return t(result.online ? 'monitor.led.delivering' : 'monitor.led.waiting');
                  return (
                    [
                      command.result,
                      command.latencyMs !== null
                        ? t('monitor.led.latency', { ms: command.latencyMs })
                        : null,
                    ]
                      .filter(Boolean)
                      .join(' · ') || '—'
                  );
                },
              },
            ]}
          />
        </Card>
      )}
    </Flex>
  );
}

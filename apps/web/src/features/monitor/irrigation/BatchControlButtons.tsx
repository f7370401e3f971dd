import { PoweroffOutlined, ThunderboltOutlined } from '@ant-design/icons';
import type { BatchValveControlResult } from '@shuili/contract';
import { Button, InputNumber, Modal, Space, Table, Tag, Tooltip, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Translate } from '../../../resource/field-rules';
import { confirmControl } from '../../iot/device/confirm-control';
import { batchValveControl } from './irrigation-api';

const DEFAULT_MINUTES = 30;

/**
 * Open (for some minutes: the server closes them after) or close every channel of a valve
 * group at once, after a confirmation; then what became of each device's channels.
 */
export function BatchControlButtons({
  groupId,
  groupName,
}: {
  groupId: string;
  groupName: string;
}) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [minutes, setMinutes] = useState<number>(DEFAULT_MINUTES);
  const [result, setResult] = useState<BatchValveControlResult | undefined>();

  const run = async (action: 'open' | 'close') => {
    const summary = {
      device: groupName,
      action: t(
        action === 'open' ? 'monitor.irrigation.batchOpen' : 'monitor.irrigation.batchClose',
      ),
      params:
        action === 'open'
          ? [
              {
                name: t('monitor.irrigation.duration'),
                value: `${minutes} ${t('monitor.irrigation.minutes')}`,
              },
            ]
          : [],
    };
    setAsking(false);
    if (!(await confirmControl(summary, t as Translate))) return;
    const answer = await batchValveControl({
      groupId,
      action,
      ...(action === 'open' ? { durationMinutes: minutes } : {}),
    }).catch(() => undefined);
    if (answer) setResult(answer);
  };

  return (
    <>
      <Tooltip title={t('monitor.irrigation.batchOpen')}>
        <Button
          type="link"
          size="small"
          icon={<ThunderboltOutlined />}
          aria-label={t('monitor.irrigation.batchOpen')}
          data-testid="group-open"
          onClick={() => setAsking(true)}
        />
      </Tooltip>
      <Tooltip title={t('monitor.irrigation.batchClose')}>
        <Button
          type="link"
          size="small"
          danger
          icon={<PoweroffOutlined />}
          aria-label={t('monitor.irrigation.batchClose')}
          data-testid="group-close"
          onClick={() => void run('close')}
        />
      </Tooltip>
      <Modal
        open={asking}
        title={t('monitor.irrigation.batchOpenOf', { group: groupName })}
        onCancel={() => setAsking(false)}
        onOk={() => void run('open')}
        okButtonProps={{ 'data-testid': 'group-open-next' } as ButtonProps}
        destroyOnHidden
      >
        <Space>
          {t('monitor.irrigation.duration')}
          <span data-testid="group-open-minutes">
            <InputNumber
              min={1}
              max={1440}
              precision={0}
              value={minutes}
              onChange={(value) => setMinutes(value ?? DEFAULT_MINUTES)}
              addonAfter={t('monitor.irrigation.minutes')}
            />
          </span>
        </Space>
      </Modal>
      <Modal
        open={result !== undefined}
        title={t('monitor.irrigation.batchResult', {
          accepted: result?.accepted ?? 0,
          refused: result?.refused ?? 0,
        })}
        footer={null}
        onCancel={() => setResult(undefined)}
        width={720}
        destroyOnHidden
      >
        <Table
          size="small"
          rowKey="deviceId"
          pagination={false}
          dataSource={result?.devices ?? []}
          data-testid="batch-result"
          columns={[
            {
              title: t('monitor.irrigation.device'),
              render: (_, device) => `${device.deviceName} (${device.deviceNo})`,
            },
            {
              title: t('monitor.irrigation.channels'),
              render: (_, device) => (
                <Space direction="vertical" size={2}>
                  {device.channels.map((channel) => (
                    <span key={channel.channel}>
                      <Tag color={channel.accepted ? 'success' : 'error'}>
                        {t('monitor.irrigation.channel')} {channel.channel}:{' '}
                        {t(
                          channel.accepted
                            ? 'monitor.irrigation.accepted'
                            : 'monitor.irrigation.refused',
                        )}
                      </Tag>
                      {channel.message}
                    </span>
                  ))}
                </Space>
              ),
            },
          ]}
        />
      </Modal>
    </>
  );
}

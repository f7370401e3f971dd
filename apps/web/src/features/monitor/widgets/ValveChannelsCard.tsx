import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { numberedKeys, numberOf } from './device-values';
import { STATE_COLOR } from './widget-colors';
import { useValueText } from './use-value-text';
import type { AreaWidgetProps } from './widget-types';
import { LabelledValue } from './LabelledValue';

/** Valve states of the thing model (OPEN_CLOSED in the seeded products): 0 closed, 1 open, 2 fault. */
const VALVE_COLOR: Record<number, string> = {
  0: STATE_COLOR.stopped,
  1: STATE_COLOR.running,
  2: STATE_COLOR.fault,
};
const VALVE_STATE: Record<number, string> = { 0: 'closed', 1: 'open', 2: 'fault' };

/** A field controller's valve channels as lamps (open green, closed grey, fault red), its flow and pressure. */
export function ValveChannelsCard({ device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const { text, name } = useValueText(device);
  const channels = numberedKeys(device, /^valve(\d+)State$/);
  return (
    <div data-testid="widget-valveChannels">
      <Flex wrap gap={8} style={{ marginBottom: 6 }}>
        {channels.map((channel) => {
          const key = `valve${channel}State`;
          const state = numberOf(device, key);
          const color =
            state === undefined || !device.online ? STATE_COLOR.unknown : VALVE_COLOR[state];
          return (
            <Flex
              key={key}
              vertical
              align="center"
              style={{ minWidth: 52 }}
              data-testid="valve-lamp"
              data-channel={channel}
              data-state={state === undefined ? 'unknown' : (VALVE_STATE[state] ?? String(state))}
              title={`${name(key)}: ${text(key)}`}
            >
              <span
                aria-hidden
                style={{
                  width: 18,
                  height: 18,
                  borderRadius: '50%',
                  background: color ?? STATE_COLOR.unknown,
                  boxShadow:
                    state === 1 && device.online ? `0 0 6px ${STATE_COLOR.running}` : undefined,
                  border: '1px solid rgba(0,0,0,0.15)',
                }}
              />
              <Typography.Text style={{ fontSize: 12 }} ellipsis>
                {name(key)}
              </Typography.Text>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {text(key)}
              </Typography.Text>
            </Flex>
          );
        })}
      </Flex>
      <Flex gap={16} wrap>
        <LabelledValue label={t('monitor.widget.flow')}>{text('flow')}</LabelledValue>
        <LabelledValue label={t('monitor.widget.pressure')}>{text('pressure')}</LabelledValue>
      </Flex>
    </div>
  );
}

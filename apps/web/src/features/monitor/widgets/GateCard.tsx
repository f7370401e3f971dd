import { Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { numberOf, rangeOf } from './device-values';
import { STATE_COLOR } from './widget-colors';
import { useValueText } from './use-value-text';
import type { AreaWidgetProps } from './widget-types';
import { LabelledValue } from './LabelledValue';

const BASE = 110;
const HEIGHT = 90;
const LEAF = 85;

/** gateState of the thing model: 0 stopped, 1 opening, 2 closing. */
const MOTION_ARROW: Record<number, string> = { 1: '▲', 2: '▼' };

/**
 * A canal gate drawn at its opening against its travel (0 to the model's maximum), the water
 * before and behind it at their levels, whether it moves, and the flow through it.
 */
export function GateCard({ device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const { text, name } = useValueText(device);
  const opening = numberOf(device, 'gateOpening');
  const [, travel] = rangeOf(device, 'gateOpening', [0, 3]);
  const upstream = numberOf(device, 'upstreamLevel');
  const downstream = numberOf(device, 'downstreamLevel');
  const motion = numberOf(device, 'gateState');
  const moving = motion === 1 || motion === 2;
  // One vertical scale for water and gate: the highest of them with some headroom.
  const top = Math.max(upstream ?? 0, downstream ?? 0, travel) * 1.2 || 1;
  const y = (value: number) => BASE - (Math.max(0, value) / top) * HEIGHT;
  const leafBottom = y(Math.min(opening ?? 0, travel));
  const share =
    opening === undefined || travel <= 0 ? undefined : Math.round((opening / travel) * 100);
  const leafColor = !device.online ? STATE_COLOR.offline : moving ? STATE_COLOR.moving : '#595959';

  return (
    <div data-testid="widget-gate" data-opening={opening ?? ''} data-moving={moving}>
      <svg viewBox="0 0 240 120" width="100%" role="img" aria-label={name('gateOpening')}>
        {upstream !== undefined && (
          <rect
            x={10}
            y={y(upstream)}
            width={100}
            height={BASE - y(upstream)}
            fill={STATE_COLOR.water}
          />
        )}
        {downstream !== undefined && (
          <rect
            x={130}
            y={y(downstream)}
            width={100}
            height={BASE - y(downstream)}
            fill={STATE_COLOR.water}
          />
        )}
        {opening !== undefined && opening > 0 && (upstream ?? 0) > 0 && (
          <rect
            x={110}
            y={y(Math.min(opening, upstream ?? 0))}
            width={20}
            height={BASE - y(Math.min(opening, upstream ?? 0))}
            fill={STATE_COLOR.water}
            opacity={0.7}
          />
        )}
        <line x1={108} y1={10} x2={108} y2={BASE} stroke="#434343" strokeWidth={3} />
        <line x1={132} y1={10} x2={132} y2={BASE} stroke="#434343" strokeWidth={3} />
        <rect
          x={111}
          y={leafBottom - LEAF}
          width={18}
          height={LEAF}
          fill={leafColor}
          data-testid="gate-leaf"
        />
        <line x1={4} y1={BASE} x2={236} y2={BASE} stroke="#8c8c8c" strokeWidth={2} />
        {upstream !== undefined && (
          <text x={14} y={Math.max(12, y(upstream) - 4)} fontSize={11} fill="#262626">
            {text('upstreamLevel')}
          </text>
        )}
        {downstream !== undefined && (
          <text
            x={226}
            y={Math.max(12, y(downstream) - 4)}
            fontSize={11}
            fill="#262626"
            textAnchor="end"
          >
            {text('downstreamLevel')}
          </text>
        )}
      </svg>
      <Flex gap={8} wrap align="center">
        <Typography.Text>
          <Typography.Text type="secondary">{t('monitor.widget.opening')} </Typography.Text>
          {text('gateOpening')}
          {share !== undefined && (
            <Typography.Text type="secondary">
              {' '}
              ({t('monitor.widget.ofTravel', { share, travel })})
            </Typography.Text>
          )}
        </Typography.Text>
        {motion !== undefined && (
          <Tag color={moving ? 'processing' : 'default'} data-testid="gate-motion">
            {MOTION_ARROW[motion] ?? ''} {text('gateState')}
          </Tag>
        )}
      </Flex>
      <Flex gap={16} wrap>
        <LabelledValue label={t('monitor.widget.upstream')}>{text('upstreamLevel')}</LabelledValue>
        <LabelledValue label={t('monitor.widget.downstream')}>
          {text('downstreamLevel')}
        </LabelledValue>
        <LabelledValue label={t('monitor.widget.flow')}>{text('flow')}</LabelledValue>
      </Flex>
    </div>
  );
}

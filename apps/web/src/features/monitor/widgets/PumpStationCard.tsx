import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { numberedKeys, numberOf, rangeOf } from './device-values';
import { useAreaSettings } from './use-area-settings';
import { STATE_COLOR, runColor } from './widget-colors';
import { useValueText } from './use-value-text';
import type { AreaWidgetProps } from './widget-types';
import { LabelledValue } from './LabelledValue';

const TANK_TOP = 14;
const TANK_BOTTOM = 112;

/**
 * The station as a diagram: the forebay at its level with the dry-run line (the level below
 * which the server refuses to start a pump), each pump running or stopped with its drive's
 * frequency, current, voltage and power, and the outlet's pressure and flow.
 */
export function PumpStationCard({ area, device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const { text, name } = useValueText(device);
  const settings = useAreaSettings(area, device.id);
  const dryRun = Number(settings.value('dryRunLevel'));
  const level = numberOf(device, 'forebayLevel');
  const [low, high] = rangeOf(device, 'forebayLevel', [0, 10]);
  const top = Math.max(high, (level ?? 0) * 1.1, Number.isFinite(dryRun) ? dryRun * 1.5 : 0);
  const y = (value: number) =>
    TANK_BOTTOM -
    ((Math.min(Math.max(value, low), top) - low) / (top - low || 1)) * (TANK_BOTTOM - TANK_TOP);
  const belowDryRun = level !== undefined && Number.isFinite(dryRun) && level < dryRun;
  const pumps = numberedKeys(device, /^pump(\d+)Running$/);
  const pumpX = (index: number) => 130 + index * (100 / Math.max(1, pumps.length));
  const runText = (running: number | undefined) =>
    running === undefined
      ? '—'
      : running
        ? t('monitor.widget.running')
        : t('monitor.widget.stopped');

  return (
    <div data-testid="widget-pumpStation" data-below-dry-run={belowDryRun}>
      <svg viewBox="0 0 260 130" width="100%" role="img" aria-label={name('forebayLevel')}>
        <rect
          x={8}
          y={TANK_TOP}
          width={80}
          height={TANK_BOTTOM - TANK_TOP}
          fill="none"
          stroke="#595959"
        />
        {level !== undefined && (
          <rect
            x={9}
            y={y(level)}
            width={78}
            height={TANK_BOTTOM - y(level)}
            fill={belowDryRun ? STATE_COLOR.fault : STATE_COLOR.water}
            opacity={belowDryRun ? 0.55 : 1}
            data-testid="pump-forebay-water"
          />
        )}
        {Number.isFinite(dryRun) && (
          <g data-testid="pump-dry-run-line" data-level={dryRun}>
            <line
              x1={4}
              x2={92}
              y1={y(dryRun)}
              y2={y(dryRun)}
              stroke={STATE_COLOR.fault}
              strokeWidth={1.5}
              strokeDasharray="4 3"
            />
            <text x={10} y={y(dryRun) - 3} fontSize={10} fill={STATE_COLOR.fault}>
              {t('monitor.widget.dryRunAt', { level: dryRun })}
            </text>
          </g>
        )}
        <text x={48} y={126} fontSize={11} textAnchor="middle" fill="#262626">
          {text('forebayLevel')}
        </text>
        {/* Suction main from the forebay to the pumps, delivery main on to the outlet. */}
        <line x1={88} x2={250} y1={96} y2={96} stroke="#8c8c8c" strokeWidth={4} />
        <line x1={88} x2={250} y1={40} y2={40} stroke="#8c8c8c" strokeWidth={4} />
        {pumps.map((pump, index) => {
          const running = numberOf(device, `pump${pump}Running`);
          const x = pumpX(index);
          return (
            <g
              key={pump}
              data-testid="pump-unit"
              data-pump={pump}
              data-running={running === undefined ? 'unknown' : running ? 'true' : 'false'}
            >
              <line x1={x} x2={x} y1={40} y2={96} stroke="#8c8c8c" strokeWidth={3} />
              <circle
                cx={x}
                cy={68}
                r={15}
                fill={runColor(running, device.online)}
                stroke="#434343"
              />
              <text x={x} y={72} fontSize={11} textAnchor="middle" fill="#fff">
                {pump}#
              </text>
            </g>
          );
        })}
        {(numberOf(device, 'outletPressure') !== undefined ||
          numberOf(device, 'flow') !== undefined) && (
          <text x={250} y={34} fontSize={10} textAnchor="end" fill="#262626">
            {text('outletPressure')} · {text('flow')}
          </text>
        )}
      </svg>
      {pumps.map((pump) => (
        <Flex key={pump} gap={8} wrap style={{ fontSize: 12 }} data-testid="pump-row">
          <Typography.Text strong style={{ fontSize: 12 }}>
            {pump}#
          </Typography.Text>
          <Typography.Text
            style={{
              fontSize: 12,
              color: runColor(numberOf(device, `pump${pump}Running`), device.online),
            }}
          >
            {runText(numberOf(device, `pump${pump}Running`))}
          </Typography.Text>
          {['Frequency', 'Current', 'Voltage', 'Power'].map((part) => (
            <Typography.Text key={part} type="secondary" style={{ fontSize: 12 }}>
              {text(`pump${pump}${part}`)}
            </Typography.Text>
          ))}
        </Flex>
      ))}
      <Flex gap={12} wrap style={{ marginTop: 4 }}>
        <LabelledValue label={t('monitor.widget.outletPressure')}>
          {text('outletPressure')}
        </LabelledValue>
        <LabelledValue label={t('monitor.widget.flow')}>{text('flow')}</LabelledValue>
      </Flex>
    </div>
  );
}

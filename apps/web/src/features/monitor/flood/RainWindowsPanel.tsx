import {
  FLOOD_LEVELS,
  RAIN_WINDOWS,
  rainWindowKey,
  type FloodStationStatus,
} from '@shuili/contract';
import { Empty, Spin, Table, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../iot/charts/EChart';
import { PanelFrame } from '../widgets/PanelFrame';
import { ALARM_COLOR, STATE_COLOR } from '../widgets/widget-colors';
import type { AreaWidgetProps } from '../widgets/widget-types';
import { useFloodStatus } from './flood-api';

/** The highest level a window's sum reaches under the station's thresholds, or none. */
function levelOfWindow(status: FloodStationStatus, hours: (typeof RAIN_WINDOWS)[number]) {
  const key = rainWindowKey(hours);
  return [...FLOOD_LEVELS].reverse().find((level) => {
    const mm = status.thresholds[level][key];
    return mm !== null && status.sums[key] >= mm;
  });
}

/**
 * The station's rain over 1, 3, 6, 12 and 24 hours as the server sums it, each bar in the colour
 * of the highest level it reaches, with every level's threshold of that window marked; below,
 * the same as numbers.
 */
export function RainWindowsPanel({ device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const query = useFloodStatus(device.id);
  const status = query.data;

  const option = useMemo(() => {
    if (!status) return undefined;
    const categories = RAIN_WINDOWS.map((hours) => t('monitor.flood.hours', { hours }));
    return {
      tooltip: { trigger: 'axis', className: 'chart-tooltip' },
      legend: { top: 0 },
      grid: { left: 48, right: 16, top: 60, bottom: 28 },
      xAxis: { type: 'category', data: categories },
      yAxis: { type: 'value', name: 'mm' },
      series: [
        {
          name: t('monitor.flood.rain'),
          type: 'bar',
          barMaxWidth: 36,
          data: RAIN_WINDOWS.map((hours) => {
            const level = levelOfWindow(status, hours);
            return {
              value: status.sums[rainWindowKey(hours)],
              itemStyle: { color: level ? ALARM_COLOR[level] : STATE_COLOR.water },
            };
          }),
        },
        ...FLOOD_LEVELS.map((level) => ({
          name: t(`monitor.flood.level.${level}`),
          // A mark per window the level looks at: a line series without its line (the
          // console's ECharts build draws lines and bars).
          type: 'line',
          symbol: 'rect',
          symbolSize: [28, 3],
          showAllSymbol: true,
          lineStyle: { opacity: 0 },
          itemStyle: { color: ALARM_COLOR[level] },
          data: RAIN_WINDOWS.map((hours) => status.thresholds[level][rainWindowKey(hours)] ?? '-'),
        })),
      ],
    };
  }, [status, t]);

  return (
    <PanelFrame title={t('monitor.flood.rainWindows')} testId="widget-rainWindows">
      <Spin spinning={query.isPending}>
        {!status && !query.isPending ? (
          <Empty description={t('monitor.widget.noData')} />
        ) : (
          <div
            data-testid="rain-windows"
            data-sums={
              status ? RAIN_WINDOWS.map((h) => status.sums[rainWindowKey(h)]).join(',') : ''
            }
            data-level={status?.warning?.level ?? 'none'}
          >
            {option && <EChart option={option} height={240} testId="rain-windows-chart" />}
            {status && (
              <Table
                size="small"
                pagination={false}
                rowKey="hours"
                data-testid="rain-windows-table"
                dataSource={RAIN_WINDOWS.map((hours) => ({ hours }))}
                columns={[
                  {
                    key: 'window',
                    title: t('monitor.flood.window'),
                    render: (_, row) => t('monitor.flood.hours', { hours: row.hours }),
                  },
                  {
                    key: 'rain',
                    title: t('monitor.flood.rainMm'),
                    render: (_, row) => {
                      const level = levelOfWindow(status, row.hours);
                      return (
                        <Typography.Text
                          strong={!!level}
                          style={level ? { color: ALARM_COLOR[level] } : undefined}
                        >
                          {status.sums[rainWindowKey(row.hours)].toFixed(1)}
                        </Typography.Text>
                      );
                    },
                  },
                  ...FLOOD_LEVELS.map((level) => ({
                    key: level,
                    title: t(`monitor.flood.level.${level}`),
                    render: (_: unknown, row: { hours: (typeof RAIN_WINDOWS)[number] }) =>
                      status.thresholds[level][rainWindowKey(row.hours)] ?? '—',
                  })),
                ]}
              />
            )}
            {status && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t(
                  status.ownThresholds
                    ? 'monitor.flood.ownThresholds'
                    : 'monitor.flood.defaultThresholds',
                )}
                {status.source === 'counter' && ` ${t('monitor.flood.fromCounter')}`}
              </Typography.Text>
            )}
          </div>
        )}
      </Spin>
    </PanelFrame>
  );
}

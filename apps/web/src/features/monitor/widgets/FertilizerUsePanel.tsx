import { FERTIGATION_CALLS, type FertilizerUse } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Spin, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HOUR_MS } from './chart-range';
import { browserTimeZone, daysBetween } from './calendar-days';
import { sumByDay } from './counter-increase';
import { DailyBars, type DailySeries } from './DailyBars';
import { dailyValues } from './daily-values';
import { propertyOf } from './device-values';
import { totalOf, volumesFromRates } from './flow-volume';
import { optionalCall } from './optional-call';
import { PanelFrame } from './PanelFrame';
import { RangeSwitch } from './RangeSwitch';
import { aggregatePoints, fetchAggregates } from './telemetry-calls';
import { useValueText } from './use-value-text';
import type { AreaWidgetProps } from './widget-types';

const CHANNEL_COLORS = ['#52c41a', '#1677ff', '#faad14', '#eb2f96', '#722ed1'];

/**
 * Fertilizer each channel drew, per day: the fertigation report's figures when it is there, else
 * the channel's suction flow (L/h) averaged per hour, times the hour.
 */
export function FertilizerUsePanel({ device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const { name } = useValueText(device);
  const [hours, setHours] = useState(7 * 24);
  const [now] = useState(() => Date.now());
  const start = now - hours * HOUR_MS;
  const keys = useMemo(
    () =>
      device.thingModel.properties
        .filter((property) => /^channel\w+Flow$/.test(property.key))
        .map((property) => property.key),
    [device.thingModel],
  );
  const report = useQuery({
    queryKey: ['monitor', 'fertilizerUse', device.id, start, now],
    queryFn: ({ signal }) =>
      optionalCall<FertilizerUse>(
        FERTIGATION_CALLS.fertilizerUse,
        {
          deviceId: device.id,
          start: new Date(start).toISOString(),
          end: new Date(now).toISOString(),
          bucket: 'day',
        },
        signal,
      ),
    retry: false,
  });
  const flows = useQuery({
    queryKey: ['monitor', 'channelFlows', device.id, keys, start, now],
    queryFn: ({ signal }) => fetchAggregates(device.id, keys, start, now, 'hour', ['avg'], signal),
    enabled: keys.length > 0 && report.isFetched && report.data === undefined,
  });

  const { series, timeZone } = useMemo(() => {
    const timeZone = report.data?.timeZone ?? flows.data?.timeZone ?? browserTimeZone();
    const series: DailySeries[] = keys.map((key, index) => {
      const values = report.data
        ? dailyValues(report.data, 'liters', timeZone, (item) => item.key === key)
        : sumByDay(
            volumesFromRates(aggregatePoints(flows.data?.list ?? [], key, 'avg'), 1),
            timeZone,
          );
      return {
        name: propertyOf(device, key) ? name(key) : key,
        color: CHANNEL_COLORS[index % CHANNEL_COLORS.length]!,
        values,
        precision: 1,
        stack: 'channels',
      };
    });
    return { series, timeZone };
  }, [device, flows.data, keys, name, report.data]);
  const days = daysBetween(start, now, timeZone).slice(-Math.round(hours / 24));
  const totals = series.map((one) => ({
    name: one.name,
    liters: totalOf(days.map((day) => [0, one.values.get(day) ?? 0])),
  }));

  return (
    <PanelFrame
      title={t('monitor.widget.fertilizerUse')}
      testId="widget-fertilizerUse"
      extra={<RangeSwitch hours={[7 * 24, 30 * 24]} value={hours} onChange={setHours} />}
    >
      <Spin spinning={report.isFetching || flows.isFetching}>
        <div
          data-testid="fertilizer-use"
          data-source={report.data !== undefined ? 'report' : flows.data ? 'flows' : ''}
        >
          <DailyBars days={days} unit="L" series={series} testId="fertilizer-use-chart" />
        </div>
      </Spin>
      <Typography.Text type="secondary">
        {totals
          .map((one) =>
            t('monitor.widget.channelTotal', { channel: one.name, liters: one.liters.toFixed(1) }),
          )
          .join(' · ')}
      </Typography.Text>
    </PanelFrame>
  );
}

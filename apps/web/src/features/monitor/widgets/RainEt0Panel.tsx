import { WEATHER_CALLS, type DailyEt0 } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Spin, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HOUR_MS } from './chart-range';
import { daysBetween, localDay } from './calendar-days';
import { DailyBars } from './DailyBars';
import { dailyValues } from './daily-values';
import { optionalCall } from './optional-call';
import { PanelFrame } from './PanelFrame';
import { RangeSwitch } from './RangeSwitch';
import { aggregatePoints, fetchAggregates } from './telemetry-calls';
import { STATE_COLOR } from './widget-colors';
import type { AreaWidgetProps } from './widget-types';

/**
 * Daily rainfall with the day's reference evapotranspiration ET0 (FAO-56, computed by the server
 * from the station's readings) beside it: what fell against what a grass cover would have used.
 * Without the ET0 call (not installed, not granted) the rain comes from the telemetry's daily
 * sums of the gauge's interval amounts, cut in the tenant's calendar like the ET0 days.
 */
export function RainEt0Panel({ device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const [hours, setHours] = useState(14 * 24);
  const [now] = useState(() => Date.now());
  const start = now - hours * HOUR_MS;
  const et0 = useQuery({
    queryKey: ['monitor', 'et0', device.id, start, now],
    queryFn: ({ signal }) =>
      optionalCall<DailyEt0>(
        WEATHER_CALLS.dailyEt0,
        {
          deviceId: device.id,
          start: new Date(start).toISOString(),
          end: new Date(now).toISOString(),
        },
        signal,
      ),
    retry: false,
  });
  const rain = useQuery({
    queryKey: ['monitor', 'rain', device.id, start, now],
    queryFn: ({ signal }) =>
      fetchAggregates(device.id, ['rainfall'], start, now, 'day', ['sum'], signal),
    enabled: et0.isFetched && et0.data === undefined,
  });

  const daily = useMemo(() => {
    if (et0.data) {
      return {
        timeZone: et0.data.timeZone,
        rain: dailyValues(et0.data, 'rainfall'),
        et0: dailyValues(et0.data, 'et0'),
      };
    }
    if (!rain.data) return undefined;
    const byDay = new Map<string, number>();
    for (const [ms, sum] of aggregatePoints(rain.data.list, 'rainfall', 'sum'))
      byDay.set(localDay(ms, rain.data.timeZone), sum);
    return { timeZone: rain.data.timeZone, rain: byDay, et0: new Map<string, number>() };
  }, [et0.data, rain.data]);

  const days = daily ? daysBetween(start, now, daily.timeZone).slice(-Math.round(hours / 24)) : [];
  const sum = (values: ReadonlyMap<string, number> | undefined) =>
    days.reduce((total, day) => total + (values?.get(day) ?? 0), 0);

  return (
    <PanelFrame
      title={t('monitor.widget.rainEt0')}
      testId="widget-rainEt0"
      extra={<RangeSwitch hours={[7 * 24, 14 * 24, 30 * 24]} value={hours} onChange={setHours} />}
    >
      <Spin spinning={!daily || et0.isFetching || rain.isFetching}>
        <div
          data-testid="rain-et0"
          data-source={et0.data ? 'et0' : rain.data ? 'telemetry' : ''}
          data-days={days.length}
          data-rain-days={days.filter((day) => daily?.rain.has(day)).length}
          data-rain-total={sum(daily?.rain).toFixed(1)}
          data-et0-days={days.filter((day) => daily?.et0.has(day)).length}
        >
          <DailyBars
            days={days}
            unit="mm"
            testId="rain-et0-chart"
            series={[
              {
                name: t('monitor.widget.rain'),
                color: STATE_COLOR.waterDeep,
                values: daily?.rain ?? new Map(),
                precision: 1,
              },
              {
                name: t('monitor.widget.et0'),
                color: STATE_COLOR.warning,
                values: daily?.et0 ?? new Map(),
                precision: 1,
              },
            ]}
          />
        </div>
      </Spin>
      <Typography.Text type="secondary">
        {t('monitor.widget.rainEt0Totals', {
          rain: sum(daily?.rain).toFixed(1),
          et0: sum(daily?.et0).toFixed(1),
        })}
        {rain.data && ` ${t('monitor.widget.et0Unavailable')}`}
      </Typography.Text>
    </PanelFrame>
  );
}

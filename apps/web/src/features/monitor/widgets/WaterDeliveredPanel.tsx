import { IRRIGATION_CALLS, type WaterDelivered } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Flex, Spin, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { browserTimeZone, dayRange, localDay, shiftDay } from './calendar-days';
import { HOUR_MS } from './chart-range';
import { counterIncreases, sumByDay } from './counter-increase';
import { DailyBars } from './DailyBars';
import { dailyValues } from './daily-values';
import { optionalCall } from './optional-call';
import { PanelFrame } from './PanelFrame';
import { RangeSwitch } from './RangeSwitch';
import { aggregatePoints, fetchAggregates } from './telemetry-calls';
import { STATE_COLOR } from './widget-colors';
import type { AreaWidgetProps } from './widget-types';

/**
 * Water delivered per day. For a controller in a zone: the zone's (with the zones below it), as
 * the irrigation report counts it from the daily meter increases, and how long each of this
 * controller's channels stood open. Without a zone, or without that report (not installed, not
 * granted): this meter's own daily increase of cumulativeVolume from its hourly readings, a
 * counter reset counted from zero.
 */
export function WaterDeliveredPanel({ device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const [hours, setHours] = useState(14 * 24);
  const [now] = useState(() => Date.now());
  // The report's days are the tenant's calendar; the reader's today stands for it (the same
  // day wherever the district's operators sit).
  const today = localDay(now, browserTimeZone());
  const days = dayRange(shiftDay(today, -(hours / 24 - 1)), today);
  const zone = useQuery({
    queryKey: ['monitor', 'waterDelivered', device.zoneId, days[0], today],
    queryFn: ({ signal }) =>
      optionalCall<WaterDelivered>(
        IRRIGATION_CALLS.waterDelivered,
        { start: days[0], end: today, bucket: 'day', zoneId: device.zoneId ?? undefined },
        signal,
      ),
    enabled: device.zoneId !== null,
    retry: false,
  });
  const meter = useQuery({
    queryKey: ['monitor', 'meterDaily', device.id, hours, now],
    // An hour before the range gives its first hour a starting value.
    queryFn: ({ signal }) =>
      fetchAggregates(
        device.id,
        ['cumulativeVolume'],
        now - (hours + 1) * HOUR_MS,
        now,
        'hour',
        ['max'],
        signal,
      ),
    enabled: device.zoneId === null || (zone.isFetched && zone.data === undefined),
  });

  const byDay = useMemo(() => {
    if (zone.data) return dailyValues(zone.data.volumes, 'volume');
    if (!meter.data) return undefined;
    const increases = counterIncreases(aggregatePoints(meter.data.list, 'cumulativeVolume', 'max'));
    return sumByDay(increases, meter.data.timeZone);
  }, [meter.data, zone.data]);
  const total = days.reduce((sum, day) => sum + (byDay?.get(day) ?? 0), 0);
  const source = zone.data ? 'zone' : meter.data ? 'meter' : '';
  const openHours = (zone.data?.openHours ?? []).filter((row) => row.deviceId === device.id);

  return (
    <PanelFrame
      title={t('monitor.widget.waterDelivered')}
      testId="widget-waterDelivered"
      extra={<RangeSwitch hours={[7 * 24, 14 * 24, 30 * 24]} value={hours} onChange={setHours} />}
    >
      <Spin spinning={!byDay}>
        <div data-testid="water-delivered" data-source={source} data-total={total.toFixed(2)}>
          <DailyBars
            days={days}
            unit="m³"
            testId="water-delivered-chart"
            series={[
              {
                name: t('monitor.widget.waterDelivered'),
                color: STATE_COLOR.waterDeep,
                values: byDay ?? new Map(),
                precision: 1,
              },
            ]}
          />
        </div>
      </Spin>
      <Typography.Text type="secondary">
        {source === 'zone'
          ? t('monitor.widget.zoneTotal', { zone: device.zoneName ?? '', total: total.toFixed(1) })
          : t('monitor.widget.meterTotal', { total: total.toFixed(1) })}
      </Typography.Text>
      {openHours.length > 0 && (
        <Flex wrap gap={4} style={{ marginTop: 6 }} data-testid="valve-open-hours">
          {openHours.map((row) => (
            <Tag key={row.channel}>
              {t('monitor.widget.openHours', { channel: row.channel, hours: row.hours.toFixed(1) })}
            </Tag>
          ))}
        </Flex>
      )}
    </PanelFrame>
  );
}

import { TELEMETRY_CALLS, type ThingProperty } from '@shuili/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DatePicker, Empty, Segmented, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../../lib/http';
import { useLabel } from '../../../resource/field-label';
import { useUnit } from '../units';
import { EChart } from './EChart';
import { deviceApi } from '../device/device-api';
import {
  AXIS_GAP,
  HISTORY_BUCKETS,
  autoBucket,
  axesOf,
  initialRange,
  seriesByKey,
  type HistoryBucket,
  type HistoryRow,
} from './history-series';

/** Series with at most this many points show each point as a dot. */
const SYMBOLS_UP_TO = 60;

export interface HistoryPanelProps {
  deviceId: string;
  properties: readonly ThingProperty[];
}

/** Raw readings are many: the chart asks for at most this many points. */
const RAW_LIMIT = 1000;
const NUMERIC = new Set(['number', 'integer', 'boolean', 'enum']);

function fetchHistory(
  deviceId: string,
  keys: string[],
  range: [Dayjs, Dayjs],
  bucket: HistoryBucket,
  signal: AbortSignal,
): Promise<HistoryRow[]> {
  const common = {
    keys: keys.join(','),
    start: range[0].toISOString(),
    end: range[1].toISOString(),
  };
  if (bucket === 'raw') {
    return http
      .get<{ list: HistoryRow[] }>(TELEMETRY_CALLS.history, {
        params: { deviceId, ...common, currentPage: 1, pageSize: RAW_LIMIT },
        signal,
      })
      .then((page) => page.list);
  }
  return http
    .get<HistoryRow[] | { list: HistoryRow[] }>(TELEMETRY_CALLS.aggregate, {
      params: { deviceIds: deviceId, ...common, bucket, fn: 'avg' },
      signal,
    })
    .then((answer) => (Array.isArray(answer) ? answer : answer.list));
}

/** The device's history: several keys over any range, raw or per period, zoomable. */
export function HistoryPanel({ deviceId, properties }: HistoryPanelProps) {
  const { t } = useTranslation();
  const unitOf = useUnit();
  const label = useLabel();
  const numeric = properties.filter((property) => NUMERIC.has(property.type));
  // Measured quantities first: a valve's open/closed state says less on a chart than its flow.
  const [keys, setKeys] = useState<string[]>(() =>
    [...numeric]
      .sort(
        (a, b) =>
          Number(a.type === 'enum' || a.type === 'boolean') -
          Number(b.type === 'enum' || b.type === 'boolean'),
      )
      .slice(0, 2)
      .map((p) => p.key),
  );
  // The device page reads the latest values already (same query key): the chart opens on the
  // day that has the newest of them, until the user picks a range.
  const latest = useQuery({
    queryKey: ['iot', 'latest', deviceId],
    queryFn: ({ signal }) => deviceApi.latest(deviceId, signal),
  });
  const [openedAt] = useState(() => Date.now());
  const [pickedRange, setRange] = useState<[Dayjs, Dayjs]>();
  const opening = useMemo((): [Dayjs, Dayjs] => {
    const times = (latest.data ?? [])
      .filter((item) => item.ts !== null && keys.includes(item.key))
      .map((item) => Date.parse(String(item.ts)))
      .filter(Number.isFinite);
    const now = Math.max(openedAt, latest.dataUpdatedAt);
    const [start, end] = initialRange(times.length ? Math.max(...times) : undefined, now);
    return [dayjs(start), dayjs(end)];
  }, [latest.data, latest.dataUpdatedAt, keys, openedAt]);
  const range = pickedRange ?? opening;
  // The bucket follows the range unless the user picks one.
  const [pickedBucket, setBucket] = useState<HistoryBucket>();
  const automatic = autoBucket(range[0].valueOf(), range[1].valueOf());
  const bucket = pickedBucket ?? automatic;

  const history = useQuery({
    queryKey: ['iot', 'history', deviceId, keys, range[0].valueOf(), range[1].valueOf(), bucket],
    queryFn: ({ signal }) => fetchHistory(deviceId, keys, range, bucket, signal),
    enabled: keys.length > 0,
    placeholderData: keepPreviousData,
  });

  const option = useMemo(() => {
    const series = seriesByKey(history.data ?? []);
    const charted = keys.map(
      (key) => numeric.find((candidate) => candidate.key === key) ?? { key, type: 'number' },
    );
    const { axes, axisOf } = axesOf(charted);
    const side = (position: 'left' | 'right') =>
      axes.filter((axis) => axis.position === position).length;
    return {
      // Series names are the tenant's thing-model labels: ECharts' own tooltip escapes them.
      // A formatter written here must return DOM nodes (textElement), never an HTML string.
      tooltip: { trigger: 'axis', className: 'chart-tooltip' },
      legend: { top: 0 },
      grid: {
        left: 56 + Math.max(0, side('left') - 1) * AXIS_GAP,
        right: side('right') > 0 ? 56 + (side('right') - 1) * AXIS_GAP : 24,
        top: 48,
        bottom: 72,
      },
      // The chosen range, whatever the data covers: a gap is visible as a gap.
      xAxis: { type: 'time', min: range[0].valueOf(), max: range[1].valueOf() },
      // One axis per unit, each line drawn against its own (history-series axesOf).
      yAxis: (axes.length > 0 ? axes : [{ unit: undefined, position: 'left', offset: 0 }]).map(
        (axis, index) => ({
          type: 'value',
          scale: true,
          name: unitOf(axis.unit),
          position: axis.position,
          offset: axis.offset,
          alignTicks: true,
          axisLine: { show: axes.length > 1 },
          // One set of grid lines: several would cross each other.
          splitLine: { show: index === 0 },
        }),
      ),
      dataZoom: [{ type: 'inside' }, { type: 'slider' }],
      series: keys.map((key) => {
        const property = numeric.find((candidate) => candidate.key === key);
        const name = property
          ? `${label(property.name)}${property.unit ? ` (${unitOf(property.unit)})` : ''}`
          : key;
        return {
          name,
          type: 'line',
          // Few readings are drawn as dots too: a lone reading is no line at all.
          showSymbol: (series.get(key)?.length ?? 0) <= SYMBOLS_UP_TO,
          yAxisIndex: axisOf.get(key) ?? 0,
          step: property?.type === 'enum' || property?.type === 'boolean' ? 'end' : undefined,
          data: series.get(key) ?? [],
        };
      }),
    };
  }, [history.data, keys, numeric, label, range, unitOf]);

  if (numeric.length === 0) return <Empty description={t('iot.history.nothingToChart')} />;

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="history-panel">
      <Space wrap>
        <Select
          mode="multiple"
          style={{ minWidth: 280 }}
          value={keys}
          onChange={setKeys}
          placeholder={t('iot.history.keys')}
          aria-label={t('iot.history.keys')}
          options={numeric.map((property) => ({
            value: property.key,
            label: label(property.name),
          }))}
        />
        <DatePicker.RangePicker
          showTime
          value={range}
          allowClear={false}
          onChange={(value) => {
            if (value?.[0] && value[1]) setRange([value[0], value[1]]);
          }}
          presets={[
            {
              label: t('iot.history.lastHour'),
              value: () => [dayjs().subtract(1, 'hour'), dayjs()],
            },
            { label: t('iot.history.lastDay'), value: () => [dayjs().subtract(1, 'day'), dayjs()] },
            {
              label: t('iot.history.lastWeek'),
              value: () => [dayjs().subtract(7, 'day'), dayjs()],
            },
            {
              label: t('iot.history.lastMonth'),
              value: () => [dayjs().subtract(30, 'day'), dayjs()],
            },
            {
              label: t('iot.history.lastYear'),
              value: () => [dayjs().subtract(1, 'year'), dayjs()],
            },
          ]}
        />
        <Segmented<HistoryBucket | 'auto'>
          value={pickedBucket ?? 'auto'}
          onChange={(value) => setBucket(value === 'auto' ? undefined : value)}
          data-testid="history-bucket"
          options={[
            {
              value: 'auto',
              label: t('iot.history.auto', { bucket: t(`iot.history.buckets.${automatic}`) }),
            },
            ...HISTORY_BUCKETS.map((value) => ({
              value,
              label: t(`iot.history.buckets.${value}`),
            })),
          ]}
        />
      </Space>
      <EChart option={option} testId="history-chart" />
    </Space>
  );
}

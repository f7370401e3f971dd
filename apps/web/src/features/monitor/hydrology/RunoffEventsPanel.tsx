import { useQuery } from '@tanstack/react-query';
import { Empty, Spin, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format';
import { EChart } from '../../iot/charts/EChart';
import { PanelFrame } from '../widgets/PanelFrame';
import type { AreaWidgetProps } from '../widgets/widget-types';
import { plotEvents, rawReadings, type RunoffEventRow } from './runoff-api';

const HOUR = 3_600_000;
const EVENTS = 20;

/**
 * A runoff plot's events (start, end, rain, volume, sediment yield, coefficient) and the
 * hydrograph of the one selected (the latest at first): its flow as a line under the rain that
 * caused it as bars hanging from the top, from some hours before the runoff to after its end.
 */
export function RunoffEventsPanel({ area, device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const events = useQuery({
    queryKey: ['monitor', 'runoffEvents', device.id, EVENTS],
    queryFn: ({ signal }) => plotEvents(device.id, EVENTS, signal),
  });
  const [chosenId, setChosenId] = useState<string>();
  const chosen = events.data?.find((event) => event.id === chosenId) ?? events.data?.[0];
  const num = (digits: number) => (value: number | null) =>
    value === null || value === undefined ? '—' : value.toFixed(digits);
  return (
    <PanelFrame title={t('monitor.hydrology.eventsTitle')} testId="widget-runoffEvents">
      <Table<RunoffEventRow>
        size="small"
        rowKey="id"
        loading={events.isPending}
        dataSource={events.data ?? []}
        pagination={false}
        scroll={{ x: 640, y: 220 }}
        rowClassName={(row) => (row.id === chosen?.id ? 'ant-table-row-selected' : '')}
        onRow={(row) => ({ onClick: () => setChosenId(row.id), style: { cursor: 'pointer' } })}
        columns={[
          {
            key: 'startAt',
            title: t('monitor.hydrology.start'),
            render: (_, row) => formatDate(row.startAt, 'MM-DD HH:mm'),
          },
          {
            key: 'endAt',
            title: t('monitor.hydrology.end'),
            render: (_, row) =>
              row.ongoing ? t('monitor.hydrology.ongoing') : formatDate(row.endAt, 'MM-DD HH:mm'),
          },
          {
            key: 'rainfall',
            title: `${t('monitor.hydrology.rain')} (mm)`,
            render: (_, row) => num(1)(row.rainfall),
          },
          {
            key: 'runoffVolume',
            title: `${t('monitor.hydrology.volume')} (m³)`,
            render: (_, row) => num(3)(row.runoffVolume),
          },
          {
            key: 'sedimentYield',
            title: `${t('monitor.hydrology.sediment')} (kg)`,
            render: (_, row) => num(2)(row.sedimentYield),
          },
          {
            key: 'runoffCoefficient',
            title: t('monitor.hydrology.coefficient'),
            render: (_, row) => num(2)(row.runoffCoefficient),
          },
        ]}
      />
      {chosen && <Hydrograph area={area.code} deviceId={device.id} event={chosen} />}
    </PanelFrame>
  );
}

function Hydrograph({
  area,
  deviceId,
  event,
}: {
  area: string;
  deviceId: string;
  event: RunoffEventRow;
}) {
  const { t } = useTranslation();
  // An ongoing event is drawn up to when it was opened (a later look opens it again).
  const [openedAt] = useState(() => Date.now());
  const until = event.endAt ? new Date(event.endAt).getTime() : openedAt;
  const start = new Date(event.startAt).getTime() - 3 * HOUR;
  const end = until + HOUR;
  const readings = useQuery({
    queryKey: ['monitor', 'hydrograph', deviceId, event.id, event.endAt],
    queryFn: ({ signal }) => rawReadings(area, deviceId, ['flow', 'rainfall'], start, end, signal),
  });
  const option = useMemo(() => {
    const series = (key: string) => {
      const one = readings.data?.series.find((item) => item.key === key);
      return one ? one.at.map((at, i) => [at, one.avg[i]]) : [];
    };
    return {
      tooltip: { trigger: 'axis', className: 'chart-tooltip' },
      legend: { top: 0 },
      grid: [
        { left: 72, right: 24, top: 30, height: '28%' },
        { left: 72, right: 24, top: '45%', bottom: 30 },
      ],
      xAxis: [
        { type: 'time', gridIndex: 0, min: start, max: end, axisLabel: { show: false } },
        { type: 'time', gridIndex: 1, min: start, max: end },
      ],
      yAxis: [
        // Units on the labels: the hanging rain axis's name would sit on the flow axis's top.
        { type: 'value', gridIndex: 0, inverse: true, axisLabel: { formatter: '{value} mm' } },
        { type: 'value', gridIndex: 1, axisLabel: { formatter: '{value} L/s' } },
      ],
      series: [
        {
          name: t('monitor.hydrology.rain'),
          type: 'bar',
          xAxisIndex: 0,
          yAxisIndex: 0,
          data: series('rainfall'),
          itemStyle: { color: '#5b8ff9' },
        },
        {
          name: t('monitor.hydrology.flow'),
          type: 'line',
          xAxisIndex: 1,
          yAxisIndex: 1,
          showSymbol: false,
          areaStyle: { opacity: 0.15 },
          data: series('flow'),
          markArea: {
            silent: true,
            itemStyle: { color: 'rgba(250, 173, 20, 0.12)' },
            data: [[{ xAxis: new Date(event.startAt).getTime() }, { xAxis: until }]],
          },
        },
      ],
    };
  }, [readings.data, start, end, until, event, t]);
  if (readings.isPending) return <Spin />;
  if (!readings.data) return <Empty />;
  return <EChart option={option} height={300} testId="runoff-hydrograph" />;
}

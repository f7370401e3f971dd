import { useQuery } from '@tanstack/react-query';
import { Col, Empty, Row, Spin, Statistic } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../iot/charts/EChart';
import { PanelFrame } from '../widgets/PanelFrame';
import type { AreaWidgetProps } from '../widgets/widget-types';
import { rawReadings } from './runoff-api';

const HOURS = 24;
const KEYS = ['waterLevel', 'ratedFlow', 'ratedSedimentDischarge'];

/**
 * A bayonet station's flow and sediment discharge, computed by the server from its stored
 * levels and samples with the rating curve valid at each reading: the latest of each, and the
 * last 24 hours of level and flow.
 */
export function BayonetFlowPanel({ area, device }: AreaWidgetProps) {
  const { t, i18n } = useTranslation();
  const [end] = useState(() => Date.now());
  const readings = useQuery({
    queryKey: ['monitor', 'bayonetFlow', device.id, end],
    queryFn: ({ signal }) =>
      rawReadings(area.code, device.id, KEYS, end - HOURS * 3_600_000, end, signal),
  });
  const seriesOf = (key: string) => readings.data?.series.find((one) => one.key === key);
  const latest = (key: string) => {
    const one = seriesOf(key);
    return one?.avg[one.avg.length - 1] ?? null;
  };
  const lang = i18n.language as 'en' | 'zh' | 'tw';
  const factor = (key: string) => readings.data?.factors.find((one) => one.key === key);
  const option = useMemo(() => {
    const points = (key: string) => {
      const one = readings.data?.series.find((item) => item.key === key);
      return one ? one.at.map((at, i) => [at, one.avg[i]]) : [];
    };
    const name = (key: string) => {
      const one = readings.data?.factors.find((item) => item.key === key);
      return one ? `${one.name[lang] ?? one.name.en} (${one.unit ?? ''})` : key;
    };
    return {
      tooltip: { trigger: 'axis', className: 'chart-tooltip' },
      legend: { top: 0 },
      grid: { left: 56, right: 56, top: 36, bottom: 30 },
      xAxis: { type: 'time' },
      yAxis: [
        { type: 'value', name: 'm', scale: true },
        { type: 'value', name: 'm³/s' },
      ],
      series: [
        { name: name('waterLevel'), type: 'line', showSymbol: false, data: points('waterLevel') },
        {
          name: name('ratedFlow'),
          type: 'line',
          yAxisIndex: 1,
          showSymbol: false,
          areaStyle: { opacity: 0.12 },
          data: points('ratedFlow'),
        },
      ],
    };
  }, [readings.data, lang]);
  const flow = latest('ratedFlow');
  const discharge = latest('ratedSedimentDischarge');
  return (
    <PanelFrame title={t('monitor.hydrology.bayonetTitle')} testId="widget-bayonetFlow">
      {readings.isPending ? (
        <Spin />
      ) : (
        <>
          <Row gutter={16} style={{ marginBottom: 8 }}>
            <Col span={12} data-testid="bayonet-rated-flow" data-value={flow?.toFixed(3)}>
              <Statistic
                title={t('monitor.hydrology.ratedFlow')}
                value={flow ?? '—'}
                precision={factor('ratedFlow')?.precision ?? 3}
                suffix={flow === null ? undefined : 'm³/s'}
              />
            </Col>
            <Col span={12}>
              <Statistic
                title={t('monitor.hydrology.sedimentDischarge')}
                value={discharge ?? '—'}
                precision={factor('ratedSedimentDischarge')?.precision ?? 3}
                suffix={discharge === null ? undefined : 'kg/s'}
              />
            </Col>
          </Row>
          {flow === null && <Empty description={t('monitor.hydrology.noCurve')} />}
          <EChart option={option} height={260} testId="bayonet-flow-chart" />
        </>
      )}
    </PanelFrame>
  );
}

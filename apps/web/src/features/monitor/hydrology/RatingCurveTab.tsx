import { ratingCurveEntity, ratingCurvePoints, type AreaDef } from '@shuili/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Card, Empty } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format';
import { ResourcePage } from '../../../resource/ResourcePage';
import { resourceApi } from '../../../resource/resource-api';
import type { ResourceRow } from '../../../resource/resource-row';
import { EChart } from '../../iot/charts/EChart';
import { AreaDeviceSelect } from '../fertigation/AreaDeviceSelect';

const api = resourceApi(ratingCurveEntity);
const idOf = (value: unknown) =>
  value && typeof value === 'object' && 'value' in value
    ? String(value.value)
    : String(value ?? '');

/**
 * Bayonet configuration: each station's rating curves Q = a·(H − H0)^b with their validity
 * periods (the server refuses overlapping ones), and a chart of the chosen station's curves
 * (the row clicked or saved last; the newest at first), one line per period.
 */
export function RatingCurveTab({ area }: { area: AreaDef }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [stationId, setStationId] = useState<string>();
  const newest = useQuery({
    queryKey: ['monitor', 'ratingCurves', 'newest'],
    queryFn: ({ signal }) => api.query({ currentPage: '1', pageSize: '1' }, signal),
  });
  const station = stationId ?? (newest.data?.list[0] ? idOf(newest.data.list[0].deviceId) : '');
  const curves = useQuery({
    queryKey: ['monitor', 'ratingCurves', station],
    enabled: !!station,
    queryFn: ({ signal }) =>
      api.query({ deviceId: station, currentPage: '1', pageSize: '50' }, signal),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['monitor', 'ratingCurves'] });
  const choose = (row: ResourceRow) => setStationId(idOf(row.deviceId));

  const option = useMemo(() => {
    const rows = curves.data?.list ?? [];
    return {
      tooltip: { trigger: 'axis', className: 'chart-tooltip' },
      legend: { top: 0, type: 'scroll' },
      grid: { left: 64, right: 24, top: 40, bottom: 40 },
      xAxis: { type: 'value', name: 'H (m)', scale: true },
      yAxis: { type: 'value', name: 'Q (m³/s)' },
      series: rows.map((row) => {
        const curve = { a: Number(row.a), h0: Number(row.h0), b: Number(row.b) };
        const period = `${formatDate(String(row.validFrom), 'YYYY-MM-DD')} ~ ${
          row.validTo ? formatDate(String(row.validTo), 'YYYY-MM-DD') : t('monitor.hydrology.open')
        }`;
        return {
          name: `${period}: Q = ${curve.a}·(H − ${curve.h0})^${curve.b}`,
          type: 'line',
          showSymbol: false,
          data: ratingCurvePoints(curve, 3),
        };
      }),
    };
  }, [curves.data, t]);
  const label = curves.data?.list[0]?.deviceIdLabel;

  return (
    <>
      <ResourcePage
        entity={ratingCurveEntity}
        fieldControls={{ deviceId: <AreaDeviceSelect area={area} /> }}
        onRowClick={choose}
        onRowsChanged={() => void refresh()}
        onSaved={(result) => {
          if (result && typeof result === 'object' && 'deviceId' in result)
            setStationId(idOf(result.deviceId));
          void refresh();
        }}
      />
      <Card
        size="small"
        style={{ marginTop: 16 }}
        title={t('monitor.hydrology.curveChart', { station: label ? String(label) : '' })}
        data-testid="rating-curve-chart"
      >
        {(curves.data?.list.length ?? 0) > 0 ? (
          <EChart option={option} height={320} testId="rating-curve-echart" />
        ) : (
          <Empty description={t('monitor.hydrology.noCurves')} />
        )}
      </Card>
    </>
  );
}

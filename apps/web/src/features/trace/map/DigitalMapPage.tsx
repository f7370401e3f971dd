import { TRACE_MAP_CALLS, type TraceMap } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Col, Empty, Flex, Row, Space, Spin, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../../lib/http';
import type { AreaScreenProps } from '../../monitor/screens/area-screen-props';
import { useAreaLive } from '../../monitor/use-area-live';
import type { AreaDevice } from '../../monitor/widgets/widget-types';
import { PLOT_STATE_COLOR, stateOf } from './plot-colors';
import { PlotPanel } from './PlotPanel';
import { TraceMapCanvas } from './TraceMapCanvas';

const NO_DEVICES: AreaDevice[] = [];

/**
 * Spec /traceabilitySystem/digitalMap: the tenant's bases, plots (polygons in their planting
 * state's colour) and the plots' devices, kept live over the tab's MQTT connection by the area
 * screens' hook; a clicked plot shows its plantings and latest readings beside the map.
 */
export function DigitalMapPage(_props: AreaScreenProps) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<string>();
  const answer = useQuery({
    queryKey: ['trace', 'map'],
    queryFn: ({ signal }) => http.get<TraceMap>(TRACE_MAP_CALLS.query, { signal }),
  });
  const devices = useAreaLive(answer.data?.devices ?? NO_DEVICES, () => void answer.refetch());
  const byId = useMemo(() => new Map(devices.map((device) => [device.id, device])), [devices]);

  if (answer.isPending) return <Spin />;
  if (answer.isError) return <Alert type="error" showIcon title={t('trace.map.loadFailed')} />;
  const { bases, plots } = answer.data;
  const located =
    bases.some((base) => base.lat !== null && base.lng !== null) ||
    plots.some((plot) => plot.ring !== null);
  if (!located) return <Empty data-testid="trace-map-empty" description={t('trace.map.empty')} />;
  const plot = plots.find((one) => one.id === selected);
  return (
    <Flex vertical gap={12} data-testid="trace-map">
      <Space size={16} wrap>
        {Object.entries(PLOT_STATE_COLOR).map(([state, color]) => (
          <Space key={state} size={4}>
            <span
              style={{
                display: 'inline-block',
                width: 12,
                height: 12,
                background: color,
                opacity: 0.7,
              }}
            />
            <Typography.Text type="secondary">
              {t(`trace.map.state.${stateOf(state)}`)}
            </Typography.Text>
          </Space>
        ))}
      </Space>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={16}>
          <TraceMapCanvas
            bases={bases}
            plots={plots}
            devices={devices}
            selectedPlotId={selected}
            onSelectPlot={setSelected}
          />
        </Col>
        <Col xs={24} lg={8}>
          <PlotPanel
            plot={plot}
            base={bases.find((base) => base.id === plot?.baseId)}
            devices={(plot?.deviceIds ?? []).flatMap((id) => byId.get(id) ?? [])}
          />
        </Col>
      </Row>
    </Flex>
  );
}

import { TRACE_SCREENS, type TraceMapBase, type TraceMapPlot } from '@shuili/contract';
import { Badge, Card, Descriptions, Empty, Flex, List, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/format';
import { formatThingValue } from '../../iot/device/thing-value';
import { useValueWords } from '../../iot/units';
import { deviceColor } from '../../monitor/widgets/widget-colors';
import type { AreaDevice } from '../../monitor/widgets/widget-types';
import { PLOT_STATE_COLOR, stateOf } from './plot-colors';

const day = (iso: string | null) => (iso ? formatDate(iso).slice(0, 10) : '—');

/** One device of the plot: its state and every latest reading with its unit. */
function DeviceReadings({ device }: { device: AreaDevice }) {
  const { t } = useTranslation();
  const words = useValueWords();
  const readings = device.thingModel.properties.flatMap((param) => {
    const text = formatThingValue(param, device.values[param.key] ?? null, words);
    return text === undefined ? [] : [{ param, text }];
  });
  const state =
    device.status !== 0
      ? 'fault'
      : device.alarmLevel
        ? 'alarm'
        : device.online
          ? 'online'
          : 'offline';
  return (
    <List.Item data-testid="trace-map-device" data-device-no={device.deviceNo} data-state={state}>
      <Flex vertical gap={4} style={{ width: '100%' }}>
        <Space>
          <Badge color={deviceColor(device)} />
          <Typography.Text strong>{device.deviceName}</Typography.Text>
          <Typography.Text type="secondary">{t(`trace.map.device.${state}`)}</Typography.Text>
        </Space>
        {readings.length === 0 ? (
          <Typography.Text type="secondary">{t('trace.map.noReadings')}</Typography.Text>
        ) : (
          <Space size={[12, 2]} wrap>
            {readings.map(({ param, text }) => (
              <span key={param.key} data-testid="trace-map-reading" data-key={param.key}>
                <Typography.Text type="secondary">{words.label(param.name)} </Typography.Text>
                {text}
              </span>
            ))}
          </Space>
        )}
      </Flex>
    </List.Item>
  );
}

/**
 * What a clicked plot holds: its base, area, soil, plantings newest first, its devices' latest
 * readings (live), and links to the screens of its records.
 */
export function PlotPanel({
  plot,
  base,
  devices,
}: {
  plot: TraceMapPlot | undefined;
  base: TraceMapBase | undefined;
  devices: readonly AreaDevice[];
}) {
  const { t } = useTranslation();
  if (!plot)
    return (
      <Card size="small" data-testid="trace-map-panel">
        <Empty description={t('trace.map.pickPlot')} />
      </Card>
    );
  return (
    <Card size="small" title={plot.areaName} data-testid="trace-map-panel" data-plot={plot.id}>
      <Flex vertical gap={12}>
        <Descriptions size="small" column={1}>
          <Descriptions.Item label={t('trace.map.base')}>
            {base ? `${base.baseName} (${base.village})` : '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('trace.map.area')}>
            {plot.areaMu === null ? '—' : t('trace.map.mu', { value: plot.areaMu })}
          </Descriptions.Item>
          <Descriptions.Item label={t('trace.map.soil')}>{plot.soil ?? '—'}</Descriptions.Item>
        </Descriptions>
        <Typography.Text strong>{t('trace.map.plantings')}</Typography.Text>
        {plot.plantings.length === 0 ? (
          <Typography.Text type="secondary">{t('trace.map.noPlantings')}</Typography.Text>
        ) : (
          <List
            size="small"
            dataSource={plot.plantings}
            renderItem={(planting) => (
              <List.Item data-testid="trace-map-planting" data-state={planting.state}>
                <Flex vertical gap={2}>
                  <Space>
                    <Typography.Text>
                      {planting.cropName} · {planting.variety}
                    </Typography.Text>
                    <Tag color={PLOT_STATE_COLOR[stateOf(planting.state)]}>
                      {t(`trace.map.state.${stateOf(planting.state)}`)}
                    </Tag>
                  </Space>
                  <Typography.Text type="secondary">
                    {t('trace.map.dates', {
                      sown: day(planting.sownAt),
                      harvest: day(planting.expectedHarvestAt),
                    })}
                  </Typography.Text>
                </Flex>
              </List.Item>
            )}
          />
        )}
        <Typography.Text strong>{t('trace.map.devices')}</Typography.Text>
        {devices.length === 0 ? (
          <Typography.Text type="secondary">{t('trace.map.noDevices')}</Typography.Text>
        ) : (
          <List
            size="small"
            dataSource={[...devices]}
            renderItem={(device) => <DeviceReadings device={device} />}
          />
        )}
        <Space wrap>
          <Link to={TRACE_SCREENS.grow}>{t('trace.map.links.grow')}</Link>
          <Link to={TRACE_SCREENS.farmwork}>{t('trace.map.links.farmwork')}</Link>
          <Link to={TRACE_SCREENS.harvest}>{t('trace.map.links.harvest')}</Link>
          <Link to={TRACE_SCREENS.area}>{t('trace.map.links.area')}</Link>
        </Space>
      </Flex>
    </Card>
  );
}

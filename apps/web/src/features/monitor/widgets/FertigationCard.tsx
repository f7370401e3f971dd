import { Flex, Progress, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { numberOf, propertyOf } from './device-values';
import { withinBand } from './recipe-targets';
import { useRecipeTargets } from './use-recipe-targets';
import { STATE_COLOR, runColor } from './widget-colors';
import { useValueText } from './use-value-text';
import type { AreaWidgetProps } from './widget-types';

/** The machine's fertilizer channels, by the key part of channel<X>Flow / tank<X>Level. */
function channelsOf(keys: readonly string[]): string[] {
  return keys.flatMap((key) => /^channel(\w+)Flow$/.exec(key)?.[1] ?? []);
}

/**
 * A fertigation machine: running or not, EC and pH against the targets of the recipe it runs
 * (green within the band, orange outside), each channel's suction flow and tank level.
 */
export function FertigationCard({ area, device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const { text, name } = useValueText(device);
  const targets = useRecipeTargets(area, device.id);
  const running = numberOf(device, 'running');
  const channels = channelsOf(device.thingModel.properties.map((property) => property.key));

  const measured = (key: 'ec' | 'ph', target: number | undefined, band: number) => {
    const ok = withinBand(numberOf(device, key), target, band);
    const precision = propertyOf(device, key)?.precision ?? 2;
    return (
      <Typography.Text data-testid={`fertigation-${key}`} data-within={ok ?? ''}>
        <Typography.Text type="secondary">{name(key)} </Typography.Text>
        <Typography.Text
          strong
          style={{
            color: ok === false ? STATE_COLOR.warning : ok ? STATE_COLOR.running : undefined,
          }}
        >
          {text(key)}
        </Typography.Text>
        {target !== undefined && (
          <Typography.Text type="secondary">
            {' '}
            {t('monitor.widget.target', {
              target: target.toFixed(precision),
              band: band.toFixed(precision),
            })}
          </Typography.Text>
        )}
      </Typography.Text>
    );
  };

  return (
    <div data-testid="widget-fertigation">
      <Flex gap={8} align="center" wrap style={{ marginBottom: 4 }}>
        <Tag
          color={runColor(running, device.online)}
          data-testid="fertigation-running"
          data-running={running === undefined ? 'unknown' : Boolean(running)}
        >
          {running === undefined
            ? t('monitor.widget.unknown')
            : running
              ? t('monitor.widget.running')
              : t('monitor.widget.stopped')}
        </Tag>
        <Typography.Text type="secondary">
          {t('monitor.widget.flow')} {text('mainFlow')}
        </Typography.Text>
      </Flex>
      <Flex vertical gap={2}>
        {measured('ec', targets.ec, targets.ecBand)}
        {measured('ph', targets.ph, targets.phBand)}
      </Flex>
      <Flex vertical gap={2} style={{ marginTop: 6 }}>
        {channels.map((channel) => {
          const tank = numberOf(device, `tank${channel}Level`);
          return (
            <Flex key={channel} gap={8} align="center" data-testid="fertigation-channel">
              <Typography.Text style={{ width: 96, fontSize: 12 }} ellipsis>
                {name(`channel${channel}Flow`)}
              </Typography.Text>
              <Typography.Text style={{ width: 72, fontSize: 12 }}>
                {text(`channel${channel}Flow`)}
              </Typography.Text>
              <Progress
                percent={tank ?? 0}
                size="small"
                style={{ flex: 1, margin: 0 }}
                format={() => text(`tank${channel}Level`)}
                aria-label={name(`tank${channel}Level`)}
              />
            </Flex>
          );
        })}
      </Flex>
    </div>
  );
}

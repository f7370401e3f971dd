import { Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ALARM_COLOR, STATE_COLOR } from '../widgets/widget-colors';
import { useValueText } from '../widgets/use-value-text';
import type { AreaWidgetProps } from '../widgets/widget-types';
import { useFloodStatus } from './flood-api';

const LEVEL_STATE_COLOR = {
  normal: STATE_COLOR.running,
  warning: ALARM_COLOR.orange!,
  guarantee: ALARM_COLOR.red!,
  unknown: STATE_COLOR.unknown,
} as const;

/**
 * A flood station at a glance, under the card's own 1 h, 3 h and 24 h rain and water level (the
 * area's key factors): the rainstorm level its rolling rain reaches now, in the level's colour
 * with the window that reached it, and the water level coloured against the station's warning
 * and guarantee levels.
 */
export function FloodStationCard({ device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const { text, name } = useValueText(device);
  const status = useFloodStatus(device.id).data;
  const warning = status?.warning;
  const levelState = status?.levelState ?? 'unknown';
  return (
    <Flex
      vertical
      gap={4}
      style={{ marginBottom: 8 }}
      data-testid="widget-floodStation"
      data-level={warning?.level ?? 'none'}
    >
      {warning ? (
        <Tag color={ALARM_COLOR[warning.level]} style={{ marginInlineEnd: 0 }}>
          {t('monitor.flood.warningIn', {
            level: t(`monitor.flood.level.${warning.level}`),
            hours: warning.window,
            mm: warning.value,
            threshold: warning.threshold,
          })}
        </Tag>
      ) : (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {status ? t('monitor.flood.noWarning') : '\u00a0'}
        </Typography.Text>
      )}
      <span style={{ fontSize: 13 }} data-testid="flood-waterLevel" data-state={levelState}>
        <Typography.Text type="secondary">{name('waterLevel')} </Typography.Text>
        <span style={{ color: LEVEL_STATE_COLOR[levelState] }}>{text('waterLevel')}</span>
        {status && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {' '}
            {t('monitor.flood.levelLines', {
              warning: status.warningLevel,
              guarantee: status.guaranteeLevel,
            })}
          </Typography.Text>
        )}
      </span>
    </Flex>
  );
}

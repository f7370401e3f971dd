import type { AreaDeviceCounts } from '@shuili/contract';
import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { ALARM_COLOR, STATE_COLOR } from '../widgets/widget-colors';

/**
 * The filtered devices by state: all, online, offline, in fault and with alarms (the last only
 * for a reader who may see alarms). Counts of the whole filtered set, not of one page.
 */
export function AreaSummary({ total, counts }: { total: number; counts: AreaDeviceCounts }) {
  const { t } = useTranslation();
  const items = [
    { key: 'total', title: t('monitor.summary.total'), value: total, color: undefined },
    {
      key: 'online',
      title: t('monitor.summary.online'),
      value: counts.online,
      color: STATE_COLOR.running,
    },
    {
      key: 'offline',
      title: t('monitor.summary.offline'),
      value: counts.offline,
      color: STATE_COLOR.stopped,
    },
    {
      key: 'fault',
      title: t('monitor.summary.fault'),
      value: counts.fault,
      color: STATE_COLOR.fault,
    },
    ...(counts.alarm === undefined
      ? []
      : [
          {
            key: 'alarm',
            title: t('monitor.summary.alarm'),
            value: counts.alarm,
            color: ALARM_COLOR.orange,
          },
        ]),
  ];
  return (
    <Row gutter={[12, 12]} data-testid="area-summary">
      {items.map((item) => (
        <Col key={item.key} xs={12} sm={8} lg={4}>
          <Card size="small" data-testid={`area-count-${item.key}`} data-count={item.value}>
            <Statistic
              title={item.title}
              value={item.value}
              styles={{ content: { color: item.color } }}
            />
          </Card>
        </Col>
      ))}
    </Row>
  );
}

import {
  AREAS,
  CROSS_AREA_SCREENS,
  type AlarmLevel,
  type WorkbenchOverview,
} from '@shuili/contract';
import { Card, Col, Row, Space, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocaleStore } from '../../../i18n/i18n';
import { useLabel } from '../../../resource/field-label';
import { ALARM_COLOR, STATE_COLOR } from '../../monitor/widgets/widget-colors';
import { formatAmount } from './overview-format';
import styles from './WorkbenchOverview.module.css';

function Figure(props: {
  title: ReactNode;
  testId: string;
  value: number;
  unit?: string;
  children?: ReactNode;
}) {
  const lang = useLocaleStore((state) => state.lang);
  return (
    <Card size="small" title={props.title} data-testid={props.testId} data-value={props.value}>
      <div className={styles.figure}>
        {formatAmount(props.value, lang)}
        {props.unit && <span className={styles.unit}>{props.unit}</span>}
      </div>
      {props.children}
    </Card>
  );
}

/**
 * The figures an operator reads first: water delivered today (this month below), alarms that
 * hold by level, operations sent today, and every area's devices online, offline and in fault.
 * Sections the reader's role may not read are absent from the overview and left out here.
 */
export function OverviewFigures({ overview }: { overview: WorkbenchOverview }) {
  const { t } = useTranslation();
  const label = useLabel();
  const lang = useLocaleStore((state) => state.lang);
  const { water, alarms, commands } = overview;
  const devices = overview.areas.reduce(
    (sum, area) => ({
      total: sum.total + area.total,
      online: sum.online + area.online,
      fault: sum.fault + area.fault,
    }),
    { total: 0, online: 0, fault: 0 },
  );
  const warnings = CROSS_AREA_SCREENS.warnings;
  const areaName = (code: string) => {
    const area = AREAS.find((one) => one.code === code);
    return area ? label(area.title) : code;
  };
  return (
    <Row gutter={[12, 12]}>
      {water && (
        <Col xs={24} sm={12} xl={6}>
          <Figure
            title={t('home.overview.waterToday')}
            testId="workbench-water-today"
            value={water.today}
            unit="m³"
          >
            <div className={styles.lines}>
              <Typography.Text
                type="secondary"
                data-testid="workbench-water-month"
                data-value={water.month}
              >
                {t('home.overview.waterMonth', { amount: `${formatAmount(water.month, lang)} m³` })}
              </Typography.Text>
              {water.areas.map((area) => (
                <Typography.Text key={area.area} type="secondary" className={styles.countLabel}>
                  {areaName(area.area)}: {formatAmount(area.today, lang)} m³
                </Typography.Text>
              ))}
            </div>
          </Figure>
        </Col>
      )}
      {alarms && (
        <Col xs={24} sm={12} xl={6}>
          <Figure
            title={
              warnings ? (
                <Link to={warnings}>{t('home.overview.alarms')}</Link>
              ) : (
                t('home.overview.alarms')
              )
            }
            testId="workbench-alarms-open"
            value={alarms.open}
          >
            <Space size={[4, 4]} wrap>
              {/* Highest first: the server lists every level, lowest first. */}
              {Object.entries(alarms.levels)
                .reverse()
                .map(([level, count]) => (
                  <span
                    key={level}
                    data-testid={`workbench-alarm-level-${level}`}
                    data-count={count}
                  >
                    <Tag color={ALARM_COLOR[level]}>
                      {t(`home.overview.levels.${level as AlarmLevel}`)}
                    </Tag>
                    {count}
                  </span>
                ))}
            </Space>
            <div>
              <Typography.Text type="secondary" className={styles.countLabel}>
                {t('home.overview.unacknowledged', { count: alarms.unacknowledged })}
              </Typography.Text>
            </div>
          </Figure>
        </Col>
      )}
      {commands && (
        <Col xs={24} sm={12} xl={6}>
          <Figure
            title={t('home.overview.operationsToday')}
            testId="workbench-commands-today"
            value={commands.today}
          >
            <Typography.Text
              type={commands.failedToday ? 'danger' : 'secondary'}
              data-testid="workbench-commands-failed"
              data-count={commands.failedToday}
            >
              {t('home.overview.failedToday', { count: commands.failedToday })}
            </Typography.Text>
          </Figure>
        </Col>
      )}
      <Col xs={24} sm={12} xl={6}>
        <Figure
          title={t('home.overview.devices')}
          testId="workbench-devices-online"
          value={devices.online}
          unit={`/ ${devices.total}`}
        >
          <Space size={12}>
            <Typography.Text style={{ color: STATE_COLOR.running }}>
              {t('home.overview.online')}
            </Typography.Text>
            <Typography.Text type="secondary">
              {t('home.overview.offlineCount', { count: devices.total - devices.online })}
            </Typography.Text>
            <Typography.Text type={devices.fault ? 'danger' : 'secondary'}>
              {t('home.overview.faultCount', { count: devices.fault })}
            </Typography.Text>
          </Space>
        </Figure>
      </Col>
    </Row>
  );
}

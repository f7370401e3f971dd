import { AREAS, areaScreenPath, type WorkbenchAreaCounts } from '@shuili/contract';
import { Card, Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLabel } from '../../../resource/field-label';
import { ALARM_COLOR, STATE_COLOR } from '../../monitor/widgets/widget-colors';
import styles from './WorkbenchOverview.module.css';

/** One state's number in an area's card, in the state's colour. */
function Count(props: { label: string; value: number; color?: string; testId: string }) {
  return (
    <div className={styles.countBox} data-testid={props.testId} data-count={props.value}>
      <span className={styles.count} style={{ color: props.color }}>
        {props.value}
      </span>
      <Typography.Text type="secondary" className={styles.countLabel}>
        {props.label}
      </Typography.Text>
    </div>
  );
}

/**
 * Each area's devices by state (online, offline, in fault, with an open alarm), with a bar of
 * online against offline; the area's title opens its device list.
 */
export function AreaStateCards({ areas }: { areas: readonly WorkbenchAreaCounts[] }) {
  const { t } = useTranslation();
  const label = useLabel();
  return (
    <Row gutter={[12, 12]}>
      {areas.map((counts) => {
        const area = AREAS.find((one) => one.code === counts.area);
        if (!area) return null;
        const list = areaScreenPath(area, 'deviceList');
        const title = label(area.title);
        const online = counts.total ? (counts.online / counts.total) * 100 : 0;
        return (
          <Col key={area.code} xs={24} sm={12} xl={8}>
            <Card
              size="small"
              data-testid={`workbench-area-${area.code}`}
              data-total={counts.total}
              title={list ? <Link to={list}>{title}</Link> : title}
              extra={
                <Typography.Text type="secondary">
                  {t('home.overview.total', { count: counts.total })}
                </Typography.Text>
              }
            >
              <div className={styles.counts}>
                <Count
                  label={t('home.overview.online')}
                  value={counts.online}
                  color={STATE_COLOR.running}
                  testId="workbench-area-online"
                />
                <Count
                  label={t('home.overview.offline')}
                  value={counts.offline}
                  color={STATE_COLOR.stopped}
                  testId="workbench-area-offline"
                />
                <Count
                  label={t('home.overview.fault')}
                  value={counts.fault}
                  color={counts.fault ? STATE_COLOR.fault : undefined}
                  testId="workbench-area-fault"
                />
                {counts.alarm !== undefined && (
                  <Count
                    label={t('home.overview.alarmed')}
                    value={counts.alarm}
                    color={counts.alarm ? ALARM_COLOR.orange : undefined}
                    testId="workbench-area-alarm"
                  />
                )}
              </div>
              <div className={styles.bar} aria-hidden>
                <div
                  style={{ width: `${online}%`, background: STATE_COLOR.running }}
                  className={styles.barPart}
                />
              </div>
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}

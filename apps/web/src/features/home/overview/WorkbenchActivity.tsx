import type { WorkbenchOverview } from '@shuili/contract';
import { Col, Row } from 'antd';
import { OverviewMap } from './OverviewMap';
import { RecentAlarms } from './RecentAlarms';
import { RecentCommands } from './RecentCommands';

/**
 * The lower half of the overview, downloaded when the reader scrolls to it: the devices on the
 * map in their states' colours, and the newest alarms and operation records.
 */
export function WorkbenchActivity({ overview }: { overview: WorkbenchOverview }) {
  return (
    <Row gutter={[12, 12]}>
      <Col xs={24} xl={14}>
        <OverviewMap devices={overview.map} />
      </Col>
      <Col xs={24} xl={10}>
        <Row gutter={[12, 12]}>
          {overview.alarms && (
            <Col span={24}>
              <RecentAlarms alarms={overview.alarms.recent} />
            </Col>
          )}
          {overview.commands && (
            <Col span={24}>
              <RecentCommands commands={overview.commands.recent} />
            </Col>
          )}
        </Row>
      </Col>
    </Row>
  );
}

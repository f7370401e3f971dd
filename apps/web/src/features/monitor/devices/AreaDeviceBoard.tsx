import { iotDevicePageRoute, type AreaDef } from '@shuili/contract';
import { Card, Col, Empty, Row, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AreaWidget } from '../widgets/widget-registry';
import type { AreaDevice } from '../widgets/widget-types';
import { AreaDeviceGrid } from './AreaDeviceGrid';

export interface AreaDeviceBoardProps {
  area: AreaDef;
  devices: readonly AreaDevice[];
  /** Drawn under the cards (the pagination). */
  footer?: ReactNode;
}

/**
 * The area's devices as cards; a card selected opens the area's panels (its own widgets: the
 * irrigation plan, a pump's trend, EC/pH against the recipe ...) beside the cards, with a link
 * to the device's page. The monitor and the device list's cards view are this one board, so
 * every area's panels are on a screen whether or not the area has a monitor route.
 */
export function AreaDeviceBoard({ area, devices, footer }: AreaDeviceBoardProps) {
  const { t } = useTranslation();
  const [selectedId, setSelectedId] = useState<string | undefined>();
  // The selection follows the live device; it ends when the device leaves the page.
  const selected = devices.find((device) => device.id === selectedId);
  return (
    <>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={selected ? 14 : 24}>
          <AreaDeviceGrid
            area={area}
            devices={devices}
            selectedId={selected?.id}
            onSelect={(device) =>
              setSelectedId((current) => (current === device.id ? undefined : device.id))
            }
            narrow={!!selected}
          />
          {footer}
        </Col>
        {selected && (
          <Col xs={24} xl={10}>
            <Card
              size="small"
              title={selected.deviceName}
              extra={
                <Link to={iotDevicePageRoute(selected.id)} data-testid="area-panel-device">
                  {t('monitor.devices.openDevice')}
                </Link>
              }
              data-testid="area-panels"
              data-device-no={selected.deviceNo}
            >
              {area.widgets.panel.length === 0 ? (
                <Empty />
              ) : (
                area.widgets.panel.map((name) => (
                  <AreaWidget key={name} name={name} area={area} device={selected} />
                ))
              )}
            </Card>
          </Col>
        )}
      </Row>
      {!selected && devices.length > 0 && (
        <Typography.Text type="secondary" style={{ display: 'block', marginTop: 12 }}>
          {t('monitor.devices.selectHint')}
        </Typography.Text>
      )}
    </>
  );
}

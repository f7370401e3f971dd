import type { AreaDef } from '@shuili/contract';
import { Col, Empty, Row } from 'antd';
import type { AreaDevice } from '../widgets/widget-types';
import { AreaDeviceCard } from './AreaDeviceCard';

export interface AreaDeviceGridProps {
  area: AreaDef;
  devices: readonly AreaDevice[];
  selectedId?: string;
  onSelect?: (device: AreaDevice) => void;
  /** Narrower columns when a panel stands beside the grid. */
  narrow?: boolean;
}

/** The devices as a grid of cards (the monitor, the device list's cards view). */
export function AreaDeviceGrid({
  area,
  devices,
  selectedId,
  onSelect,
  narrow,
}: AreaDeviceGridProps) {
  if (devices.length === 0) return <Empty />;
  const span = narrow ? { xs: 24, md: 12, xxl: 8 } : { xs: 24, sm: 12, lg: 8, xxl: 6 };
  return (
    <Row gutter={[12, 12]} data-testid="area-device-grid">
      {devices.map((device) => (
        <Col key={device.id} {...span}>
          <AreaDeviceCard
            area={area}
            device={device}
            selected={device.id === selectedId}
            onSelect={onSelect}
          />
        </Col>
      ))}
    </Row>
  );
}

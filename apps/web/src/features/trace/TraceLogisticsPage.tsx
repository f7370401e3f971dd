import { traceShipmentEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';
import type { AreaScreenProps } from '../monitor/screens/area-screen-props';
import { TemperatureInput } from './TemperatureInput';

/**
 * Spec /traceabilitySystem/logistics: shipments of package batches (never more packages than
 * packed), with the temperatures recorded on the way (lowest and highest listed).
 */
export function TraceLogisticsPage(_props: AreaScreenProps) {
  return (
    <ResourcePage
      entity={traceShipmentEntity}
      fieldControls={{ temperatures: <TemperatureInput /> }}
    />
  );
}

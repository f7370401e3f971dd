import { tracePackageEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';
import type { AreaScreenProps } from '../monitor/screens/area-screen-props';

/** Spec /traceabilitySystem/package: package batches with their trace codes, shipments and scans, and recalls (a batch made of a recalled one shows as recalled). */
export function TracePackagePage(_props: AreaScreenProps) {
  return <ResourcePage entity={tracePackageEntity} />;
}

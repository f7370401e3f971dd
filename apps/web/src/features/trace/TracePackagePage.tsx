import { tracePackageEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';
import type { AreaScreenProps } from '../monitor/screens/area-screen-props';
import { resumeRowAction } from './resume/resume-row-link';

/** Each row opens its batch's resume (the chain forwards and backwards). */
const RESUME_LINK = resumeRowAction('package');

/** Spec /traceabilitySystem/package: package batches with their trace codes, shipments and scans, and recalls (a batch made of a recalled one shows as recalled). */
export function TracePackagePage(_props: AreaScreenProps) {
  return <ResourcePage entity={tracePackageEntity} rowActions={RESUME_LINK} />;
}

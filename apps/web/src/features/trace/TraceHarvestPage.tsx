import { traceHarvestEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';
import type { AreaScreenProps } from '../monitor/screens/area-screen-props';
import { resumeRowAction } from './resume/resume-row-link';

/** Each row opens its batch's resume (the chain forwards and backwards). */
const RESUME_LINK = resumeRowAction('harvest');

/** Spec /traceabilitySystem/harvest: harvest batches (refused before the pre-harvest interval of the plot's last spraying has passed), what processing and packing took of each, and recalls. */
export function TraceHarvestPage(_props: AreaScreenProps) {
  return <ResourcePage entity={traceHarvestEntity} rowActions={RESUME_LINK} />;
}

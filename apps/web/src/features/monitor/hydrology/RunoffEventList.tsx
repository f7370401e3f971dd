import { runoffEventEntity } from '@shuili/contract';
import { ResourcePage } from '../../../resource/ResourcePage';

/**
 * Under the surface-runoff data report: every plot's events with their rainfall, volume,
 * sediment yield, depth and coefficient, searched by plot and time and exported like any list.
 */
export function RunoffEventList() {
  return <ResourcePage entity={runoffEventEntity} />;
}

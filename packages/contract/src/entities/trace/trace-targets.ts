import type { LinkTarget, RefTarget } from '../../entity-kit';
import { DEVICE_TARGET } from '../iot/targets';

/**
 * The traceability area's API prefix and screens (spec §2 group /traceabilitySystem,
 * docs/traceability.md). Each entity's generic calls live under `${TRACE_PATH}/<entity>/`; the
 * chain's own calls (resume, recall) under `${TRACE_PATH}/chain/`, the public page's under
 * `${TRACE_PATH}/public/`.
 */
export const TRACE_PATH = '/api/trace';

export const TRACE_GROUP = '/traceabilitySystem';

export const TRACE_SCREENS = {
  traceHomeMode: `${TRACE_GROUP}/traceHomeMode`,
  digitalMap: `${TRACE_GROUP}/digitalMap`,
  base: `${TRACE_GROUP}/base`,
  area: `${TRACE_GROUP}/area`,
  plant: `${TRACE_GROUP}/plant`,
  grow: `${TRACE_GROUP}/grow`,
  farmwork: `${TRACE_GROUP}/farmwork`,
  harvest: `${TRACE_GROUP}/harvest`,
  process: `${TRACE_GROUP}/process`,
  package: `${TRACE_GROUP}/package`,
  logistics: `${TRACE_GROUP}/logistics`,
  resume: `${TRACE_GROUP}/resume`,
} as const;

/** What trace fields refer to; apart from the entities so they never import each other. */
export const TRACE_PRODUCER_TARGET: RefTarget = {
  table: 'trace_producer',
  labelColumn: 'producer_name',
  labelField: 'producerName',
  queryCall: `${TRACE_PATH}/producer/queryTraceProducer`,
  codeField: 'producerCode',
};

export const TRACE_BASE_TARGET: RefTarget = {
  table: 'trace_base',
  labelColumn: 'base_name',
  labelField: 'baseName',
  queryCall: `${TRACE_PATH}/base/queryTraceBase`,
};

export const TRACE_AREA_TARGET: RefTarget = {
  table: 'trace_area',
  labelColumn: 'area_name',
  labelField: 'areaName',
  queryCall: `${TRACE_PATH}/area/queryTraceArea`,
};

export const TRACE_PLANT_TARGET: RefTarget = {
  table: 'trace_plant',
  labelColumn: 'variety',
  labelField: 'variety',
  queryCall: `${TRACE_PATH}/plant/queryTracePlant`,
  codeField: 'cropName',
};

export const TRACE_PLANTING_TARGET: RefTarget = {
  table: 'trace_planting',
  labelColumn: 'planting_code',
  labelField: 'plantingCode',
  queryCall: `${TRACE_PATH}/planting/queryTracePlanting`,
};

export const TRACE_HARVEST_TARGET: RefTarget = {
  table: 'trace_harvest',
  labelColumn: 'batch_no',
  labelField: 'batchNo',
  queryCall: `${TRACE_PATH}/harvest/queryTraceHarvest`,
};

export const TRACE_PROCESS_TARGET: RefTarget = {
  table: 'trace_process',
  labelColumn: 'process_no',
  labelField: 'processNo',
  queryCall: `${TRACE_PATH}/process/queryTraceProcess`,
};

export const TRACE_PACKAGE_TARGET: RefTarget = {
  table: 'trace_package',
  labelColumn: 'trace_code',
  labelField: 'traceCode',
  queryCall: `${TRACE_PATH}/package/queryTracePackage`,
};

/** The IoT devices that serve a plot (link table trace_area_device). */
export const TRACE_AREA_DEVICES: LinkTarget = {
  ...DEVICE_TARGET,
  linkTable: 'trace_area_device',
  fromColumn: 'area_id',
  toColumn: 'device_id',
};

import {
  entityButtons,
  entityCalls,
  traceAreaEntity,
  traceBaseEntity,
  traceFarmworkEntity,
  traceGrowthRecordEntity,
  traceHarvestEntity,
  tracePackageEntity,
  tracePlantEntity,
  tracePlantingEntity,
  traceProcessEntity,
  traceProcessInputEntity,
  traceProducerEntity,
  traceShipmentEntity,
  TRACE_PHOTO_CALLS,
  TRACE_CHAIN_CALLS,
  TRACE_MAP_CALLS,
} from '@shuili/contract';

/** The entities of the traceability screens, each on the screen its declaration names. */
const TRACE_ENTITIES = [
  traceProducerEntity,
  traceBaseEntity,
  traceAreaEntity,
  tracePlantEntity,
  tracePlantingEntity,
  traceGrowthRecordEntity,
  traceFarmworkEntity,
  traceHarvestEntity,
  traceProcessEntity,
  traceProcessInputEntity,
  tracePackageEntity,
  traceShipmentEntity,
];

/**
 * The traceability calls the default operator role starts with (DEFAULT_ROLE_GRANTS): it reads
 * and exports every screen (the operator pages of areas/traceability.ts) and changes nothing;
 * recording farm work, harvests or recalls is given by an administrator.
 */
export const TRACE_OPERATOR_CALLS: readonly string[] = [
  ...TRACE_ENTITIES.flatMap((entity) => {
    const calls = entityCalls(entity);
    return [calls.query, calls.exportXlsx, calls.exportPdf];
  }),
  // The bases' and growth records' photos, seen (adding or deleting them is an administrator's).
  // The public page's settings (TRACE_PAGE_SETTING_CALLS) are not an operator's: its menu is
  // an administrator's only.
  TRACE_PHOTO_CALLS.baseList,
  TRACE_PHOTO_CALLS.growthList,
  TRACE_PHOTO_CALLS.download,
  // The resume (an operator page): a batch's chain, its EPCIS export, labels and certificate.
  TRACE_CHAIN_CALLS.query,
  TRACE_CHAIN_CALLS.batches,
  TRACE_CHAIN_CALLS.epcis,
  TRACE_CHAIN_CALLS.labels,
  TRACE_CHAIN_CALLS.certificate,
  // The digital map (an operator page); its devices' live values follow the telemetry grants.
  TRACE_MAP_CALLS.query,
];

/** The export buttons of the operator's traceability screens. */
export const TRACE_OPERATOR_BUTTONS: readonly string[] = [
  ...new Set(TRACE_ENTITIES.map((entity) => entityButtons(entity).export)),
];

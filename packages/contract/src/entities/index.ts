import type { EntityDef } from '../entity-kit';
import { appClientEntity } from './admin/app-client.entity';
import { loginLogEntity, operationLogEntity } from './admin/audit-log.entity';
import { dataPermissionEntity } from './admin/data-permission.entity';
import { notificationEntity } from './admin/notification.entity';
import { sysDictEntity } from './admin/sys-dict.entity';
import { sysMenuButtonEntity, sysMenuEntity } from './admin/sys-menu.entity';
import { sysOrgEntity } from './admin/sys-org.entity';
import { sysParamEntity } from './admin/sys-param.entity';
import { sysPostEntity, sysUserPostEntity } from './admin/sys-post.entity';
import { sysRegionEntity } from './admin/sys-region.entity';
import { sysRoleEntity } from './admin/sys-role.entity';
import { sysTenantEntity } from './admin/sys-tenant.entity';
import { sysUrlEntity } from './admin/sys-url.entity';
import { sysUserEntity } from './admin/sys-user.entity';
import { sysZoneEntity } from './admin/sys-zone.entity';
import {
  controllerInstanceEntity,
  controllerTemplateEntity,
  iotDeviceEntity,
  iotDeviceFileEntity,
  iotFactorEntity,
  iotProductEntity,
  iotProjectEntity,
  sensorInstanceEntity,
  sensorTemplateEntity,
} from './iot';
import { alarmRecordEntity } from './iot/alarm-record.entity';
import { alarmRuleEntity } from './iot/alarm-rule.entity';
import { iotCommandEntity } from './iot/iot-command.entity';
import {
  fertigationProgramEntity,
  fertilizerRecipeEntity,
  insectPhotoLabelEntity,
  insectSpeciesEntity,
  ledProgramEntity,
  ratingCurveEntity,
  rotationScheduleEntity,
  runoffEventEntity,
  soilMoistureRuleEntity,
  valveGroupEntity,
} from './monitor';
import { cameraEntity } from './video';
import { rechargeRecordEntity } from './billing/recharge-record.entity';
import { billingTxnEntity } from './billing/billing-txn.entity';
import { consumptionSessionEntity } from './billing/consumption-session.entity';
import { controllerRecordEntity } from './billing/controller-record.entity';
import {
  cardEntity,
  householdEntity,
  priceClassEntity,
  priceTierEntity,
  waterCoefficientEntity,
  waterRightEntity,
  wellBillingEntity,
} from './billing';
import {
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
} from './trace';
import {
  jobInfoEntity,
  jobInstanceEntity,
  workflowInfoEntity,
  workflowInstanceEntity,
  workflowNodeInstanceEntity,
} from './jobs';

export * from './admin/app-client.entity';
export * from './admin/default-dicts';
export * from './admin/audit-log.entity';
export * from './admin/data-permission.entity';
export * from './admin/notification.entity';
export * from './admin/sys-dict.entity';
export * from './admin/sys-menu.entity';
export * from './admin/sys-org.entity';
export * from './admin/sys-param.entity';
export * from './admin/sys-post.entity';
export * from './admin/sys-region.entity';
export * from './admin/sys-role.entity';
export * from './admin/sys-tenant.entity';
export * from './admin/sys-url.entity';
export * from './admin/sys-user.entity';
export * from './admin/sys-zone.entity';
export * from './iot';
export * from './iot/iot-command.entity';
export * from './iot/alarm-rule.entity';
export * from './iot/alarm-record.entity';
export * from './monitor';
export * from './video';
export * from './billing/recharge-record.entity';
export * from './billing/billing-txn.entity';
export * from './billing/consumption-session.entity';
export * from './billing/controller-record.entity';
export * from './billing';
export * from './trace';
export * from './jobs';

/** Every declared entity, in the order their tables are created (referenced ones first). */
export const ENTITIES: readonly EntityDef[] = [
  sysTenantEntity,
  sysOrgEntity,
  sysRoleEntity,
  sysUserEntity,
  sysMenuEntity,
  sysMenuButtonEntity,
  sysPostEntity,
  sysUserPostEntity,
  sysUrlEntity,
  dataPermissionEntity,
  sysDictEntity,
  sysRegionEntity,
  sysParamEntity,
  appClientEntity,
  sysZoneEntity,
  notificationEntity,
  operationLogEntity,
  loginLogEntity,
  iotProjectEntity,
  iotProductEntity,
  iotFactorEntity,
  sensorTemplateEntity,
  controllerTemplateEntity,
  iotDeviceEntity,
  sensorInstanceEntity,
  controllerInstanceEntity,
  iotDeviceFileEntity,
  iotCommandEntity,
  alarmRuleEntity,
  alarmRecordEntity,
  valveGroupEntity,
  rotationScheduleEntity,
  soilMoistureRuleEntity,
  // A program may name the valve group it waters.
  fertilizerRecipeEntity,
  fertigationProgramEntity,
  insectSpeciesEntity,
  insectPhotoLabelEntity,
  cameraEntity,
  ratingCurveEntity,
  runoffEventEntity,
  ledProgramEntity,
  // The billing ledger's transactions (table made by migration 019), read only.
  billingTxnEntity,
  // Card-swipe billing: a household names its price class, a card its household.
  priceClassEntity,
  priceTierEntity,
  householdEntity,
  cardEntity,
  wellBillingEntity,
  waterCoefficientEntity,
  waterRightEntity,
  // Recharges and their reversals: the ledger's transactions again (migration 019), read only.
  rechargeRecordEntity,
  // The card controllers' sessions and their uploaded records (migration 022), read only.
  consumptionSessionEntity,
  controllerRecordEntity,
  // Farm traceability (tables made by migration 025 with their checks and the functions the
  // computed fields call), from producer to shipment.
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
  // The job scheduler (tables made by migration 027 with the instances' uniqueness that makes a
  // trigger fire once), jobs before their instances, workflows before theirs.
  jobInfoEntity,
  workflowInfoEntity,
  workflowInstanceEntity,
  jobInstanceEntity,
  workflowNodeInstanceEntity,
];

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
  rotationScheduleEntity,
  soilMoistureRuleEntity,
  valveGroupEntity,
} from './monitor';

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
];

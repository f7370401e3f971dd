import {
  appClientEntity,
  dataPermissionEntity,
  ENTITIES,
  iotProjectEntity,
  notificationEntity,
  sysMenuButtonEntity,
  sysRoleEntity,
  sysTenantEntity,
  sysUrlEntity,
  sysUserEntity,
  sysZoneEntity,
  type EntityDef,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { EntityHooks } from '../../entity/entity-hooks';
import { mountEntity, type EntityRouteDeps } from '../../entity/entity-routes';
import type { UrlGrantService } from '../authority/url-grant.service';
import { appClientHooks } from './app-client.hooks';
import {
  dataPermissionHooks,
  grantCacheHooks,
  notificationHooks,
  roleHooks,
} from './authority.hooks';
import { tenantHooks } from './tenant.hooks';
import { userHooks } from './user.hooks';
import { projectHooks, zoneHooks } from './scope-confinement';

/** Mounts the generic calls of every declared entity, each with its own rules. */
export async function adminEntityRoutes(
  app: FastifyInstance,
  deps: EntityRouteDeps & {
    grants: UrlGrantService;
    /** Hooks of entities outside admin (the IoT model's). */
    moreHooks?: ReadonlyMap<EntityDef, EntityHooks>;
  },
) {
  const hooks = new Map<EntityDef, EntityHooks>([
    [sysUserEntity, userHooks],
    [sysZoneEntity, zoneHooks],
    [iotProjectEntity, projectHooks],
    [sysRoleEntity, roleHooks(deps.grants)],
    [sysUrlEntity, grantCacheHooks(deps.grants)],
    [sysMenuButtonEntity, grantCacheHooks(deps.grants)],
    [sysTenantEntity, tenantHooks(deps.grants)],
    [appClientEntity, appClientHooks],
    [dataPermissionEntity, dataPermissionHooks],
    [notificationEntity, notificationHooks],
    ...(deps.moreHooks ?? []),
  ]);
  for (const entity of ENTITIES) mountEntity(app, entity, deps, hooks.get(entity));
}

import { cameraEntity, type EntityDef } from '@shuili/contract';
import type { EntityContext, EntityHooks } from '../../entity/entity-hooks';
import type { Row } from '../../entity/entity-repo';
import { AppError } from '../../http/app-error';
import { cameraRepo } from './camera.repo';

/** A camera's device must be a camera the caller may see: its images receive the snapshots. */
async function checkDevice(ctx: EntityContext, values: Row): Promise<void> {
  const deviceId = values.deviceId;
  if (deviceId === undefined || deviceId === null || deviceId === '') return;
  const kind = await cameraRepo.deviceKind(ctx.sql, String(deviceId));
  if (kind === 'camera') return;
  const key = kind === undefined ? 'validation.refMissing' : 'validation.cameraDevice';
  throw new AppError(400, key, { fields: [{ field: 'deviceId', key }] });
}

const cameraHooks: EntityHooks = {
  beforeCreate: (ctx, values) => checkDevice(ctx, values),
  beforeUpdate: (ctx, _id, values) => checkDevice(ctx, values),
};

/** The video area's entity hooks, for the generic entity routes (app.ts). */
export const VIDEO_ENTITY_HOOKS: ReadonlyArray<[EntityDef, EntityHooks]> = [
  [cameraEntity, cameraHooks],
];

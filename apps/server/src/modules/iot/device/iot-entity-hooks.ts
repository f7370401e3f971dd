import {
  controllerTemplateEntity,
  iotDeviceEntity,
  iotFactorEntity,
  iotProductEntity,
  sensorTemplateEntity,
  type EntityDef,
} from '@shuili/contract';
import { AppError } from '../../../http/app-error';
import type { EntityContext, EntityHooks } from '../../../entity/entity-hooks';
import type { Row } from '../../../entity/entity-repo';
import type { FileStorage } from '../../files/file-storage';
import type { DeviceChanges } from './device-changes';
import { deleteDeviceTelemetry } from '../telemetry/device-telemetry-cleanup';

/** A minimum above the maximum is refused, whichever of the two the call changes. */
function rangeHooks(table: string): EntityHooks {
  const check = async (ctx: EntityContext, values: Row, id?: string) => {
    if (!('minValue' in values) && !('maxValue' in values)) return;
    let stored: { min_value: number | null; max_value: number | null } | undefined;
    if (id) {
      const { rows } = await ctx.sql.query<{ min_value: number | null; max_value: number | null }>(
        `SELECT min_value, max_value FROM "${table}" WHERE id = $1`,
        [id],
      );
      stored = rows[0];
    }
    const min = 'minValue' in values ? values.minValue : stored?.min_value;
    const max = 'maxValue' in values ? values.maxValue : stored?.max_value;
    if (typeof min === 'number' && typeof max === 'number' && min > max)
      throw new AppError(400, 'validation.range', {
        fields: [{ field: 'maxValue', key: 'validation.range' }],
      });
  };
  return {
    beforeCreate: (ctx, values) => check(ctx, values),
    beforeUpdate: (ctx, id, values) => check(ctx, values, id),
  };
}

/**
 * The IoT entities' own rules: device and product writes drop cached identities and thing
 * models; a deleted device takes its files along; ranges stay ordered.
 */
export function iotEntityHooks(deps: {
  changes: DeviceChanges;
  storage: FileStorage;
}): Map<EntityDef, EntityHooks> {
  const tenantChanged = (ctx: EntityContext) => {
    if (ctx.tenantId) deps.changes.notify(ctx.tenantId);
  };
  /** Storage keys to remove once the rows are gone (per call context). */
  const orphans = new WeakMap<EntityContext, string[]>();
  const deviceHooks: EntityHooks = {
    afterUpdate: async (ctx, id) => {
      if (ctx.tenantId) deps.changes.notify(ctx.tenantId, id);
    },
    beforeDelete: async (ctx, ids) => {
      await deleteDeviceTelemetry(ctx.sql, ids);
      const { rows } = await ctx.sql.query<{ storage_key: string }>(
        `DELETE FROM iot_device_file WHERE device_id = ANY($1::bigint[]) RETURNING storage_key`,
        [ids],
      );
      orphans.set(
        ctx,
        rows.map((row) => row.storage_key),
      );
    },
    afterWrite: async (ctx) => {
      tenantChanged(ctx);
      const keys = orphans.get(ctx);
      orphans.delete(ctx);
      // The rows went in this transaction; bytes left behind by a failed commit are only
      // unused space, while a row without bytes answers 404 (the download checks).
      for (const key of keys ?? []) await deps.storage.remove(key).catch(() => undefined);
    },
  };
  return new Map<EntityDef, EntityHooks>([
    [iotDeviceEntity, deviceHooks],
    [iotProductEntity, { afterWrite: tenantChanged }],
    [iotFactorEntity, rangeHooks('iot_factor')],
    [sensorTemplateEntity, rangeHooks('iot_sensor_template')],
    [controllerTemplateEntity, rangeHooks('iot_controller_template')],
  ]);
}

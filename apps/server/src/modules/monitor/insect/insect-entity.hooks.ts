import { insectPhotoLabelEntity, insectSpeciesEntity, type EntityDef } from '@shuili/contract';
import type { Database } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import type { EntityHooks } from '../../../entity/entity-hooks';
import type { FileStorage } from '../../files/file-storage';
import { insectPhotoRepo } from './insect-photo.repo';

/**
 * A label counts insects on a photo of an insect trap the caller may see: the photo's device is
 * stored with it, so the label follows the device's zones and projects (tenancy.sql). Another
 * tenant's photo, or one outside the caller's zones, is as missing as an unknown one.
 */
const photoLabelHooks: EntityHooks = {
  async beforeCreate(ctx, values) {
    const fileId = String(values['fileId'] ?? '');
    const photo = await insectPhotoRepo.photoOf(ctx.sql, fileId);
    if (!photo)
      throw new AppError(400, 'validation.refMissing', {
        fields: [{ field: 'fileId', key: 'validation.refMissing' }],
      });
    if (!photo.trapImage)
      throw new AppError(400, 'validation.notTrapPhoto', {
        fields: [{ field: 'fileId', key: 'validation.notTrapPhoto' }],
      });
    return { device_id: photo.deviceId };
  },
};

/**
 * A species' picture bytes go with it, once its deletion committed: a key is removed only when
 * no species holds it any more (a deletion refused, say for a species still counted, keeps it).
 */
function speciesHooks(db: Database, storage: FileStorage): EntityHooks {
  const pending: string[] = [];
  const removeUnheld = async (keys: string[]) => {
    const { rows } = await db.system((sql) =>
      sql.query<{ picture_key: string }>(
        'SELECT picture_key FROM monitor_insect_species WHERE picture_key = ANY($1::text[])',
        [keys],
      ),
    );
    const held = new Set(rows.map((row) => row.picture_key));
    for (const key of keys) if (!held.has(key)) await storage.remove(key);
  };
  return {
    async beforeDelete(ctx, ids) {
      const { rows } = await ctx.sql.query<{ picture_key: string }>(
        `SELECT picture_key FROM monitor_insect_species
          WHERE id = ANY($1::bigint[]) AND picture_key IS NOT NULL`,
        [ids],
      );
      pending.push(...rows.map((row) => row.picture_key));
    },
    afterCommit() {
      const keys = pending.splice(0);
      if (keys.length > 0) void removeUnheld(keys).catch(() => undefined);
    },
  };
}

/** The insect area's entity hooks, for app.ts. */
export function insectEntityHooks(db: Database, storage: FileStorage): Map<EntityDef, EntityHooks> {
  return new Map<EntityDef, EntityHooks>([
    [insectPhotoLabelEntity, photoLabelHooks],
    [insectSpeciesEntity, speciesHooks(db, storage)],
  ]);
}

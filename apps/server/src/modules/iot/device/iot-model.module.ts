import type { FastifyInstance } from 'fastify';
import { deviceDetailRoutes } from './device-detail.routes';
import type { Config } from '../../../config';
import type { Database } from '../../../db/database';
import type { EntityHooks } from '../../../entity/entity-hooks';
import type { FieldGrants } from '../../../entity/field-grants';
import type { EntityDef } from '@shuili/contract';
import { deviceFileRoutes } from '../../files/device-file.routes';
import { configuredFileStorage } from '../../files/configured-file-storage';
import type { FileStorage } from '../../files/file-storage';
import { DeviceChanges } from './device-changes';
import { iotEntityHooks } from './iot-entity-hooks';
import { thingModelRoutes } from './thing-model.routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Device and product writes; the ingest directory subscribes to drop cached entries. */
    deviceChanges: DeviceChanges;
    fileStorage: FileStorage;
  }
}

export interface IotModel {
  changes: DeviceChanges;
  storage: FileStorage;
  /** The IoT entities' hooks, for the generic entity routes. */
  hooks: Map<EntityDef, EntityHooks>;
}

/**
 * The IoT model's shared parts: change notifications, file storage (the configured one, which
 * every module that stores or serves files is given) and entity hooks.
 */
export function createIotModel(
  config: Pick<Config, 'dataDir' | 'fileStorage'>,
  db: Database,
): IotModel {
  const changes = new DeviceChanges();
  const storage = configuredFileStorage(config, db);
  return { changes, storage, hooks: iotEntityHooks({ changes, storage }) };
}

/** The IoT model's own calls (thing models, device files) besides the generic entity calls. */
export async function iotModelRoutes(
  app: FastifyInstance,
  deps: { db: Database; model: IotModel; grants: FieldGrants },
) {
  app.decorate('deviceChanges', deps.model.changes);
  app.decorate('fileStorage', deps.model.storage);
  await app.register(thingModelRoutes, { db: deps.db, changes: deps.model.changes });
  await app.register(deviceFileRoutes, { db: deps.db, storage: deps.model.storage });
  await app.register(deviceDetailRoutes, { db: deps.db, grants: deps.grants });
}

import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { cameraRoutes } from './camera.routes';
import { demoMediaRoutes } from './demo-media.routes';

/**
 * The video area (spec §2 /video, /videoManagement): the cameras' grid call and snapshots, and
 * the demo clip. The camera entity's generic calls are mounted with every entity. app.ts calls it
 * once, after the IoT model (its file storage receives the snapshots).
 */
export async function registerVideo(
  app: FastifyInstance,
  deps: { db: Database; config: Pick<Config, 'videoSnapshotHosts' | 'publicUrl'> },
): Promise<void> {
  await app.register(cameraRoutes, {
    db: deps.db,
    storage: app.fileStorage,
    snapshots: { allowedHosts: deps.config.videoSnapshotHosts, publicUrl: deps.config.publicUrl },
  });
  await app.register(demoMediaRoutes);
}

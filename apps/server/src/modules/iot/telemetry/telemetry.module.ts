import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database';
import type { DeviceTransport } from '../../../mqtt/device-transport';
import { DeviceDirectory } from '../device/device-directory';
import type { IngestListener } from './ingest-listener';
import { IngestService, type IngestServiceOptions } from './ingest.service';
import { RetentionSweeper } from './retention-sweeper';
import { TelemetryQueryService } from './telemetry-query.service';
import { RetentionSettings } from './telemetry-settings';
import { telemetryRoutes } from './telemetry.routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Ingestion and telemetry queries (tests drive `telemetry.ingest.handle` directly). */
    telemetry: TelemetryModule;
  }
}

export interface TelemetryModuleDeps {
  db: Database;
  /** Where uplinks come from; absent in tests that drive `ingest.handle` themselves. */
  transport?: Pick<DeviceTransport, 'onUplink' | 'onPresence'>;
  listeners?: IngestListener[];
  /** Shared with the device and product hooks that invalidate it; created when absent. */
  directory?: DeviceDirectory;
  options?: IngestServiceOptions & { sweep?: boolean };
}

export interface TelemetryModule {
  ingest: IngestService;
  directory: DeviceDirectory;
  queries: TelemetryQueryService;
  sweeper: RetentionSweeper;
}

/**
 * Builds ingestion (transport -> validation -> batched storage -> listeners), the retention
 * sweeper and the telemetry query routes. Ingestion stops (flushing what is queued) when the app
 * closes.
 */
export async function registerTelemetryModule(
  app: FastifyInstance,
  deps: TelemetryModuleDeps,
): Promise<TelemetryModule> {
  const directory = deps.directory ?? new DeviceDirectory(deps.db);
  const retention = new RetentionSettings(deps.db);
  const ingest = new IngestService(
    { db: deps.db, directory, retention, listeners: [...(deps.listeners ?? [])], log: app.log },
    deps.options,
  );
  const sweeper = new RetentionSweeper(deps.db, retention, {
    log: app.log,
    onDropped: (partition) => ingest.telemetryWriter.forgetPartition(partition),
  });
  const queries = new TelemetryQueryService(deps.db);

  deps.transport?.onUplink((uplink) => ingest.handle(uplink));
  deps.transport?.onPresence((presence) =>
    ingest.presence(
      presence.tenantCode,
      presence.deviceNo,
      presence.online,
      new Date(presence.at),
      presence.deviceId,
    ),
  );
  await app.register(telemetryRoutes, { db: deps.db, queries });
  if (deps.options?.sweep !== false) app.addHook('onReady', async () => sweeper.start());
  app.addHook('onClose', async () => {
    await sweeper.stop();
    await ingest.close();
  });
  const telemetry = { ingest, directory, queries, sweeper };
  app.decorate('telemetry', telemetry);
  return telemetry;
}

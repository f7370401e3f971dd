import crypto from 'node:crypto';
import { createFreshTarget, type Target } from '@shuili/test-support/database-target';
import { prepareDevices, type BenchDevice } from '@shuili/test-support/ingest-data';
import { startIotServer, type RunningIotServer } from '@shuili/test-support/iot-server';
import {
  startPrivateMosquitto,
  type PrivateMosquitto,
} from '@shuili/test-support/private-mosquitto';
import { brokerHealth } from '@shuili/test-support/broker-health';
import { waitFor } from './process-kill';
import { ledger, storedReadings } from './stored-readings';
import { TrackedDevices, type TrackedDevicesOptions } from './tracked-devices';

/**
 * What the external-broker fault tests share: a private Mosquitto, a fresh database holding the
 * bench devices, server nodes consuming through a share group of the run's own, devices whose
 * acknowledged readings are tracked, and the ledger of those readings against what is stored.
 * `close` stops everything it started, last started first.
 */
export class ExternalConsumers {
  /** Names the share group and the node ids (`<name>-<run>`): runs never share a session. */
  readonly run = crypto.randomBytes(4).toString('hex');
  private readonly cleanups: Array<() => Promise<unknown>> = [];

  private constructor(
    readonly broker: PrivateMosquitto,
    readonly target: Target,
    readonly devices: BenchDevice[],
    private readonly group: string,
  ) {}

  /** The broker and a fresh database (`postgres` is read while nodes run; PGlite is not). */
  static async start(options: {
    database: 'postgres' | 'pglite';
    devices: number;
    group: string;
  }): Promise<ExternalConsumers> {
    const broker = await startPrivateMosquitto();
    let fresh: Awaited<ReturnType<typeof createFreshTarget>> | undefined;
    try {
      fresh = await createFreshTarget(options.database);
      const devices = await prepareDevices(fresh.target, options.devices);
      const fixture = new ExternalConsumers(broker, fresh.target, devices, options.group);
      fixture.cleanups.push(broker.destroy, fresh.remove);
      return fixture;
    } catch (error) {
      // Nothing half-started stays behind when the database or its devices could not be made.
      await fresh?.remove().catch(() => {});
      await broker.destroy();
      throw error;
    }
  }

  /** A node's settings: its id is `name` (a node started again under it is the same node). */
  nodeEnv(name: string, extra: Record<string, string> = {}): Record<string, string> {
    return {
      MQTT_URL: this.broker.url,
      MQTT_SHARE_GROUP: `${this.group}${this.run}`,
      MQTT_NODE_ID: `${name}-${this.run}`,
      ...extra,
    };
  }

  /**
   * Starts a node and, unless told not to, waits until every one of its consumers has subscribed
   * (a node coming back to sessions with a long queue subscribes only as it drains them).
   */
  async startNode(
    name: string,
    options: { env?: Record<string, string>; awaitSubscribed?: boolean } = {},
  ): Promise<RunningIotServer> {
    const server = await startIotServer(this.target, { env: this.nodeEnv(name, options.env) });
    this.cleanups.push(() => server.stop());
    if (options.awaitSubscribed !== false)
      await waitFor(
        `${name} to subscribe`,
        async () => (await brokerHealth(server.url))?.state === 'up',
      );
    return server;
  }

  /** Devices publishing to the broker (`run` starts them), closed with the fixture. */
  devicesPublishing(options: TrackedDevicesOptions): TrackedDevices {
    const load = new TrackedDevices(this.broker.url, this.devices, {
      reconnectPeriod: 250,
      resendWithoutSubscribers: true,
      ...options,
    });
    this.cleanups.push(() => load.close());
    return load;
  }

  /**
   * Stops the devices once everything they have in flight is acknowledged, then waits up to
   * `timeoutMs` for every acknowledged reading to be stored: the ledger as it then stands.
   * PostgreSQL only (the database is read while nodes run).
   */
  async ledgerOnceStored(load: TrackedDevices, timeoutMs: number) {
    load.pause();
    await waitFor('in-flight readings to be acknowledged', () => load.inFlight === 0);
    await load.close();
    const from = Date.now();
    let counts = ledger(load.acknowledged, load.published, await storedReadings(this.target));
    while (counts.lost > 0 && Date.now() - from < timeoutMs) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      counts = ledger(load.acknowledged, load.published, await storedReadings(this.target));
    }
    return { ...counts, storedAfterMs: Date.now() - from };
  }

  async close(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  }
}

import fs from 'node:fs/promises';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';

/** How often a node writes its row; a node unheard of for ALIVE_MS is lost. */
export const HEARTBEAT_MS = 5_000;
export const ALIVE_MS = 20_000;
const GB = 1024 ** 3;

/** What a node has free now (a job's minimum CPU, memory and disk are checked against it). */
export interface NodeResources {
  cpuCores: number;
  memoryFreeGb: number;
  diskFreeGb: number;
  load1: number;
}

/** This machine's free resources; disk is the free space where the server keeps its data. */
export async function readResources(dataDir: string): Promise<NodeResources> {
  let diskFreeGb = 0;
  try {
    const stats = await fs.statfs(dataDir).catch(() => fs.statfs(os.tmpdir()));
    diskFreeGb = (stats.bavail * stats.bsize) / GB;
  } catch {
    // No statfs here: disk requirements are then unmet rather than guessed.
  }
  return {
    cpuCores: os.availableParallelism(),
    memoryFreeGb: os.freemem() / GB,
    diskFreeGb,
    load1: os.loadavg()[0] ?? 0,
  };
}

/**
 * This node in the registry of server nodes (/appmonitor, broadcast targets): its row written
 * every few seconds with its address, version, load, free resources and running instances.
 */
export class NodeRegistry {
  private timer: NodeJS.Timeout | undefined;
  private latest: NodeResources | undefined;

  constructor(
    private readonly deps: {
      db: Database;
      node: string;
      address: () => string;
      version: string;
      dataDir: string;
      running: () => number;
      log: FastifyBaseLogger;
      /** After each heartbeat (the lost nodes' sweep). */
      afterBeat?: () => Promise<void>;
      /**
       * External broker only: this node's MQTT_NODE_ID and consumer count, so that a peer can
       * take its consumer sessions over while it is lost (mqtt/session-adoption.ts).
       */
      mqtt?: { nodeId: string; consumers: number };
    },
  ) {}

  /** Free resources as of the last heartbeat (read now the first time). */
  async resources(): Promise<NodeResources> {
    return (this.latest ??= await readResources(this.deps.dataDir));
  }

  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  /** Leaves the registry: a node stopped on purpose is not shown as lost. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.deps.db
      .system((sql) => sql.query('DELETE FROM scheduler_node WHERE node = $1', [this.deps.node]))
      .catch(() => undefined);
  }

  private async beat(): Promise<void> {
    try {
      this.latest = await readResources(this.deps.dataDir);
      const { cpuCores, memoryFreeGb, diskFreeGb, load1 } = this.latest;
      await this.deps.db.system((sql) =>
        sql.query(
          `INSERT INTO scheduler_node AS n (node, address, version, load1, cpu_cores,
                                            memory_free_gb, disk_free_gb, running,
                                            mqtt_node_id, mqtt_consumers)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
           ON CONFLICT (node) DO UPDATE SET address = EXCLUDED.address,
             version = EXCLUDED.version, heartbeat_at = now(), load1 = EXCLUDED.load1,
             cpu_cores = EXCLUDED.cpu_cores, memory_free_gb = EXCLUDED.memory_free_gb,
             disk_free_gb = EXCLUDED.disk_free_gb, running = EXCLUDED.running,
             mqtt_node_id = EXCLUDED.mqtt_node_id, mqtt_consumers = EXCLUDED.mqtt_consumers`,
          [
            this.deps.node,
            this.deps.address(),
            this.deps.version,
            load1,
            cpuCores,
            memoryFreeGb,
            diskFreeGb,
            this.deps.running(),
            this.deps.mqtt?.nodeId ?? null,
            this.deps.mqtt?.consumers ?? 0,
          ],
        ),
      );
      await this.deps.afterBeat?.();
    } catch (error) {
      this.deps.log.warn({ err: error }, 'scheduler node heartbeat failed');
    }
  }
}

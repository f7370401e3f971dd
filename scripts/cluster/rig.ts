// The multi-node rig (issue 23, docs/scaling.md "The rig"): server nodes behind Debian's nginx, on
// one fresh PostgreSQL database and a private Debian Mosquitto (the external broker), each node the
// real server process. Started by the cross-node tests (e2e/cluster-*.test.ts) and by
// `npm run cluster` (scripts/cluster/main.ts).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { mosquittoAvailable, MOSQUITTO } from '@shuili/test-support/mosquitto-peer';
import { startPrivateMosquitto } from '@shuili/test-support/private-mosquitto';
import { freePort, isPortClash, REPO_ROOT } from '@shuili/test-support/server-process';
import { createRigDatabase, postgresUnavailable } from './rig-database';
import { NGINX, startNginx, type RunningNginx } from './rig-nginx';
import { nodeProcess } from './rig-node';

export interface RigNode {
  name: string;
  /** The node directly, bypassing nginx: http://127.0.0.1:port. */
  url: string;
  pid: number;
  /** The broker's name for this node's consumers (MQTT_NODE_ID), kept across restarts. */
  mqttNodeId: string;
  /** kill -9; resolves once the process is gone. */
  kill(): Promise<void>;
  /** Starts it again: same port, MQTT_NODE_ID and DATA_DIR; resolves once it is ready. */
  start(): Promise<void>;
  /** SIGTERM (a graceful stop); resolves once the process is gone. */
  stop(): Promise<void>;
  /** What the node printed so far (LOG_LEVEL=warn), over all its starts. */
  output(): string;
}

export interface Rig {
  /** nginx in front of the nodes: http://127.0.0.1:port. */
  url: string;
  nodes: RigNode[];
  databaseUrl: string;
  mqttUrl: string;
  /** Stops nginx, the nodes and the broker, and drops the database. */
  stop(): Promise<void>;
}

export interface RigOptions {
  /** Server nodes (default 3). */
  nodes?: number;
  /** The nodes serve the built console (apps/web/dist; `npm run build` first). */
  web?: boolean;
  /** The demo's light device simulation (on the first node only; default false). */
  simulation?: boolean;
  /** More environment for every node. */
  env?: Record<string, string>;
  /** Where progress lines go (default nowhere). */
  log?: (line: string) => void;
}

/** Why the rig cannot run on this machine (nginx, PostgreSQL or Mosquitto missing), or undefined. */
export async function rigUnavailable(): Promise<string | undefined> {
  const present = (file: string) =>
    fs.access(file).then(
      () => true,
      () => false,
    );
  if (!(await present(NGINX))) return `nginx is not installed (${NGINX})`;
  if (!(await mosquittoAvailable())) return `Mosquitto is not installed (${MOSQUITTO})`;
  return postgresUnavailable();
}

/**
 * Starts the rig: the database, the broker and nginx, then the first node alone (it migrates and
 * seeds the demo), then the others together. Everything started is stopped again when a step
 * fails.
 */
export async function startRig(options: RigOptions = {}): Promise<Rig> {
  const count = options.nodes ?? 3;
  const log = options.log ?? (() => {});
  const cleanups: (() => Promise<unknown>)[] = [];
  const cleanUp = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    cleanups.length = 0;
  };
  try {
    const started = Date.now();
    const database = await createRigDatabase();
    cleanups.push(database.drop);
    const broker = await startPrivateMosquitto();
    cleanups.push(() => broker.destroy());
    log(`database ${database.url}, broker ${broker.url}`);

    const ports: number[] = [];
    while (ports.length < count) {
      const port = await freePort();
      if (!ports.includes(port)) ports.push(port);
    }
    const nginx: RunningNginx = await startNginx(ports);
    cleanups.push(() => nginx.stop());
    log(`nginx ${nginx.url} in front of ports ${ports.join(', ')}`);

    const dataDirs = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-rig-'));
    cleanups.push(() => fs.rm(dataDirs, { recursive: true, force: true }));
    const envOf = (index: number, dataDir: string): Record<string, string> => ({
      DATABASE_URL: database.url,
      MQTT_URL: broker.url,
      MQTT_NODE_ID: `rig-node${index + 1}`,
      DATA_DIR: dataDir,
      WEB_DIST: options.web ? path.join(REPO_ROOT, 'apps/web/dist') : '',
      // One simulation for the district: devices are the same on every node.
      SIM: options.simulation && index === 0 ? '1' : '0',
      // Behind nginx, one hop: a client's address is what nginx saw (rig-nginx.ts).
      TRUST_PROXY: '1',
      PUBLIC_URL: nginx.url,
      LOG_LEVEL: 'warn',
      DEMO_HISTORY_DAYS: '0',
      ...options.env,
    });

    const nodes: RigNode[] = [];
    const startNode = async (index: number) => {
      const dataDir = path.join(dataDirs, `node${index + 1}`);
      await fs.mkdir(dataDir);
      const name = `node${index + 1}`;
      // A port taken between freePort and the node's listen: the node moves, nginx follows.
      for (let attempt = 1; ; attempt += 1) {
        const env = envOf(index, dataDir);
        const proc = nodeProcess(name, ports[index]!, env);
        cleanups.push(() => proc.signal('SIGKILL'));
        try {
          await proc.start();
        } catch (error) {
          if (attempt >= 5 || !isPortClash(error)) throw error;
          ports[index] = await freePort();
          await nginx.route(ports);
          continue;
        }
        nodes[index] = {
          name,
          url: `http://127.0.0.1:${ports[index]}`,
          get pid() {
            return proc.pid;
          },
          mqttNodeId: env.MQTT_NODE_ID!,
          kill: () => proc.signal('SIGKILL'),
          start: () => proc.start(),
          stop: () => proc.signal('SIGTERM'),
          output: () => proc.output(),
        };
        log(`${name} ready on ${nodes[index].url} (${env.MQTT_NODE_ID})`);
        return;
      }
    };
    await startNode(0);
    await Promise.all(Array.from({ length: count - 1 }, (_, i) => startNode(i + 1)));
    log(`rig ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    return {
      url: nginx.url,
      nodes,
      databaseUrl: database.url,
      mqttUrl: broker.url,
      stop: async () => {
        // Nodes first, gracefully (they leave the database and the broker cleanly), then the rest.
        await Promise.all(nodes.map((node) => node.stop()));
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

// The server as the IoT benchmarks run it: the real process with its embedded broker on a free
// TCP port, the devices of ingest-data.ts as MQTT clients, and signed-in browsers as the web
// console connects them (apps/web/src/core/live/live-connection.ts).
import crypto from 'node:crypto';
import { BROWSER_CLIENT_PREFIX } from '@shuili/contract';
import type { IClientOptions } from 'mqtt';
import { onFreePorts, startServerOn, type RunningServer } from './server-process';
import { signIn as signInAs } from './sign-in';
import type { Target } from './database-target';

/** The tenant the bench devices belong to and the user whose browsers watch them. */
export const BENCH_TENANT = 'demo';

/** Signs `admin` of the bench tenant in, as the console's login form does: an access token. */
export function signIn(url: string): Promise<string> {
  return signInAs(url, BENCH_TENANT);
}

/**
 * A signed-in browser tab's MQTT connection options: the console's (spec §1: keepalive 60 s,
 * connect timeout 40 s, clean session, no automatic reconnect), its client id `web:<tenant>:<random>`
 * and the access token as password.
 */
export function browserOptions(
  token: string,
  tenantCode = BENCH_TENANT,
  username = 'admin',
): IClientOptions {
  return {
    clientId: `${BROWSER_CLIENT_PREFIX}${tenantCode}:${crypto.randomBytes(8).toString('hex')}`,
    username,
    password: token,
    keepalive: 60,
    connectTimeout: 40_000,
    clean: true,
    reconnectPeriod: 0,
  };
}

export interface RunningIotServer extends RunningServer {
  /** Devices' MQTT over TCP. */
  mqttUrl: string;
  /** Browsers' MQTT over WebSocket on the HTTP port. */
  wsUrl: string;
}

/**
 * Starts the server on a prepared database (see prepareDevices) with its broker on a free port.
 * BENCH_CPU_PROF=<folder> profiles the server (node --cpu-prof) into that folder.
 */
export async function startIotServer(
  target: Target,
  options: { nodeArgs?: string[]; env?: Record<string, string> } = {},
): Promise<RunningIotServer> {
  return onFreePorts(2, ([httpPort, mqttPort]) =>
    startIotServerOn(httpPort!, mqttPort!, target, options),
  );
}

async function startIotServerOn(
  httpPort: number,
  mqttPort: number,
  target: Target,
  options: { nodeArgs?: string[]; env?: Record<string, string> },
): Promise<RunningIotServer> {
  const server = await startServerOn(
    httpPort,
    {
      MQTT_PORT: String(mqttPort),
      SIM: '0',
      ...(target.kind === 'postgres' ? { DATABASE_URL: target.url } : {}),
      ...options.env,
    },
    1,
    {
      ...(target.kind === 'pglite' ? { dataDir: target.dataDir } : {}),
      nodeArgs: [
        ...(options.nodeArgs ?? []),
        ...(process.env.BENCH_CPU_PROF
          ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF]
          : []),
      ],
    },
  );
  return {
    ...server,
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    wsUrl: `${server.url.replace('http', 'ws')}/mqtt`,
  };
}

/**
 * The server's last warnings and errors (pino lines of level 40 and up), without the start-up
 * notice about the unbuilt console: why a connection was closed or an uplink not stored.
 */
export function serverWarnings(output: string, last = 8): string[] {
  return output
    .split('\n')
    .filter((line) => /^\{"level":[45]0/.test(line) && !line.includes('no built console'))
    .slice(-last)
    .map((line) => line.slice(0, 600));
}

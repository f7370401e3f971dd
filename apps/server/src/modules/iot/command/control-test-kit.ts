import type { ThingModel } from '@shuili/contract';
import mqtt, { type MqttClient } from 'mqtt';
import type { Database } from '../../../db/database';
import { call } from '@shuili/test-support/api-client';
import { startTestServer, type Backend, type TestServer } from '@shuili/test-support/test-server';
import { AlarmService } from '../alarm/alarm.service';
import { createTestDevice, type TestDevice } from '../telemetry/telemetry-test-fixtures';
import { CommandService } from './command.service';

/** A gate controller's thing model: commands with parameters, writable and read-only values. */
export const CONTROL_THING_MODEL: ThingModel = {
  properties: [
    {
      key: 'waterLevel',
      name: { en: 'Water level', zh: '水位', tw: '水位' },
      type: 'number',
      unit: 'm',
      min: 0,
      max: 20,
      access: 'r',
    },
    {
      key: 'valve',
      name: { en: 'Valve', zh: '阀门', tw: '閥門' },
      type: 'enum',
      options: [
        { value: 0, label: { en: 'Closed', zh: '关', tw: '關' } },
        { value: 1, label: { en: 'Open', zh: '开', tw: '開' } },
      ],
      access: 'rw',
    },
  ],
  events: [],
  commands: [
    {
      key: 'openValve',
      name: { en: 'Open valve', zh: '开阀', tw: '開閥' },
      params: [
        {
          key: 'channel',
          name: { en: 'Channel', zh: '通道', tw: '通道' },
          type: 'integer',
          min: 1,
          max: 8,
        },
        {
          key: 'durationMinutes',
          name: { en: 'Duration', zh: '时长', tw: '時長' },
          type: 'integer',
          min: 0,
          max: 1440,
        },
      ],
      timeoutSeconds: 30,
    },
    {
      key: 'closeValve',
      name: { en: 'Close valve', zh: '关阀', tw: '關閥' },
      params: [],
      timeoutSeconds: 30,
    },
    // Answered by nobody in the tests: it times out quickly.
    { key: 'ping', name: { en: 'Ping', zh: '探测', tw: '探測' }, params: [], timeoutSeconds: 1 },
  ],
};

export interface ControlServer {
  server: TestServer;
  /** Services of a second node sharing the server's database and broker. */
  commands: CommandService;
  alarms: AlarmService;
  close(): Promise<void>;
}

/** The real server (commands, alarms and ingestion wired by app.ts) and a second node's services. */
export async function startControlServer(backend: Backend): Promise<ControlServer> {
  const server = await startTestServer({ backend });
  const deps = { db: server.db, transport: server.app.deviceTransport, log: server.app.log };
  const alarms = new AlarmService(deps);
  return {
    server,
    commands: new CommandService(deps),
    alarms,
    close: async () => {
      await alarms.stop();
      await server.close();
    },
  };
}

export type ControlDevice = TestDevice;

/** A product with CONTROL_THING_MODEL and a device of it in the demo tenant. */
export function createControlDevice(db: Database): Promise<ControlDevice> {
  return createTestDevice(db, 'demo', CONTROL_THING_MODEL, 'Gate');
}

/** A device on MQTT with its own credentials: connected and subscribed to its commands. */
export async function connectDevice(
  server: TestServer,
  device: ControlDevice,
): Promise<{
  client: MqttClient;
  received: Array<Record<string, unknown>>;
  next(): Promise<Record<string, unknown>>;
}> {
  const issued = await server.app.deviceCredentials.reset(device.tenantId, device.deviceId);
  const port = server.app.deviceTransport.endpoints().tcpPort;
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
    will: {
      topic: `t/demo/d/${device.deviceNo}/status`,
      payload: Buffer.from(JSON.stringify({ online: false })),
      qos: 1,
      retain: true,
    },
    clientId: issued.identity,
    username: issued.identity,
    password: issued.secret,
    reconnectPeriod: 0,
  });
  const received: Array<Record<string, unknown>> = [];
  const waiting: Array<(message: Record<string, unknown>) => void> = [];
  let taken = 0;
  client.on('message', (_topic, payload) => {
    received.push(JSON.parse(payload.toString()) as Record<string, unknown>);
    while (waiting.length && taken < received.length) waiting.shift()!(received[taken++]!);
  });
  await client.subscribeAsync(`t/demo/d/${device.deviceNo}/cmd`, { qos: 1 });
  // As devices do once they can take commands (docs/iot.md: status is retained, also the will).
  await client.publishAsync(
    `t/demo/d/${device.deviceNo}/status`,
    JSON.stringify({ online: true }),
    {
      qos: 1,
      retain: true,
    },
  );
  return {
    client,
    received,
    next: () =>
      new Promise((resolve) => {
        if (taken < received.length) resolve(received[taken++]!);
        else waiting.push(resolve);
      }),
  };
}

/** Waits for a condition the server reaches on its own (a device's answer, a timer). */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`never happened: ${what} (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Demo's administrator, signed in (the MQTT tests' helper). */
export { adminToken } from '../../../mqtt/mqtt-test-clients';

export function commandDetail(server: TestServer, token: string, id: string) {
  return call(server, 'GET', '/api/iot/command/queryCommandDetail', { token, query: { id } });
}

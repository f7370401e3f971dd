import {
  commandPayloadSchema,
  deviceTopic,
  entityCalls,
  sysZoneEntity,
  type CommandPayload,
} from '@shuili/contract';
import { connectAsync, type MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import type { ConsoleRig } from '@shuili/test-support/console';
import { api } from './admin-console';

// Field devices in the browser tests: added through the API as an administrator does, and
// connected as real MQTT clients with their own credentials over the console's /mqtt.

/** The answer's data of an API call with the page's session; anything but a 200 throws. */
export async function apiData<T>(page: Page, method: string, url: string, body?: unknown) {
  const answer = await api(page, method, url, body);
  if (answer.status !== 200) throw new Error(`${url}: ${JSON.stringify(answer.body)}`);
  return answer.body.data as T;
}

export interface NewDevice {
  /** A seeded product's serial number (IRR-VALVE-4, PUMP-VFD-2 ...). */
  serialNo: string;
  deviceNo: string;
  deviceName: string;
  /** Which of the first page of demo zones it stands in (default the first). */
  zone?: 'first' | 'last';
}

export interface AddedDevice {
  id: string;
  deviceNo: string;
  deviceName: string;
}

/** A new device of a seeded product in a demo zone, at the demo district's latitude. */
export async function addDevice(page: Page, device: NewDevice): Promise<AddedDevice> {
  const products = await apiData<{ list: Array<{ id: string; serialNo: string }> }>(
    page,
    'GET',
    '/api/iot/product/queryIotProduct?currentPage=1&pageSize=100',
  );
  const productId = products.list.find((product) => product.serialNo === device.serialNo)?.id;
  if (!productId) throw new Error(`no product ${device.serialNo}`);
  const zones = await apiData<{ list: Array<{ id: string }> }>(
    page,
    'GET',
    `${entityCalls(sysZoneEntity).query}?currentPage=1&pageSize=10`,
  );
  const zone = device.zone === 'last' ? zones.list.at(-1) : zones.list[0];
  const added = await apiData<{ id: string | number }>(
    page,
    'POST',
    '/api/iot/device/addIotDevice',
    {
      deviceNo: device.deviceNo,
      deviceName: device.deviceName,
      productId,
      zoneId: zone?.id,
      lat: 36.6,
      lng: 117.0,
    },
  );
  return { id: String(added.id), deviceNo: device.deviceNo, deviceName: device.deviceName };
}

/** The device as a real MQTT client: new credentials issued, connected over /mqtt. */
export async function connectDevice(rig: ConsoleRig, page: Page, id: string): Promise<MqttClient> {
  const issued = await apiData<{ username: string; secret: string }>(
    page,
    'POST',
    '/api/iot/device/resetDeviceSecret',
    { id },
  );
  return connectAsync(`${rig.server.url.replace(/^http/, 'ws')}/mqtt`, {
    clientId: issued.username,
    username: issued.username,
    password: issued.secret,
    reconnectPeriod: 0,
    clean: true,
  });
}

export interface AnsweringDevice {
  client: MqttClient;
  /** The commands it has received, in order. */
  received: CommandPayload[];
}

/**
 * The device connected, online (its retained status) and listening for commands; with `ack` it
 * acknowledges every command it receives as a working device does.
 */
export async function onlineDevice(
  rig: ConsoleRig,
  page: Page,
  device: { id: string; deviceNo: string },
  options: { ack: boolean } = { ack: true },
): Promise<AnsweringDevice> {
  const client = await connectDevice(rig, page, device.id);
  const received: CommandPayload[] = [];
  client.on('message', (_topic, payload) => {
    const command = commandPayloadSchema.parse(JSON.parse(payload.toString()));
    received.push(command);
    if (!options.ack) return;
    // A command arriving as the test disconnects goes unanswered, as from a real device.
    client
      .publishAsync(
        deviceTopic('demo', device.deviceNo, 'cmd/ack'),
        JSON.stringify({ id: command.id, ok: true }),
        { qos: 1 },
      )
      .catch(() => undefined);
  });
  await client.subscribeAsync(deviceTopic('demo', device.deviceNo, 'cmd'), { qos: 1 });
  await client.publishAsync(
    deviceTopic('demo', device.deviceNo, 'status'),
    JSON.stringify({ online: true }),
    { qos: 1, retain: true },
  );
  return { client, received };
}

/** A demo device's readings through the server's own ingestion (what an MQTT uplink is handed to). */
export async function ingestReading(
  rig: ConsoleRig,
  deviceNo: string,
  ts: number,
  values: Record<string, number>,
): Promise<void> {
  await rig.server.app.telemetry.ingest.handle({
    tenantCode: 'demo',
    deviceNo,
    channel: 'telemetry',
    payload: Buffer.from(JSON.stringify({ ts, values })),
    receivedAt: Date.now(),
  });
}

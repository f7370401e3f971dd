// The load benchmark's field: every load device connects with its own credentials (mqtt-load.ts),
// publishes telemetry through publishStep, and answers the commands the console sends it as a
// valve controller does (cmd in, cmd/ack out, QoS 1), without values so that only telemetry
// messages add readings.
import { commandPayloadSchema, deviceTopic, type CommandAck } from '@shuili/contract';
import type { MqttClient } from 'mqtt';
import type { LoadDeviceCredential } from './load-data';
import { connectDevices, type LoadDevice } from './mqtt-load';

export function loadDevices(credentials: LoadDeviceCredential[]): LoadDevice[] {
  return credentials.map((device) => ({
    topic: deviceTopic(device.tenantCode, device.deviceNo, 'telemetry'),
    clientId: device.identity,
    username: device.identity,
    password: device.secret,
  }));
}

/**
 * Connects the devices and has each answer its commands; answers the clients and counters
 * (connections lost: the broker closed them, each came back).
 */
export async function connectAnsweringDevices(url: string, credentials: LoadDeviceCredential[]) {
  // A device the broker drops (a failed flush: it resends) comes back after a second.
  const clients = await connectDevices(url, loadDevices(credentials), 1000);
  const counts = { commandsAnswered: 0, connectionsLost: 0 };
  await Promise.all(
    clients.map(async (client: MqttClient, i) => {
      const { tenantCode, deviceNo } = credentials[i]!;
      const commandTopic = deviceTopic(tenantCode, deviceNo, 'cmd');
      client.on('close', () => (counts.connectionsLost += 1));
      client.on('message', (topic, payload) => {
        if (topic !== commandTopic) return;
        const command = commandPayloadSchema.safeParse(JSON.parse(payload.toString('utf8')));
        if (!command.success) return;
        const ack: CommandAck = { id: command.data.id, ok: true };
        counts.commandsAnswered += 1;
        client.publish(deviceTopic(tenantCode, deviceNo, 'cmd/ack'), JSON.stringify(ack), {
          qos: 1,
        });
      });
      await client.subscribeAsync(commandTopic, { qos: 1 });
    }),
  );
  return { clients, counts };
}

import net from 'node:net';
import { Aedes } from 'aedes';

/**
 * The broker simulator tests talk to: Mosquitto when TEST_MQTT_URL is set, else a bare aedes
 * (the embedded broker's engine) on an ephemeral loopback port. Answers its URL and a closer.
 */
export async function startTestBroker(): Promise<{ url: string; close(): Promise<void> }> {
  if (process.env.TEST_MQTT_URL) return { url: process.env.TEST_MQTT_URL, close: async () => {} };
  const broker = await Aedes.createBroker();
  const server = net.createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

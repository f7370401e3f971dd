// Test helper: a TCP proxy between one MQTT client and the broker that reads the packets going
// each way, so a test sees what the client really sent (its PUBACKs) and when.
import net from 'node:net';
import mqttPacket, { type Packet } from 'mqtt-packet';

export interface PacketRecordingProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * Listens on a free loopback port and relays every connection to `target` (mqtt://host:port),
 * calling `toBroker` / `toClient` for every MQTT 5 packet in arrival order.
 */
export async function startPacketRecordingProxy(
  target: string,
  watch: { toBroker?(packet: Packet): void; toClient?(packet: Packet): void },
): Promise<PacketRecordingProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const broker = net.connect({ host: hostname, port: Number(port) });
    for (const [from, to, see] of [
      [client, broker, watch.toBroker],
      [broker, client, watch.toClient],
    ] as const) {
      sockets.add(from);
      const parser = mqttPacket.parser({ protocolVersion: 5 });
      parser.on('packet', (packet: Packet) => see?.(packet));
      from.on('data', (chunk: Buffer) => {
        parser.parse(chunk);
        to.write(chunk);
      });
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
      from.on('error', () => to.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `mqtt://127.0.0.1:${address.port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

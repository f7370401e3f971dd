import fs from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { deviceTopic } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type {
  DeviceTransport,
  DeviceTransportDeps,
  EndedDeviceIdentity,
  Presence,
  TransportEndpoints,
  TransportState,
  Uplink,
} from './device-transport';
import { MqttAuthenticator } from './mqtt-authenticator';
import { MQTT_WS_PATH, MqttBroker } from './mqtt-broker';

const RECHECK_RETRY_MS = 2_000;

/** Devices and browsers on the broker inside this process (the default, DESIGN §1). */
export class EmbeddedTransport implements DeviceTransport {
  private readonly broker: MqttBroker;
  private tcp: net.Server | undefined;
  private tls: tls.Server | undefined;
  private tcpPort: number | undefined;
  private tlsPort: number | undefined;
  private stopped = false;

  constructor(
    private readonly config: Config,
    private readonly app: FastifyInstance,
    deps: DeviceTransportDeps,
  ) {
    this.broker = new MqttBroker({
      authenticator: new MqttAuthenticator(deps),
      log: app.log,
      acceptDevices: true,
      browsers: deps.browsers,
    });
  }

  onUplink(handler: (uplink: Uplink) => Promise<void>): void {
    this.broker.onUplink(handler);
  }

  onPresence(handler: (presence: Presence) => void | Promise<void>): void {
    this.broker.onPresence(handler);
  }

  publishToDevice(
    tenantCode: string,
    deviceNo: string,
    payload: Buffer | string,
    qos: 0 | 1,
    deviceId?: string,
  ): Promise<void> {
    if (deviceId) this.broker.closeStale(tenantCode, deviceNo, deviceId);
    return this.broker.publish({
      topic: deviceTopic(tenantCode, deviceNo, 'cmd'),
      payload: Buffer.from(payload),
      qos,
    });
  }

  publishLive(topic: string, payload: Buffer | string): Promise<void> {
    return this.broker.publish({ topic, payload: Buffer.from(payload), qos: 0 });
  }

  isConnected(tenantCode: string, deviceNo: string): boolean {
    return this.broker.isConnected(tenantCode, deviceNo);
  }

  disconnectDevice(ended: EndedDeviceIdentity): void {
    this.broker.disconnectDevice(ended);
  }

  /** Tried again every RECHECK_RETRY_MS while the database cannot answer (it was just lost). */
  async recheckDevices(live: (credentialIds: string[]) => Promise<ReadonlySet<string>>) {
    while (!this.stopped) {
      try {
        return await this.broker.recheckDevices(live);
      } catch {
        await new Promise((resolve) => setTimeout(resolve, RECHECK_RETRY_MS).unref());
      }
    }
  }

  endpoints(): TransportEndpoints {
    return { tcpPort: this.tcpPort, tlsPort: this.tlsPort, wsPath: MQTT_WS_PATH };
  }

  state(): TransportState {
    // In this process: up while the process is (devices reconnect when it restarts).
    return { kind: 'embedded', state: 'up' };
  }

  async start(): Promise<void> {
    await this.broker.start();
    this.broker.attachWebSocket(this.app.server);
    this.tcp = net.createServer((socket) => this.broker.handle(socket));
    this.tcpPort = await this.listen(this.tcp, this.config.mqttPort, 'MQTT_PORT');
    this.tls = this.tlsServer();
    if (this.tls)
      this.tlsPort = await this.listen(this.tls, this.config.mqttTlsPort, 'MQTT_TLS_PORT');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const close = (server: net.Server | undefined) =>
      new Promise<void>((resolve) =>
        server?.listening ? server.close(() => resolve()) : resolve(),
      );
    await this.broker.stop();
    await Promise.all([close(this.tcp), close(this.tls)]);
  }

  /**
   * The TLS listener when MQTT_TLS_CERT and MQTT_TLS_KEY are set; a file that cannot be read or
   * used is said in one line and the server carries on without TLS, like on a busy port.
   */
  private tlsServer(): tls.Server | undefined {
    const { mqttTlsCert: cert, mqttTlsKey: key } = this.config;
    if (!cert && !key) return undefined;
    if (!cert || !key) {
      // Half a configuration is a mistake worth a line, not a silent plain-text broker.
      this.app.log.warn(
        `MQTT TLS listener not started: ${cert ? 'MQTT_TLS_KEY' : 'MQTT_TLS_CERT'} is not set (both are needed)`,
      );
      return undefined;
    }
    let setting = 'MQTT_TLS_CERT';
    try {
      const certPem = fs.readFileSync(cert);
      setting = 'MQTT_TLS_KEY';
      const keyPem = fs.readFileSync(key);
      setting = 'MQTT_TLS_CERT / MQTT_TLS_KEY';
      return tls.createServer({ cert: certPem, key: keyPem }, (socket) =>
        this.broker.handle(socket),
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.app.log.warn(
        `MQTT TLS listener not started, ${setting} unusable (${reason.replace(/\s+/g, ' ')}): devices can still connect without TLS on MQTT_PORT and over WebSocket at ${MQTT_WS_PATH}`,
      );
      return undefined;
    }
  }

  /**
   * Listens, or says in one line why not and carries on: devices can still use /mqtt, and
   * `npm start` must not fail on a busy default port (DESIGN §6).
   */
  private listen(server: net.Server, port: number, setting: string): Promise<number | undefined> {
    return new Promise((resolve) => {
      const failed = (error: NodeJS.ErrnoException) => {
        const reason =
          error.code === 'EADDRINUSE'
            ? 'is in use (another broker?)'
            : `failed (${error.code ?? error.message})`;
        this.app.log.warn(
          `MQTT port ${port} ${reason}: devices and browsers can still connect over WebSocket at ${MQTT_WS_PATH}; set ${setting} to use another port`,
        );
        resolve(undefined);
      };
      server.once('error', failed);
      server.listen(port, this.config.host, () => {
        server.off('error', failed);
        server.on('error', (error) => this.app.log.error({ err: error }, 'MQTT listener error'));
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }
}

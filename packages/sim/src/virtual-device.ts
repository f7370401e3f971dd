import {
  checkThingValue,
  commandPayloadSchema,
  deviceTopic,
  parseDeviceIdentity,
  SET_PROPERTY_COMMAND,
  type CommandAck,
  type ThingModel,
  type TelemetryReading,
} from '@shuili/contract';
import mqtt, { type MqttClient } from 'mqtt';
import { conformValues, coerce, type ReportedValues } from './conform-values';
import { createPhysicsModel, type DeviceKind } from './models/create-physics-model';
import type { Environment } from './models/environment';
import { DeviceHealthModel } from './models/device-health';
import type { PhysicsModel, SimEvent } from './models/physics-model';
import type { Random } from './random';
import { createSimStats, type SimStats } from './sim-stats';
import { uploadPhoto } from './trap-camera';

export interface VirtualDeviceOptions {
  brokerUrl: string;
  /** `{tenantCode}:{deviceNo}`: MQTT username and client id. */
  identity: string;
  /** The device secret (MQTT password); absent for brokers that allow anonymous clients. */
  secret?: string;
  kind: DeviceKind;
  /** The product's thing model; reported values follow its keys, types and ranges. */
  thingModel?: ThingModel;
  /** Telemetry period, ms. */
  intervalMs: number;
  random: Random;
  env: Environment;
  /** Simulated clock, ms (default: the wall clock). */
  now?: () => number;
  /** Chance, at each telemetry period, that the device drops off the network. */
  offlineProbability?: number;
  /** How long an outage lasts, ms: [min, max]. */
  offlineMs?: [number, number];
  stats?: SimStats;
  /** Irrigation reaching this device's field (soil probes), mm/h. */
  irrigation?: () => number;
  /** Actuators follow their daily routine (PhysicsContext.autoOperate). */
  autoOperate?: boolean;
  /**
   * The last value each counter reported before this run (a water meter's cumulative volume, an
   * energy meter's kWh): the counters go on from there, as a real meter's do after a restart,
   * instead of jumping to the model's own start (which reads as a reset and a huge increase).
   */
  counterStart?: Record<string, number>;
  /**
   * The server's base URL (http://host:port): devices with a camera of their own (insect traps)
   * upload their photos there with their identity and secret (trap-camera.ts).
   */
  uploadUrl?: string;
  /** Card controllers: the cards farmers swipe (CardControllerOptions.cardNos). */
  cardNos?: readonly string[];
  /** Card controllers: swipes a day while idle (CardControllerOptions.swipesPerDay). */
  swipesPerDay?: number;
  /** Card controllers: how long a card stays on, hours (CardControllerOptions.sessionHours). */
  cardSessionHours?: readonly [number, number];
  /** The physics, when the caller builds it (to couple devices); else made from `kind`. */
  physics?: PhysicsModel;
  onError?: (error: Error) => void;
}

/** Readings kept while offline and sent as one array on reconnect (payload limit: 100). */
const MAX_BACKLOG = 100;
/** Events kept while offline (a controller's records are money: it keeps many). */
const MAX_EVENT_BACKLOG = 1000;
/** Remembered answers, so a command delivered twice is answered, not carried out twice. */
const MAX_ANSWERED = 200;

/**
 * A device on the network: connects with its own credentials, announces itself online (retained,
 * with the last will offline), publishes telemetry at its rate with QoS 1, answers commands and
 * now and then drops off the network for a while.
 */
export class VirtualDevice {
  readonly tenantCode: string;
  readonly deviceNo: string;
  readonly physics: PhysicsModel;
  private readonly health: DeviceHealthModel;
  readonly stats: SimStats;
  private client: MqttClient | undefined;
  private online = false;
  private stopped = true;
  private timer: NodeJS.Timeout | undefined;
  private outageTimer: NodeJS.Timeout | undefined;
  private readonly backlog: TelemetryReading[] = [];
  private readonly eventBacklog: SimEvent[] = [];
  /** Events go up one at a time, in order (a record before the next swipe). */
  private eventChain: Promise<void> = Promise.resolve();
  private readonly answered = new Map<string, CommandAck>();
  private readonly overrides = new Map<string, unknown>();
  /** Per counter: what is added to the model's value to continue from counterStart. */
  private counterOffsets: Map<string, number> | undefined;
  private readonly drift = new Map<string, number>();
  private readonly now: () => number;
  private photoUnderWay: Promise<void> | undefined;

  constructor(private readonly options: VirtualDeviceOptions) {
    const identity = parseDeviceIdentity(options.identity);
    if (!identity) throw new Error(`not a device identity: ${options.identity}`);
    this.tenantCode = identity.tenantCode;
    this.deviceNo = identity.deviceNo;
    this.now = options.now ?? Date.now;
    this.stats = options.stats ?? createSimStats();
    this.physics =
      options.physics ??
      createPhysicsModel(options.kind, {
        env: options.env,
        random: options.random.fork(),
        start: this.now(),
        ...(options.irrigation ? { irrigation: options.irrigation } : {}),
        autoOperate: options.autoOperate ?? false,
        ...(options.cardNos ? { cardNos: options.cardNos } : {}),
        ...(options.swipesPerDay !== undefined ? { swipesPerDay: options.swipesPerDay } : {}),
        ...(options.cardSessionHours ? { cardSessionHours: options.cardSessionHours } : {}),
      });
    this.health = new DeviceHealthModel(options.env, options.random.fork(), this.now());
  }

  get identity(): string {
    return this.options.identity;
  }

  get kind(): DeviceKind {
    return this.options.kind;
  }

  isOnline(): boolean {
    return this.online;
  }

  private topic(channel: 'telemetry' | 'cmd' | 'cmd/ack' | 'status'): string {
    return deviceTopic(this.tenantCode, this.deviceNo, channel);
  }

  /** Connects and starts reporting; resolves once online (subscribed and announced). */
  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
    this.schedule(this.options.random.between(0.1, 1) * this.options.intervalMs);
  }

  /** Says goodbye (retained offline) and disconnects; no more reports. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.outageTimer);
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    if (this.online) {
      await client
        .publishAsync(this.topic('status'), JSON.stringify({ online: false }), {
          qos: 1,
          retain: true,
        })
        .catch(() => undefined);
      this.setOnline(false);
    }
    await client.endAsync().catch(() => undefined);
  }

  /**
   * Drops off the network without a goodbye (the broker sends the last will). Back after `ms`;
   * without it, away until `comeBack()` (a test's controlled outage).
   */
  dropOffline(ms?: number): void {
    const client = this.client;
    if (!client || this.stopped) return;
    this.client = undefined;
    this.setOnline(false);
    this.stats.outages++;
    client.end(true);
    clearTimeout(this.outageTimer);
    if (ms === undefined) return;
    this.outageTimer = setTimeout(() => {
      if (!this.stopped) this.connect().catch((error) => this.fail(error));
    }, ms);
  }

  /**
   * Back on the network now, ending an outage of `dropOffline` early; resolves once online
   * (subscribed, announced, the readings it kept sent). Nothing to do when stopped, connected or
   * already connecting.
   */
  async comeBack(): Promise<void> {
    if (this.stopped || this.client) return;
    clearTimeout(this.outageTimer);
    await this.connect();
  }

  /** The current reading in the product's thing model. */
  reading(): ReportedValues {
    const now = this.now();
    this.physics.advance(now);
    this.health.advance(now);
    const values = conformValues(
      // The kind's own battery or signal, when it has one, wins over the generic RTU's.
      { ...this.health.values(), ...this.physics.values() },
      this.options.thingModel ?? { properties: [], events: [], commands: [] },
      this.options.random,
      this.drift,
    );
    for (const [key, value] of this.overrides) {
      const property = this.options.thingModel?.properties.find((p) => p.key === key);
      if (property) values[key] = coerce(property, value as number | boolean | string);
    }
    this.continueCounters(values);
    return values;
  }

  /** Shifts the counters to continue from counterStart (the offsets fixed at the first reading). */
  private continueCounters(values: ReportedValues): void {
    const start = this.options.counterStart;
    if (!start) return;
    if (!this.counterOffsets) {
      this.counterOffsets = new Map();
      for (const [key, last] of Object.entries(start)) {
        const own = values[key];
        if (typeof own === 'number') this.counterOffsets.set(key, last - own);
      }
    }
    for (const [key, offset] of this.counterOffsets) {
      const property = this.options.thingModel?.properties.find((p) => p.key === key);
      const own = values[key];
      if (property && typeof own === 'number') values[key] = coerce(property, own + offset);
    }
  }

  /** Publishes one reading now (or keeps it for later while offline). */
  async publishTelemetry(): Promise<void> {
    const reading: TelemetryReading = { ts: this.now(), values: this.reading() };
    const client = this.client;
    if (!client || !this.online) {
      this.backlog.push(reading);
      if (this.backlog.length > MAX_BACKLOG) this.backlog.shift();
      this.takeEvents();
      return;
    }
    await this.publish(client, reading);
    await this.sendDuePhoto();
    await this.sendEvents();
  }

  /** What the physics reported since (a swipe, a record), kept until it can go up. */
  private takeEvents(): void {
    const events = this.physics.drainEvents?.() ?? [];
    this.eventBacklog.push(...events);
    if (this.eventBacklog.length > MAX_EVENT_BACKLOG)
      this.eventBacklog.splice(0, this.eventBacklog.length - MAX_EVENT_BACKLOG);
  }

  /**
   * Publishes the events kept and new (QoS 1, in order); answers once they are through. One that
   * fails (the link dropped under it) goes back to the front of the queue for the next time.
   */
  sendEvents(): Promise<void> {
    this.takeEvents();
    const next = this.eventChain.then(async () => {
      while (this.eventBacklog.length > 0) {
        const client = this.client;
        if (!client || !this.online) return;
        const event = this.eventBacklog.shift()!;
        try {
          await client.publishAsync(
            deviceTopic(this.tenantCode, this.deviceNo, 'event'),
            JSON.stringify(event),
            { qos: 1 },
          );
        } catch (error) {
          this.eventBacklog.unshift(event);
          this.fail(error);
          return;
        }
      }
    });
    this.eventChain = next.catch(() => undefined);
    return next;
  }

  /**
   * Takes and uploads the photo the physics says is due (one at a time), then tells the server
   * over MQTT (the photoTaken event naming the stored file). Answers once it is done.
   */
  sendDuePhoto(): Promise<void> {
    const { uploadUrl, secret } = this.options;
    if (!uploadUrl || !secret || !this.online || this.photoUnderWay) return Promise.resolve();
    const request = this.physics.takePhoto?.();
    if (!request) return Promise.resolve();
    this.photoUnderWay = uploadPhoto({
      uploadUrl,
      identity: this.options.identity,
      secret,
      deviceNo: this.deviceNo,
      request,
      random: this.options.random,
      time: this.now(),
    })
      .then(async (photo) => {
        this.stats.photos++;
        await this.client?.publishAsync(
          deviceTopic(this.tenantCode, this.deviceNo, 'event'),
          JSON.stringify({ ts: this.now(), key: 'photoTaken', params: { image: photo.id } }),
          { qos: 1 },
        );
      })
      .catch((error) => this.fail(error))
      .finally(() => {
        this.photoUnderWay = undefined;
      });
    return this.photoUnderWay;
  }

  private async publish(client: MqttClient, payload: TelemetryReading | TelemetryReading[]) {
    this.stats.sent++;
    try {
      await client.publishAsync(this.topic('telemetry'), JSON.stringify(payload), { qos: 1 });
      this.stats.acked++;
    } catch (error) {
      this.fail(error);
    }
  }

  private connect(): Promise<void> {
    const options = this.options;
    const client = mqtt.connect(options.brokerUrl, {
      clientId: options.identity,
      username: options.identity,
      ...(options.secret ? { password: options.secret } : {}),
      clean: true,
      // Subscribing happens on every connect below, before the device says it is online, so a
      // command sent as soon as the server sees it online is not lost.
      resubscribe: false,
      reconnectPeriod: 3_000,
      // A refusal after the first connection ("server unavailable" while the server's database
      // is away) is retried like a lost connection: mqtt.js otherwise stops reconnecting for
      // good, and the device would stay offline after the server has recovered.
      reconnectOnConnackError: true,
      connectTimeout: 10_000,
      keepalive: 30,
      will: {
        topic: this.topic('status'),
        payload: Buffer.from(JSON.stringify({ online: false })),
        qos: 1,
        retain: true,
      },
    });
    this.client = client;
    client.on('message', (topic, payload) => {
      if (topic === this.topic('cmd')) this.onCommand(client, payload);
    });
    client.on('close', () => {
      if (this.client === client) this.setOnline(false);
    });
    client.on('error', (error) => this.fail(error));
    return new Promise((resolve, reject) => {
      let first = true;
      client.on('connect', () => {
        this.announce(client).then(
          () => {
            if (first) resolve();
            first = false;
          },
          (error) => {
            this.fail(error);
            if (first) reject(error);
            first = false;
          },
        );
      });
      // A refused CONNACK (bad secret) must not retry forever in a test: the caller decides.
      client.once('error', (error) => {
        if (!first) return;
        first = false;
        client.end(true);
        if (this.client === client) this.client = undefined;
        reject(error);
      });
    });
  }

  private async announce(client: MqttClient): Promise<void> {
    await client.subscribeAsync(this.topic('cmd'), { qos: 1 });
    await client.publishAsync(this.topic('status'), JSON.stringify({ online: true }), {
      qos: 1,
      retain: true,
    });
    if (this.client !== client) return;
    this.setOnline(true);
    if (this.backlog.length > 0) {
      const backlog = this.backlog.splice(0, this.backlog.length);
      await this.publish(client, backlog.length === 1 ? backlog[0]! : backlog);
    }
    await this.sendEvents();
  }

  private setOnline(online: boolean): void {
    if (online === this.online) return;
    this.online = online;
    this.physics.setOnline?.(online);
    this.stats.connected += online ? 1 : -1;
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.stopped) return;
      // An outage starts once this tick's reading is through: dropping the connection under an
      // unacknowledged publish would lose the reading without it ever reaching the backlog.
      this.publishTelemetry().then(
        () => this.maybeDropOffline(),
        (error) => this.fail(error),
      );
      // Jitter keeps thousands of devices from reporting in lockstep.
      this.schedule(this.options.intervalMs * this.options.random.between(0.9, 1.1));
    }, delay);
  }

  /** Now and then, at its chance per telemetry period, the device drops off the network. */
  private maybeDropOffline(): void {
    const chance = this.options.offlineProbability ?? 0;
    if (this.stopped || !this.online || chance <= 0 || !this.options.random.chance(chance)) return;
    const [low, high] = this.options.offlineMs ?? [5_000, 60_000];
    this.dropOffline(this.options.random.between(low, high));
  }

  private onCommand(client: MqttClient, payload: Buffer): void {
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      return; // Not JSON: nothing to answer to.
    }
    const parsed = commandPayloadSchema.safeParse(json);
    if (!parsed.success) {
      const id = (json as { id?: unknown } | null)?.id;
      if (typeof id === 'string' && id.length <= 64)
        this.sendAck(client, { id, ok: false, message: 'malformed command' });
      return;
    }
    const command = parsed.data;
    const previous = this.answered.get(command.id);
    if (previous) {
      this.sendAck(client, previous);
      return;
    }
    // An expired command must not be carried out; the server already counts it as expired.
    if (command.expiresAt < this.now()) return;
    const ack = this.execute(command.id, command.name, command.params);
    this.answered.set(command.id, ack);
    if (this.answered.size > MAX_ANSWERED) this.answered.delete(this.answered.keys().next().value!);
    this.sendAck(client, ack);
    // A photo asked for (takePhoto) is taken and uploaded at once.
    if (ack.ok) void this.sendDuePhoto();
    // What the command made happen (a session's record when the pump was stopped).
    void this.sendEvents();
  }

  /** Carries a command out on the physics and says how it went. */
  execute(id: string, name: string, params: Record<string, unknown>): CommandAck {
    this.physics.advance(this.now());
    const model = this.options.thingModel;
    if (name === SET_PROPERTY_COMMAND) {
      const refusal = this.checkWritable(params);
      if (refusal) return { id, ok: false, message: refusal };
      for (const [key, value] of Object.entries(params))
        if (!this.physics.setProperty(key, value)) this.overrides.set(key, value);
      return { id, ok: true, values: this.reading() };
    }
    if (model && model.commands.length > 0 && !model.commands.some((c) => c.key === name))
      return { id, ok: false, message: `unknown command: ${name}` };
    const outcome = this.physics.command(name, params);
    if (!outcome) return { id, ok: false, message: `unknown command: ${name}` };
    return {
      id,
      ok: outcome.ok,
      ...(outcome.message ? { message: outcome.message } : {}),
      ...(outcome.ok ? { values: this.reading() } : {}),
    };
  }

  private checkWritable(params: Record<string, unknown>): string | undefined {
    const properties = this.options.thingModel?.properties;
    if (Object.keys(params).length === 0) return 'no property to set';
    if (!properties || properties.length === 0) return undefined;
    for (const [key, value] of Object.entries(params)) {
      const property = properties.find((p) => p.key === key);
      if (!property || property.access !== 'rw') return `property not writable: ${key}`;
      const check = checkThingValue(property, value);
      if (!check.ok) return `${key}: ${check.problem}`;
    }
    return undefined;
  }

  private sendAck(client: MqttClient, ack: CommandAck): void {
    this.stats.commandsAnswered++;
    client
      .publishAsync(this.topic('cmd/ack'), JSON.stringify(ack), { qos: 1 })
      .catch((error) => this.fail(error));
  }

  private fail(error: unknown): void {
    this.stats.errors++;
    this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
  }
}

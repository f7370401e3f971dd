import {
  NO_DEVICE_LEVEL,
  devicePushTopic,
  type CommandPayload,
  type CommandPush,
  type CommandView,
  type DeviceControl,
} from '@shuili/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../db/database';
import { AppError, notFound } from '../../../http/app-error';
import type { AuthContext } from '../../../http/request-context';
import type {
  DeviceAckMessage,
  DevicePresenceMessage,
  IngestListener,
} from '../telemetry/ingest-listener';
import { CommandGuards, type CommandGuardContext, type CommandOrigin } from './command-guards';
import { checkCommand, commandTarget, thingModelOf } from './command-params';
import { commandRepo, toView, type CommandRow } from './command.repo';
import type { ControlTransport } from './control-transport';

const RECENT_COMMANDS = 10;
/** How often timeouts and expiries are looked for (one node at a time). */
const DEFAULT_SWEEP_MS = 1000;

export interface CommandServiceDeps {
  db: Database;
  transport: ControlTransport;
  log: FastifyBaseLogger;
  sweepMs?: number;
}

/**
 * Commands down to devices (DESIGN §6): checked against the thing model, stored as operation
 * records, sent when the device is there (else when it comes back, unless expired), answered by
 * its acknowledgement or timed out. Every state lives in the database, so any node may deliver,
 * receive the acknowledgement or sweep.
 */
export class CommandService implements IngestListener {
  /** The areas' guards and hooks around every command (command-guards.ts). */
  readonly guards = new CommandGuards();
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  /** The delivery under way per device on this node (deliver). */
  private readonly deliveries = new Map<string, Promise<void>>();

  constructor(private readonly deps: CommandServiceDeps) {}

  /** A user's command: guarded, recorded, sent now when the device is there. */
  async send(
    auth: AuthContext,
    input: {
      deviceId: string;
      name: string;
      params: Record<string, unknown>;
      expiresInSeconds: number;
    },
  ): Promise<CommandView> {
    const { view } = await this.record(
      { scope: auth, tenantId: auth.tenantId, userId: auth.userId, username: auth.username },
      input,
      null,
    );
    return view;
  }

  /**
   * The server's own command (a scheduler processor's: a timed close, a rotation step), in the
   * whole tenant's context, guarded like a user's. Idempotent by run: the same `effect` of the
   * same `origin.runId` answers the command recorded the first time instead of sending another
   * (an attempt taken over after its node died). Guards refusing it throw their AppError.
   */
  async sendForRun(input: {
    tenantId: string;
    deviceId: string;
    name: string;
    params: Record<string, unknown>;
    expiresInSeconds: number;
    /** Shown as the operator of the operation record (e.g. "rotation: North fields"). */
    username: string;
    origin: CommandOrigin & { runId: string };
    /** What this command is to the run ("open:<device>:<channel>"): unique per run. */
    effect: string;
  }): Promise<{ view: CommandView; reused: boolean }> {
    return this.record(
      { scope: input.tenantId, tenantId: input.tenantId, userId: null, username: input.username },
      input,
      input.origin,
      input.effect,
    );
  }

  /**
   * The server's own command outside any scheduler run (an LED screen's live values as readings
   * arrive), in the whole tenant's context, guarded and recorded like a user's; `username` is the
   * operator the operation record shows.
   */
  async sendAsServer(input: {
    tenantId: string;
    deviceId: string;
    name: string;
    params: Record<string, unknown>;
    expiresInSeconds: number;
    username: string;
  }): Promise<CommandView> {
    const { view } = await this.record(
      { scope: input.tenantId, tenantId: input.tenantId, userId: null, username: input.username },
      input,
      null,
    );
    return view;
  }

  private async record(
    actor: {
      scope: AuthContext | string;
      tenantId: string;
      userId: string | null;
      username: string;
    },
    input: {
      deviceId: string;
      name: string;
      params: Record<string, unknown>;
      expiresInSeconds: number;
    },
    origin: CommandOrigin | null,
    effect?: string,
  ): Promise<{ view: CommandView; reused: boolean }> {
    const recorded = await this.deps.db.tenant(actor.scope, async (sql) => {
      const device = await commandRepo.device(sql, input.deviceId);
      if (!device)
        throw new AppError(400, 'validation.invalid', {
          fields: [{ field: 'deviceId', key: 'validation.refMissing' }],
        });
      const model = thingModelOf(device.thing_model);
      const { timeoutSeconds } = checkCommand(model, input.name, input.params);
      await commandRepo.lockDevice(sql, device.id);
      if (effect && origin?.runId) {
        const earlier = await commandRepo.claimRunEffect(sql, {
          tenantId: actor.tenantId,
          runId: origin.runId,
          effect,
        });
        if (!earlier.fresh) {
          const row = earlier.commandId
            ? await commandRepo.byId(sql, earlier.commandId)
            : undefined;
          if (row) return { row, reused: true, tenantCode: '', deviceNo: device.device_no };
        }
      }
      const running = await commandRepo.active(
        sql,
        device.id,
        input.name,
        commandTarget(model, input.name, input.params),
      );
      if (running)
        throw new AppError(409, 'iot.commandConflict', {
          params: { command: input.name, id: running.id, status: running.status },
        });
      const guardContext: CommandGuardContext = {
        sql,
        tenantId: actor.tenantId,
        userId: actor.userId,
        username: actor.username,
        device: {
          id: device.id,
          deviceNo: device.device_no,
          deviceName: device.device_name,
          kind: device.kind,
          thingModel: model,
        },
        name: input.name,
        params: input.params,
        origin,
      };
      await this.guards.check(guardContext);
      const row = await commandRepo.insert(sql, {
        tenantId: actor.tenantId,
        userId: actor.userId,
        username: actor.username,
        deviceId: device.id,
        name: input.name,
        params: input.params,
        timeoutSeconds,
        expiresInSeconds: input.expiresInSeconds,
      });
      if (effect && origin?.runId)
        await commandRepo.setRunEffectCommand(sql, {
          runId: origin.runId,
          effect,
          commandId: row.id,
        });
      await this.guards.recorded(guardContext, row.id);
      const { rows } = await sql.query<{ tenant_code: string }>(
        'SELECT tenant_code FROM tenant WHERE id = $1',
        [actor.tenantId],
      );
      return { row, reused: false, tenantCode: rows[0]!.tenant_code, deviceNo: device.device_no };
    });
    if (recorded.reused)
      return { view: await this.getIn(actor.scope, recorded.row.id), reused: true };
    const { row, tenantCode } = recorded;
    await this.push(tenantCode, row, null);
    // Read after the insert committed: a device coming online meanwhile delivers it itself.
    const online = await this.deps.db.tenant(actor.scope, (sql) =>
      commandRepo.deviceOnline(sql, input.deviceId),
    );
    if (online)
      await this.deliver(actor.tenantId, tenantCode, input.deviceId, recorded.deviceNo, row.id);
    return { view: await this.getIn(actor.scope, row.id), reused: false };
  }

  private async getIn(scope: AuthContext | string, id: string): Promise<CommandView> {
    const row = await this.deps.db.tenant(scope, (sql) => commandRepo.byId(sql, id));
    if (!row) throw notFound('error.recordNotFound');
    return toView(row);
  }

  async get(auth: AuthContext, id: string): Promise<CommandView> {
    return this.getIn(auth, id);
  }

  async cancel(auth: AuthContext, id: string): Promise<CommandView> {
    const row = await this.deps.db.tenant(auth, async (sql) => {
      const cancelled = await commandRepo.cancel(sql, id, auth.username);
      if (cancelled) return cancelled;
      if (!(await commandRepo.byId(sql, id))) throw notFound('error.recordNotFound');
      throw new AppError(409, 'iot.commandNotPending');
    });
    await this.push(auth.tenantCode, row, null);
    return toView(row);
  }

  /** What the device page offers: the product's commands, writable properties, recent records. */
  async deviceControl(auth: AuthContext, deviceId: string): Promise<DeviceControl> {
    return this.deps.db.tenant(auth, async (sql) => {
      const device = await commandRepo.device(sql, deviceId);
      if (!device) throw notFound('error.recordNotFound');
      const model = thingModelOf(device.thing_model);
      return {
        deviceId: device.id,
        online: device.online,
        commands: model.commands,
        writable: model.properties.filter((property) => property.access === 'rw'),
        recent: (await commandRepo.recent(sql, device.id, RECENT_COMMANDS)).map(toView),
      };
    });
  }

  /** A device (re)connected: its waiting commands go out, oldest first, each exactly once. */
  async onPresence(presence: DevicePresenceMessage): Promise<void> {
    if (!presence.online) return;
    const { tenantId, tenantCode, deviceId, deviceNo } = presence.device;
    await this.deliver(tenantId, tenantCode, deviceId, deviceNo);
  }

  async onAck({ device, ack, receivedAt }: DeviceAckMessage): Promise<void> {
    // Ids are ours (row ids); anything else is a stray acknowledgement, not an error to resend.
    if (!/^\d{1,18}$/.test(ack.id)) return;
    const row = await this.deps.db.tenant(device.tenantId, (sql) =>
      commandRepo.acknowledge(sql, {
        tenantId: device.tenantId,
        deviceId: device.deviceId,
        id: ack.id,
        ok: ack.ok,
        message: ack.message ?? null,
        at: receivedAt,
      }),
    );
    if (row) await this.push(device.tenantCode, row, device.deviceNo);
  }

  /** Starts the timeout / expiry sweeper. */
  start(): void {
    if (this.timer) return;
    void this.deps.db
      .withLock('iot:command:indexes', (sql) => commandRepo.ensureIndexes(sql))
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'command indexes'));
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep()
        .catch((error: unknown) => this.deps.log.error({ err: error }, 'command sweep failed'))
        .finally(() => {
          this.sweeping = undefined;
        });
    }, this.deps.sweepMs ?? DEFAULT_SWEEP_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }

  /** Times out unanswered commands and expires undelivered ones, on one node at a time. */
  async sweep(): Promise<void> {
    const changed = await this.deps.db.withLock('iot:command:sweep', (sql) =>
      commandRepo.sweep(sql),
    );
    if (changed.length === 0) return;
    const addresses = await this.deps.db.system((sql) => commandRepo.addresses(sql, changed));
    for (const row of changed) {
      const address = addresses.get(row.id);
      if (address) await this.push(address.tenantCode, row, address.deviceNo);
    }
  }

  /**
   * Sends a device its waiting commands (up to `upTo`), oldest first. On this node one delivery
   * of a device runs at a time, claim and publications together: a later claim's commands must
   * not reach the broker before an earlier claim's (claims across nodes wait for each other in
   * claimPending).
   */
  private deliver(
    tenantId: string,
    tenantCode: string,
    deviceId: string,
    deviceNo: string,
    upTo?: string,
  ): Promise<void> {
    const previous = this.deliveries.get(deviceId) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(() => this.deliverNow(tenantId, tenantCode, deviceId, deviceNo, upTo));
    this.deliveries.set(deviceId, next);
    next
      .finally(() => {
        if (this.deliveries.get(deviceId) === next) this.deliveries.delete(deviceId);
      })
      .catch(() => undefined); // the caller hears of a failure through `next`

    return next;
  }

  private async deliverNow(
    tenantId: string,
    tenantCode: string,
    deviceId: string,
    deviceNo: string,
    upTo?: string,
  ): Promise<void> {
    const claimed = await this.deps.db.tenant(tenantId, (sql) =>
      commandRepo.claimPending(sql, tenantId, deviceId, upTo),
    );
    for (const row of claimed) {
      const payload: CommandPayload = {
        id: row.id,
        name: row.name,
        params: toView(row).params,
        expiresAt: row.expires_at.getTime(),
      };
      try {
        await this.deps.transport.publishToDevice(
          tenantCode,
          deviceNo,
          Buffer.from(JSON.stringify(payload)),
          1,
          deviceId,
        );
      } catch (error) {
        // Not handed to the broker: back in the queue for the next reconnect (or expiry).
        this.deps.log.warn({ err: error, command: row.id }, 'command not published');
        await this.deps.db.tenant(tenantId, (sql) => commandRepo.unclaim(sql, row.id));
        continue;
      }
      await this.push(tenantCode, row, deviceNo);
    }
  }

  private async push(tenantCode: string, row: CommandRow, deviceNo: string | null): Promise<void> {
    const message: CommandPush = { ...toView(row), deviceNo };
    try {
      await this.deps.transport.publishLive(
        devicePushTopic(tenantCode, 'command', deviceNo ?? NO_DEVICE_LEVEL),
        Buffer.from(JSON.stringify(message)),
      );
    } catch (error) {
      // A missed live push only delays the screen (it re-reads); never fail the command for it.
      this.deps.log.warn({ err: error }, 'command push failed');
    }
  }
}

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
import { checkCommand, thingModelOf } from './command-params';
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
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(private readonly deps: CommandServiceDeps) {}

  async send(
    auth: AuthContext,
    input: {
      deviceId: string;
      name: string;
      params: Record<string, unknown>;
      expiresInSeconds: number;
    },
  ): Promise<CommandView> {
    const row = await this.deps.db.tenant(auth, async (sql) => {
      const device = await commandRepo.device(sql, input.deviceId);
      if (!device)
        throw new AppError(400, 'validation.invalid', {
          fields: [{ field: 'deviceId', key: 'validation.refMissing' }],
        });
      const { timeoutSeconds } = checkCommand(
        thingModelOf(device.thing_model),
        input.name,
        input.params,
      );
      await commandRepo.lockDevice(sql, device.id);
      const running = await commandRepo.active(sql, device.id, input.name);
      if (running)
        throw new AppError(409, 'iot.commandConflict', {
          params: { command: input.name, id: running.id, status: running.status },
        });
      return commandRepo.insert(sql, {
        tenantId: auth.tenantId,
        userId: auth.userId,
        username: auth.username,
        deviceId: device.id,
        name: input.name,
        params: input.params,
        timeoutSeconds,
        expiresInSeconds: input.expiresInSeconds,
      });
    });
    await this.push(auth.tenantCode, row, null);
    // Read after the insert committed: a device coming online meanwhile delivers it itself.
    const online = await this.deps.db.tenant(auth, (sql) =>
      commandRepo.deviceOnline(sql, input.deviceId),
    );
    if (online) {
      const device = await this.deps.db.tenant(auth, (sql) =>
        commandRepo.device(sql, input.deviceId),
      );
      if (device)
        await this.deliver(auth.tenantId, auth.tenantCode, device.id, device.device_no, row.id);
    }
    return this.get(auth, row.id);
  }

  async get(auth: AuthContext, id: string): Promise<CommandView> {
    const row = await this.deps.db.tenant(auth, (sql) => commandRepo.byId(sql, id));
    if (!row) throw notFound('error.recordNotFound');
    return toView(row);
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

  private async deliver(
    tenantId: string,
    tenantCode: string,
    deviceId: string,
    deviceNo: string,
    id?: string,
  ): Promise<void> {
    const claimed = await this.deps.db.tenant(tenantId, (sql) =>
      commandRepo.claimPending(sql, tenantId, deviceId, id),
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

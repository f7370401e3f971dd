import type { ThingModel } from '@shuili/contract';
import type { Sql } from '../../../db/database';

/** The device a command is for, as guards see it. */
export interface GuardedDevice {
  id: string;
  deviceNo: string;
  deviceName: string;
  /** Its product's device kind (irrigation_valve, pump_station, ...), null without a product. */
  kind: string | null;
  thingModel: ThingModel;
}

/**
 * What started a command that no user sent: the scheduler trigger (its kind and key) and the
 * thing that holds devices while it runs (`rotation:<id>`), so guards let a holder's own
 * commands through.
 */
export interface CommandOrigin {
  kind: string;
  key: string;
  holder?: string;
  /** The scheduler run, when a processor sends it. */
  runId?: string;
}

/** One command about to be recorded, inside the sending transaction (device lock held). */
export interface CommandGuardContext {
  /** The sending transaction, in the tenant's context (a confined user's scope when a user). */
  sql: Sql;
  tenantId: string;
  /** The user sending it, or null for the server's own (origin says which). */
  userId: string | null;
  username: string;
  device: GuardedDevice;
  name: string;
  params: Record<string, unknown>;
  origin: CommandOrigin | null;
}

/**
 * A check before a command is recorded and sent: throws an AppError (409 with a translated
 * message naming what runs) to refuse it. Runs in the sending transaction, after the device's
 * command lock, so two requests never pass the same check side by side.
 */
export type CommandGuard = (ctx: CommandGuardContext) => Promise<void>;

/**
 * What follows a recorded command in the same transaction (a timed open schedules its close):
 * given the new command's id.
 */
export type CommandRecordedHook = (ctx: CommandGuardContext, commandId: string) => Promise<void>;

/**
 * The device areas' rules around commands, registered per device kind (or '*'): guards refuse
 * conflicting controls (a valve a rotation holds, a pump start below the dry-run level), hooks
 * act on what was recorded. The command service runs them for every command, whoever sends it.
 */
export class CommandGuards {
  private readonly guards = new Map<string, CommandGuard[]>();
  private readonly hooks = new Map<string, CommandRecordedHook[]>();

  /** Refuses commands to devices of `kind` ('*': every kind) when `guard` throws. */
  register(kind: string, guard: CommandGuard): void {
    this.guards.set(kind, [...(this.guards.get(kind) ?? []), guard]);
  }

  /** Runs `hook` after a command to a device of `kind` was recorded, in its transaction. */
  onRecorded(kind: string, hook: CommandRecordedHook): void {
    this.hooks.set(kind, [...(this.hooks.get(kind) ?? []), hook]);
  }

  async check(ctx: CommandGuardContext): Promise<void> {
    for (const guard of this.of(this.guards, ctx.device.kind)) await guard(ctx);
  }

  async recorded(ctx: CommandGuardContext, commandId: string): Promise<void> {
    for (const hook of this.of(this.hooks, ctx.device.kind)) await hook(ctx, commandId);
  }

  private of<T>(map: Map<string, T[]>, kind: string | null): T[] {
    return [...(map.get('*') ?? []), ...(kind ? (map.get(kind) ?? []) : [])];
  }
}

import {
  fieldLabel,
  translate,
  type BatchDeviceResult,
  type BatchValveControlResult,
  type Lang,
  type ScheduleRun,
  type WaterDelivered,
} from '@shuili/contract';
import type { Database, Sql } from '../../../db/database';
import { AppError, notFound } from '../../../http/app-error';
import type { AuthContext } from '../../../http/request-context';
import { thingModelOf } from '../../iot/command/command-params';
import type { CommandService } from '../../iot/command/command.service';
import { tenantTimeZone } from '../../iot/telemetry/telemetry-settings';
import { cancelPrefix } from '../../scheduler/scheduler.service';
import { waterDeliveredRepo } from '../water/water-delivered.repo';
import { irrigationRepo, type IrrigationDevice } from './irrigation.repo';
import {
  rotationHolder,
  rotationStartKey,
  rotationStepPrefix,
  soilRuleKey,
} from './irrigation-keys';
import { openHours } from './open-hours.repo';

/** How long a batch command waits for an offline device (a close waits as long as any may). */
const BATCH_OPEN_EXPIRES_SECONDS = 600;
const BATCH_CLOSE_EXPIRES_SECONDS = 7 * 24 * 3600;

/** A refused command's reason in the caller's language (its first field's message, if any). */
function messageOf(lang: Lang, error: AppError): string {
  const field = error.options.fields?.[0];
  return field
    ? translate(lang, field.key, { field: fieldLabel(lang, field.field), ...field.params })
    : translate(lang, error.key, error.options.params);
}

/** The channels a valve controller has (its openValve command's channel range). */
function channelCount(device: IrrigationDevice): number {
  return (
    thingModelOf(device.thing_model)
      .commands.find((command) => command.key === 'openValve')
      ?.params.find((param) => param.key === 'channel')?.max ?? 0
  );
}

/**
 * The irrigation area's calls: batch control of a zone or valve group, water delivered per zone
 * and valve open hours, the runs of rotation schedules and soil rules, stopping a rotation. Every
 * call runs in the caller's tenant and device scope (RLS).
 */
export class IrrigationService {
  constructor(
    private readonly db: Database,
    private readonly commands: CommandService,
  ) {}

  /**
   * One command per valve channel of the zone (every channel of its irrigation valves) or of
   * the group, each sent as the caller's own command (guards, zones, operation records), and
   * what became of each, per device.
   */
  async batchValveControl(
    auth: AuthContext,
    lang: Lang,
    input: {
      zoneId?: string;
      groupId?: string;
      action: 'open' | 'close';
      durationMinutes?: number;
    },
  ): Promise<BatchValveControlResult> {
    const targets = await this.db.tenant(auth, async (sql) => {
      if (input.groupId) {
        const group = await irrigationRepo.group(sql, input.groupId);
        if (!group)
          throw new AppError(400, 'validation.invalid', {
            fields: [{ field: 'groupId', key: 'validation.refMissing' }],
          });
        const devices = await irrigationRepo.devices(sql, [
          ...new Set(group.members.map((member) => member.deviceId)),
        ]);
        // Members outside the caller's zones are not theirs to control: RLS left them out.
        // With a zone too, only the group's channels in that zone (and the zones below).
        const zones = input.zoneId ? new Set(await this.zoneAndBelow(sql, input.zoneId)) : null;
        return devices
          .filter((device) => !zones || (device.zone_id !== null && zones.has(device.zone_id)))
          .map((device) => ({
            device,
            channels: group.members
              .filter((member) => member.deviceId === device.id)
              .map((member) => member.channel),
          }));
      }
      const { rows } = await sql.query('SELECT 1 FROM sys_zone WHERE id = $1', [input.zoneId]);
      if (!rows.length)
        throw new AppError(400, 'validation.invalid', {
          fields: [{ field: 'zoneId', key: 'validation.refMissing' }],
        });
      const devices = await irrigationRepo.valvesOfZone(sql, input.zoneId!);
      return devices.map((device) => ({
        device,
        channels: Array.from({ length: channelCount(device) }, (_, index) => index + 1),
      }));
    });
    if (targets.every((target) => target.channels.length === 0))
      throw new AppError(400, 'monitor.batchNoValves', {
        fields: [{ field: input.groupId ? 'groupId' : 'zoneId', key: 'monitor.batchNoValves' }],
      });
    const devices: BatchDeviceResult[] = [];
    for (const { device, channels } of targets) {
      const result: BatchDeviceResult = {
        deviceId: device.id,
        deviceNo: device.device_no,
        deviceName: device.device_name,
        accepted: 0,
        refused: 0,
        channels: [],
      };
      for (const channel of channels) {
        try {
          const view = await this.commands.send(auth, {
            deviceId: device.id,
            name: input.action === 'open' ? 'openValve' : 'closeValve',
            params:
              input.action === 'open'
                ? { channel, durationMinutes: input.durationMinutes }
                : { channel },
            expiresInSeconds:
              input.action === 'open' ? BATCH_OPEN_EXPIRES_SECONDS : BATCH_CLOSE_EXPIRES_SECONDS,
          });
          result.accepted += 1;
          result.channels.push({
            channel,
            accepted: true,
            commandId: view.id,
            status: view.status,
            message: null,
          });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          result.refused += 1;
          result.channels.push({
            channel,
            accepted: false,
            commandId: null,
            status: null,
            message: messageOf(lang, error),
          });
        }
      }
      devices.push(result);
    }
    return {
      accepted: devices.reduce((sum, one) => sum + one.accepted, 0),
      refused: devices.reduce((sum, one) => sum + one.refused, 0),
      devices,
    };
  }

  /**
   * Water delivered by the irrigation valves per zone and day, week or month of the tenant's
   * calendar (the daily meter increases, counter resets included), and each channel's open hours.
   */
  async waterDelivered(
    auth: AuthContext,
    query: { start: string; end: string; bucket: 'day' | 'week' | 'month'; zoneId?: string },
  ): Promise<WaterDelivered> {
    if (query.end < query.start)
      throw new AppError(400, 'validation.invalid', {
        fields: [{ field: 'end', key: 'validation.invalid' }],
      });
    return this.db.tenant(auth, async (sql) => {
      const timeZone = await tenantTimeZone(sql);
      const zoneIds = query.zoneId ? await this.zoneAndBelow(sql, query.zoneId) : null;
      const deviceIds = zoneIds
        ? (
            await sql.query<{ id: string }>(
              'SELECT id::text FROM iot_device WHERE zone_id = ANY ($1::bigint[])',
              [zoneIds],
            )
          ).rows.map((row) => row.id)
        : undefined;
      const rows = await waterDeliveredRepo.byPeriod(sql, {
        kinds: ['irrigation_valve'],
        from: query.start,
        to: query.end,
        bucket: query.bucket,
        groupBy: 'zone',
        ...(deviceIds ? { deviceIds } : {}),
      });
      const names = new Map(
        (
          await sql.query<{ id: string; zone_name: string }>(
            'SELECT id::text, zone_name FROM sys_zone WHERE id = ANY ($1::bigint[])',
            [[...new Set(rows.flatMap((row) => (row.groupId ? [row.groupId] : [])))]],
          )
        ).rows.map((row) => [row.id, row.zone_name]),
      );
      const { rows: bounds } = await sql.query<{ from: Date; to: Date }>(
        `SELECT ($1::date)::timestamp AT TIME ZONE $3 AS from,
                ($2::date + 1)::timestamp AT TIME ZONE $3 AS to`,
        [query.start, query.end, timeZone],
      );
      const hours = await openHours(sql, { ...bounds[0]!, zoneIds });
      const volumes = rows.map((row) => ({
        bucket: row.bucket,
        zoneId: row.groupId,
        zoneName: row.groupId ? (names.get(row.groupId) ?? null) : null,
        volume: Math.round(row.volume * 1000) / 1000,
      }));
      return {
        volumes,
        openHours: hours.map((row) => ({
          deviceId: row.device_id,
          deviceNo: row.device_no,
          deviceName: row.device_name,
          zoneId: row.zone_id,
          channel: row.channel,
          hours: row.hours,
        })),
        total: Math.round(volumes.reduce((sum, row) => sum + row.volume, 0) * 1000) / 1000,
      };
    });
  }

  /** The newest runs of rotation schedules or soil rules (one, or all), with their decisions. */
  async scheduleRuns(
    auth: AuthContext,
    query: { kind: 'rotation' | 'soilRule'; id?: string; limit: number },
  ): Promise<ScheduleRun[]> {
    return this.db.tenant(auth, async (sql) => {
      const patterns =
        query.kind === 'rotation'
          ? query.id
            ? [rotationStartKey(query.id), `${rotationStepPrefix(query.id)}%`]
            : ['irrigation:rotation:%', 'irrigation:rotation-step:%']
          : [query.id ? soilRuleKey(query.id) : 'irrigation:soil-rule:%'];
      const { rows } = await sql.query<{
        id: string;
        key: string;
        fire_at: Date;
        finished_at: Date | null;
        state: string;
        node: string;
        attempt: number;
        result: Record<string, unknown> | null;
        error: string | null;
      }>(
        `SELECT id::text, key, fire_at, finished_at, state, node, attempt, result, error
           FROM scheduler_run r WHERE key LIKE ANY ($1::text[])
          ORDER BY r.fire_at DESC, r.id DESC LIMIT $2`,
        [patterns, query.limit],
      );
      const ownerOf = (key: string) => {
        const parts = key.split(':');
        return { ownerId: parts[2] ?? '', what: parts[1] };
      };
      const table =
        query.kind === 'rotation'
          ? 'SELECT id::text, schedule_name AS name FROM monitor_rotation_schedule'
          : 'SELECT id::text, rule_name AS name FROM monitor_soil_moisture_rule';
      const names = new Map(
        (await sql.query<{ id: string; name: string }>(table)).rows.map((row) => [
          row.id,
          row.name,
        ]),
      );
      return rows.map((row) => {
        const { ownerId, what } = ownerOf(row.key);
        return {
          id: row.id,
          ownerId,
          ownerName: names.get(ownerId) ?? null,
          what: what === 'rotation-step' ? 'step' : what === 'rotation' ? 'start' : 'evaluate',
          fireAt: row.fire_at.toISOString(),
          finishedAt: row.finished_at?.toISOString() ?? null,
          state: row.state,
          node: row.node,
          attempt: row.attempt,
          decision: typeof row.result?.decision === 'string' ? row.result.decision : null,
          reason: typeof row.result?.reason === 'string' ? row.result.reason : null,
          result: row.result,
          error: row.error,
        };
      });
    });
  }

  /**
   * Ends a rotation under way: its remaining steps are cancelled and its channels let go (the
   * open ones close on their timers, or by hand now that nothing holds them). Its daily start
   * stays: the next day runs as planned.
   */
  async stopRotation(auth: AuthContext, scheduleId: string): Promise<{ stoppedSteps: number }> {
    return this.db.tenant(auth, async (sql) => {
      const schedule = await irrigationRepo.rotation(sql, scheduleId);
      if (!schedule) throw notFound('error.recordNotFound');
      const stoppedSteps = await cancelPrefix(sql, rotationStepPrefix(scheduleId));
      await irrigationRepo.releaseHolds(sql, rotationHolder(scheduleId));
      return { stoppedSteps };
    });
  }

  private async zoneAndBelow(sql: Sql, zoneId: string): Promise<string[]> {
    const { rows } = await sql.query<{ id: string }>(
      `WITH RECURSIVE below(id) AS (
         SELECT id FROM sys_zone WHERE id = $1
         UNION SELECT z.id FROM sys_zone z JOIN below ON z.zone_parent = below.id)
       SELECT id::text FROM below`,
      [zoneId],
    );
    return rows.map((row) => row.id);
  }
}

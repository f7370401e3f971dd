import { alarmRuleEntity, type EntityDef } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import { EVERYTHING } from '../../db/announced-cache';
import type { Database } from '../../db/database';
import type { EntityHooks } from '../../entity/entity-hooks';
import { alarmRuleHooks } from './alarm/alarm-rule.hooks';
import { alarmModule } from './alarm/alarm.module';
import { commandModule } from './command/command.module';
import type { CommandService } from './command/command.service';
import type { AlarmService } from './alarm/alarm.service';
import { announceDeviceModelChanges } from './device/device-model-announcements';
import type { IotModel } from './device/iot-model.module';
import { presencePush } from './telemetry/presence-push';
import { registerTelemetryModule } from './telemetry/telemetry.module';

declare module 'fastify' {
  interface FastifyInstance {
    /** Commands to devices: guards (command-guards.ts) and the server's own commands. */
    commands: CommandService;
    /** Alarms: area modules raise conditions they judge (AlarmService.judged). */
    alarms: AlarmService;
  }
}

/** Every IoT entity's own rules, for the generic entity routes. */
export function iotEntityHookMap(model: IotModel): Map<EntityDef, EntityHooks> {
  return new Map([...model.hooks, [alarmRuleEntity, alarmRuleHooks]]);
}

/**
 * The IoT engine behind the device transport (docs/iot.md): commands and alarms listen to what
 * ingestion stores; device and product writes drop the ingest directory's cached identities.
 * Needs app.deviceTransport, app.deviceChanges and app.deviceCredentials (app.ts decorates them
 * first).
 */
export async function registerIot(app: FastifyInstance, deps: { db: Database }): Promise<void> {
  const transport = app.deviceTransport;
  const commands = await commandModule(app, { db: deps.db, transport });
  // The area modules register their command guards on it and send the server's own commands.
  app.decorate('commands', commands);
  const alarms = await alarmModule(app, { db: deps.db, transport });
  // Area modules raise the alarms they judge themselves (a drought) through it.
  app.decorate('alarms', alarms);
  const telemetry = await registerTelemetryModule(app, {
    db: deps.db,
    transport,
    listeners: [commands, alarms, presencePush(transport, app.log)],
  });
  app.deviceChanges.subscribe((tenantId, deviceId) =>
    telemetry.directory.invalidate(tenantId, deviceId),
  );
  // Those made through other nodes are announced by the database.
  const modelChanges = announceDeviceModelChanges(deps.db, telemetry.directory);
  app.addHook('onReady', () => modelChanges.start());
  app.addHook('onClose', () => modelChanges.stop());
  // Ended identities are announced to every node, whichever made the change.
  app.deviceCredentials.onIdentityEnded((ended) =>
    ended === EVERYTHING
      ? telemetry.directory.clear()
      : telemetry.directory.invalidate(ended.tenantId, ended.deviceId),
  );
}

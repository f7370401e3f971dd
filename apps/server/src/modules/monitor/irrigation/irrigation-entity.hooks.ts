import {
  parseRotationStep,
  parseValveMember,
  ROTATION_STEP_MINUTES,
  rotationScheduleEntity,
  soilMoistureRuleEntity,
  valveGroupEntity,
  type EntityDef,
} from '@shuili/contract';
import type { Sql } from '../../../db/database';
import type { EntityContext, EntityHooks } from '../../../entity/entity-hooks';
import type { Row } from '../../../entity/entity-repo';
import { AppError, type FieldProblem } from '../../../http/app-error';
import { thingModelOf } from '../../iot/command/command-params';
import { mergedRow, refuseProblems } from '../entity-rows';
import { cancel, cancelPrefix, scheduleRecurring } from '../../scheduler/scheduler.service';
import { irrigationRepo } from './irrigation.repo';
import {
  ROTATION_START,
  rotationHolder,
  rotationStartKey,
  rotationStepPrefix,
  SOIL_RULE,
  SOIL_RULE_EVERY_SECONDS,
  soilRuleHolder,
  soilRuleKey,
} from './irrigation-keys';

const merged = mergedRow;
const refuse = refuseProblems;

/** The channels a valve controller has: its openValve command's channel range. */
function channelsOf(thingModel: unknown): number {
  const model = thingModelOf(thingModel);
  const param = model.commands
    .find((command) => command.key === 'openValve')
    ?.params.find((one) => one.key === 'channel');
  return param?.max ?? 0;
}

/** Each member one channel of one irrigation valve of the tenant, none twice. */
async function checkMembers(sql: Sql, members: unknown): Promise<void> {
  const values = Array.isArray(members) ? members.map(String) : [];
  const parsed = values.map((value) => ({ value, member: parseValveMember(value) }));
  const devices = await irrigationRepo.devices(sql, [
    ...new Set(parsed.flatMap((one) => (one.member ? [one.member.deviceId] : []))),
  ]);
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  for (const { value, member } of parsed) {
    if (!member) {
      problems.push({ field: 'members', key: 'monitor.valveMemberInvalid', params: { value } });
      continue;
    }
    const device = devices.find((one) => one.id === member.deviceId);
    const name = device ? device.device_name || device.device_no : member.deviceId;
    if (!device || device.kind !== 'irrigation_valve') {
      problems.push({
        field: 'members',
        key: 'monitor.valveMemberNotValve',
        params: { device: name },
      });
      continue;
    }
    const max = channelsOf(device.thing_model);
    if (member.channel < 1 || member.channel > max)
      problems.push({
        field: 'members',
        key: 'monitor.valveMemberNoChannel',
        params: { device: name, channel: member.channel, max },
      });
    const key = `${member.deviceId}:${member.channel}`;
    if (seen.has(key))
      problems.push({
        field: 'members',
        key: 'monitor.valveMemberTwice',
        params: { device: name, channel: member.channel },
      });
    seen.add(key);
  }
  refuse(problems);
}

/**
 * Valve groups: members checked on every write; a group a rotation schedule runs cannot be
 * deleted (soil rules refer to it by a reference, which the generic delete already guards).
 */
const valveGroupHooks: EntityHooks = {
  async beforeCreate(ctx, values) {
    await checkMembers(ctx.sql, values.members);
  },
  async beforeUpdate(ctx, id, values) {
    if (values.members !== undefined) await checkMembers(ctx.sql, values.members);
    void id;
  },
  async beforeDelete(ctx, ids) {
    for (const id of ids) {
      const [schedule] = await irrigationRepo.rotationsUsingGroup(ctx.sql, id);
      if (schedule) throw new AppError(409, 'monitor.valveGroupInUse', { params: { schedule } });
    }
  },
};

async function checkSteps(sql: Sql, steps: unknown): Promise<void> {
  const values = Array.isArray(steps) ? steps.map(String) : [];
  const problems: FieldProblem[] = [];
  for (const value of values) {
    const step = parseRotationStep(value);
    if (!step) {
      problems.push({ field: 'steps', key: 'monitor.rotationStepInvalid', params: { value } });
      continue;
    }
    if (step.minutes < ROTATION_STEP_MINUTES.min || step.minutes > ROTATION_STEP_MINUTES.max)
      problems.push({
        field: 'steps',
        key: 'monitor.rotationStepMinutes',
        params: { ...ROTATION_STEP_MINUTES },
      });
    if (!(await irrigationRepo.group(sql, step.groupId)))
      problems.push({
        field: 'steps',
        key: 'monitor.rotationStepGroup',
        params: { group: step.groupId },
      });
  }
  refuse(problems);
}

/** Stops a rotation under way: its remaining steps and its holds (open channels close on time). */
async function stopRotation(sql: Sql, scheduleId: string): Promise<void> {
  await cancelPrefix(sql, rotationStepPrefix(scheduleId));
  await irrigationRepo.releaseHolds(sql, rotationHolder(scheduleId));
}

/** Keeps a schedule's daily start trigger in step with the schedule, in the write's transaction. */
async function syncRotation(ctx: EntityContext, id: string): Promise<void> {
  const schedule = await irrigationRepo.rotation(ctx.sql, id);
  const key = rotationStartKey(id);
  if (!schedule || schedule.status !== 1 || !ctx.tenantId) {
    await cancel(ctx.sql, key);
    await stopRotation(ctx.sql, id);
    return;
  }
  const days = (schedule.days_of_week ?? []).map(Number).sort();
  await scheduleRecurring(ctx.sql, {
    tenantId: ctx.tenantId,
    kind: ROTATION_START,
    key,
    recurrence: {
      type: 'daily',
      at: schedule.start_time,
      ...(days.length ? { daysOfWeek: days } : {}),
    },
    payload: { scheduleId: id },
    maxAttempts: 3,
  });
}

const rotationScheduleHooks: EntityHooks = {
  async beforeCreate(ctx, values) {
    await checkSteps(ctx.sql, values.steps);
  },
  async beforeUpdate(ctx, _id, values) {
    if (values.steps !== undefined) await checkSteps(ctx.sql, values.steps);
  },
  afterCreate: async (ctx, id) => syncRotation(ctx, id),
  afterUpdate: async (ctx, id) => syncRotation(ctx, id),
  afterStatus: async (ctx, ids) => {
    for (const id of ids) await syncRotation(ctx, id);
  },
  beforeDelete: async (ctx, ids) => {
    for (const id of ids) {
      await cancel(ctx.sql, rotationStartKey(id));
      await stopRotation(ctx.sql, id);
    }
  },
};

async function checkSoilRule(ctx: EntityContext, id: string | undefined, values: Row) {
  const rule = await merged(ctx.sql, soilMoistureRuleEntity.table, id, values);
  const problems: FieldProblem[] = [];
  const start = Number(rule.startBelow);
  const stop = Number(rule.stopAbove);
  if (Number.isFinite(start) && Number.isFinite(stop) && stop <= start)
    problems.push({ field: 'stopAbove', key: 'monitor.stopAboveStart', params: { start } });
  if (rule.deviceId !== undefined && rule.deviceId !== null) {
    const [device] = await irrigationRepo.devices(ctx.sql, [String(rule.deviceId)]);
    if (device && device.kind !== 'soil_moisture')
      problems.push({ field: 'deviceId', key: 'monitor.soilStationKind' });
  }
  refuse(problems);
}

/** Keeps a soil rule's evaluation trigger in step with the rule; a stopped rule lets go. */
async function syncSoilRule(ctx: EntityContext, id: string): Promise<void> {
  const rule = await irrigationRepo.soilRule(ctx.sql, id);
  const key = soilRuleKey(id);
  if (!rule || rule.status !== 1 || !ctx.tenantId) {
    await cancel(ctx.sql, key);
    await irrigationRepo.releaseHolds(ctx.sql, soilRuleHolder(id));
    return;
  }
  await scheduleRecurring(ctx.sql, {
    tenantId: ctx.tenantId,
    kind: SOIL_RULE,
    key,
    recurrence: { type: 'interval', seconds: SOIL_RULE_EVERY_SECONDS },
    // The first evaluation at once: a new rule shows its decision without waiting 10 minutes.
    after: new Date(Date.now() - SOIL_RULE_EVERY_SECONDS * 1000),
    payload: { ruleId: id },
    maxAttempts: 2,
  });
}

const soilMoistureRuleHooks: EntityHooks = {
  beforeCreate: async (ctx, values) => checkSoilRule(ctx, undefined, values),
  beforeUpdate: async (ctx, id, values) => checkSoilRule(ctx, id, values),
  afterCreate: async (ctx, id) => syncSoilRule(ctx, id),
  afterUpdate: async (ctx, id) => syncSoilRule(ctx, id),
  afterStatus: async (ctx, ids) => {
    for (const id of ids) await syncSoilRule(ctx, id);
  },
  beforeDelete: async (ctx, ids) => {
    for (const id of ids) {
      await cancel(ctx.sql, soilRuleKey(id));
      await irrigationRepo.releaseHolds(ctx.sql, soilRuleHolder(id));
    }
  },
};

/** The irrigation entities' own rules, for the generic entity routes (app.ts moreHooks). */
export const IRRIGATION_ENTITY_HOOKS: ReadonlyArray<readonly [EntityDef, EntityHooks]> = [
  [valveGroupEntity, valveGroupHooks],
  [rotationScheduleEntity, rotationScheduleHooks],
  [soilMoistureRuleEntity, soilMoistureRuleHooks],
];

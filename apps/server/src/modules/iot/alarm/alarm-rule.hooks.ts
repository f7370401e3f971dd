import { ALARM_KIND_FIELDS } from '@shuili/contract';
import type { Sql } from '../../../db/database';
import type { EntityContext, EntityHooks } from '../../../entity/entity-hooks';
import type { Row } from '../../../entity/entity-repo';
import { AppError, type FieldProblem } from '../../../http/app-error';
import { thingModelOf } from '../command/command-params';
import { alarmRuleChanges } from './alarm-rule-cache';
import { alarmRepo } from './alarm.repo';

/** The threshold fields each kind needs. */
const NEEDS: Record<string, readonly string[]> = ALARM_KIND_FIELDS;

const CURRENT = `SELECT product_id::text AS "productId", device_id::text AS "deviceId",
  property_key AS "propertyKey", kind, low, high, rate_per_minute AS "ratePerMinute",
  no_data_minutes AS "noDataMinutes" FROM iot_alarm_rule WHERE id = $1`;

/** Numeric properties of the product (of the device, when the rule names one). */
async function numericKeys(sql: Sql, rule: Row): Promise<string[] | undefined> {
  const { rows } = await sql.query<{ thing_model: unknown }>(
    rule.deviceId
      ? `SELECT p.thing_model FROM iot_device d JOIN iot_product p ON p.id = d.product_id WHERE d.id = $1`
      : 'SELECT thing_model FROM iot_product WHERE id = $1',
    [rule.deviceId ?? rule.productId],
  );
  if (!rows[0]) return undefined;
  return thingModelOf(rows[0].thing_model)
    .properties.filter((property) => property.type !== 'string')
    .map((property) => property.key);
}

async function check(ctx: EntityContext, rule: Row): Promise<void> {
  const problems: FieldProblem[] = [];
  if (!rule.productId && !rule.deviceId)
    problems.push({ field: 'productId', key: 'iot.alarmRuleScope' });
  for (const field of NEEDS[String(rule.kind)] ?? [])
    if (rule[field] === null || rule[field] === undefined)
      problems.push({ field, key: 'iot.alarmThresholdRequired' });
  if (
    typeof rule.low === 'number' &&
    typeof rule.high === 'number' &&
    rule.kind === 'outside' &&
    rule.high < rule.low
  )
    problems.push({ field: 'high', key: 'iot.alarmLowAboveHigh' });
  if (problems.length === 0 && (rule.productId || rule.deviceId)) {
    const keys = await numericKeys(ctx.sql, rule);
    // A product whose thing model has no properties yet may get its rules first.
    if (keys && keys.length > 0 && !keys.includes(String(rule.propertyKey)))
      problems.push({
        field: 'propertyKey',
        key: 'iot.alarmUnknownProperty',
        params: { key: String(rule.propertyKey) },
      });
  }
  if (problems.length) throw new AppError(400, 'validation.invalid', { fields: problems });
}

/**
 * Alarm rules: a scope (product or device), the thresholds their kind needs, a property the
 * product measures; every write drops the rule cache, and a deleted or disabled rule clears its
 * open alarms (nothing else ever would).
 */
export const alarmRuleHooks: EntityHooks = {
  async beforeCreate(ctx, values) {
    await check(ctx, values);
  },
  async beforeUpdate(ctx, id, values) {
    const { rows } = await ctx.sql.query<Row>(CURRENT, [id]);
    if (!rows[0]) return;
    const merged: Row = { ...rows[0] };
    for (const [name, value] of Object.entries(values))
      if (value !== undefined) merged[name] = value;
    await check(ctx, merged);
  },
  async afterUpdate(ctx, id) {
    // A changed condition starts afresh rather than leaving an alarm no reading can clear.
    await alarmRepo.clearOfRules(ctx.sql, [id]);
  },
  async afterStatus(ctx, ids, status) {
    if (status === 0) await alarmRepo.clearOfRules(ctx.sql, ids);
  },
  async beforeDelete(ctx, ids) {
    await alarmRepo.clearOfRules(ctx.sql, ids);
  },
  afterWrite(ctx) {
    if (ctx.tenantId) alarmRuleChanges.emit('changed', ctx.tenantId);
  },
};

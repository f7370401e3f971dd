import {
  alarmRuleEntity,
  areaOf,
  THRESHOLD_KINDS,
  THRESHOLD_LEVELS,
  translate,
  type AreaDef,
  type AreaThreshold,
  type FactorThreshold,
  type Lang,
  type ThingProperty,
  type ThresholdKind,
  type ThresholdLevel,
  type saveAreaThresholdSchema,
} from '@shuili/contract';
import type { z } from 'zod';
import type { Database, Sql } from '../../../db/database';
import type { EntityContext } from '../../../entity/entity-hooks';
import { entityRepo, type Row } from '../../../entity/entity-repo';
import { AppError, type FieldProblem } from '../../../http/app-error';
import type { AuthContext } from '../../../http/request-context';
import { alarmRuleHooks } from '../../iot/alarm/alarm-rule.hooks';
import { thingModelOf } from '../../iot/device/device-directory';
import { fieldError } from '../../iot/telemetry/telemetry-query.service';
import {
  areaThresholdRepo,
  type AreaProductRow,
  type ThresholdRuleRow,
} from './area-threshold.repo';

type SaveInput = z.infer<typeof saveAreaThresholdSchema>;
type Scope = { productId: string; deviceId: string | null };

const isThresholdKind = (kind: string): kind is ThresholdKind =>
  (THRESHOLD_KINDS as readonly string[]).includes(kind);

/** The numeric properties of a product's thing model (what thresholds can watch). */
const numericProperties = (product: AreaProductRow): ThingProperty[] =>
  thingModelOf(product.thing_model).properties.filter((property) => property.type !== 'string');

/** A factor's rules as the screen edits them: warning, danger, no data (the first of each). */
function factorOf(property: ThingProperty, rules: ThresholdRuleRow[]): FactorThreshold {
  const level = (name: string) => {
    const rule = rules.find(
      (one) => one.property_key === property.key && one.level === name && isThresholdKind(one.kind),
    );
    return rule
      ? {
          ruleId: rule.id,
          kind: rule.kind as ThresholdKind,
          low: rule.low,
          high: rule.high,
          enabled: rule.status === 1,
          hysteresis: rule.hysteresis,
        }
      : null;
  };
  const warning = level(THRESHOLD_LEVELS.warning);
  const danger = level(THRESHOLD_LEVELS.danger);
  const noData = rules.find((one) => one.property_key === property.key && one.kind === 'noData');
  const strip = (stored: typeof warning) => {
    if (!stored) return null;
    const { hysteresis: _hysteresis, ...rest } = stored;
    return rest;
  };
  return {
    key: property.key,
    name: property.name,
    unit: property.unit ?? null,
    precision: property.precision ?? null,
    min: property.min ?? null,
    max: property.max ?? null,
    warning: strip(warning),
    danger: strip(danger),
    hysteresis: warning?.hysteresis ?? danger?.hysteresis ?? null,
    noData: noData?.no_data_minutes ? { ruleId: noData.id, minutes: noData.no_data_minutes } : null,
  };
}

/** Problems of one level's bounds: what its condition needs, low not above high. */
function levelProblems(name: string, level: ThresholdLevel | null): FieldProblem[] {
  if (!level) return [];
  const problems: FieldProblem[] = [];
  const needsLow = level.kind !== 'above';
  const needsHigh = level.kind !== 'below';
  if (needsLow && (level.low === null || level.low === undefined))
    problems.push({ field: `${name}.low`, key: 'monitor.threshold.lowRequired' });
  if (needsHigh && (level.high === null || level.high === undefined))
    problems.push({ field: `${name}.high`, key: 'monitor.threshold.highRequired' });
  if (level.kind === 'outside' && level.low != null && level.high != null && level.high < level.low)
    problems.push({ field: `${name}.high`, key: 'iot.alarmLowAboveHigh' });
  return problems;
}

/** Danger lies at or beyond warning when both watch the same side. */
function dangerProblems(warning: ThresholdLevel | null, danger: ThresholdLevel | null) {
  const problems: FieldProblem[] = [];
  if (!warning || !danger) return problems;
  const key = 'monitor.threshold.dangerInsideWarning';
  const watchesHigh = (level: ThresholdLevel) => level.kind !== 'below' && level.high != null;
  const watchesLow = (level: ThresholdLevel) => level.kind !== 'above' && level.low != null;
  if (watchesHigh(warning) && watchesHigh(danger) && danger.high! < warning.high!)
    problems.push({ field: 'danger.high', key });
  if (watchesLow(warning) && watchesLow(danger) && danger.low! > warning.low!)
    problems.push({ field: 'danger.low', key });
  return problems;
}

/**
 * Alarm thresholds of an area's factors, stored as its alarm rules (AlarmRule, product-level or
 * one device's): per factor a warning (yellow) and a danger (red) rule above, below or outside,
 * with one hysteresis, and a no-data rule. One factor is saved in one transaction through the
 * rule entity's own checks and hooks (the rule cache, open alarms of a changed rule): nothing is
 * half-written.
 */
export class AreaThresholdService {
  constructor(private readonly db: Database) {}

  query(
    auth: AuthContext,
    query: { area: string; productId?: string; deviceId?: string },
  ): Promise<AreaThreshold> {
    const area = areaOf(query.area)!;
    return this.db.tenant(auth, async (sql) => {
      const products = await areaThresholdRepo.products(sql, area.kinds);
      const scope = await this.scopeOf(sql, area, products, query.productId, query.deviceId, {
        optional: true,
      });
      const product = products.find((one) => one.id === scope?.productId);
      const rules = scope && product ? await areaThresholdRepo.rules(sql, scope) : [];
      return {
        products: products.map((one) => ({
          id: one.id,
          productName: one.product_name,
          serialNo: one.serial_no,
          deviceKind: one.device_kind,
        })),
        productId: scope?.productId ?? null,
        deviceId: scope?.deviceId ?? null,
        factors: product
          ? numericProperties(product).map((property) => factorOf(property, rules))
          : [],
      };
    });
  }

  save(auth: AuthContext, lang: Lang, input: SaveInput): Promise<FactorThreshold> {
    const area = areaOf(input.area)!;
    const problems = [
      ...levelProblems('warning', input.warning),
      ...levelProblems('danger', input.danger),
      ...dangerProblems(input.warning, input.danger),
    ];
    if (problems.length) throw new AppError(400, 'validation.invalid', { fields: problems });
    return this.db.tenant(auth, async (sql) => {
      const products = await areaThresholdRepo.products(sql, area.kinds);
      const scope = (await this.scopeOf(sql, area, products, input.productId, input.deviceId))!;
      const product = products.find((one) => one.id === scope.productId)!;
      const property = numericProperties(product).find((one) => one.key === input.propertyKey);
      if (!property)
        throw fieldError(400, 'propertyKey', 'iot.alarmUnknownProperty', {
          key: input.propertyKey,
        });
      const ctx: EntityContext = { sql, auth, lang, tenantId: auth.tenantId };
      const existing = factorOf(property, await areaThresholdRepo.rules(sql, scope, property.key));
      const name = (level: 'warning' | 'danger' | 'noData') =>
        translate(lang, 'monitor.threshold.ruleName', {
          area: area.title[lang],
          property: property.name[lang],
          level: translate(lang, `monitor.threshold.${level}`),
        }).slice(0, 100);
      const base = {
        productId: scope.productId,
        deviceId: scope.deviceId,
        propertyKey: property.key,
        status: 1,
      };
      const hysteresis = input.hysteresis ?? 0;
      for (const level of ['warning', 'danger'] as const) {
        const wanted = input[level];
        await this.put(
          ctx,
          existing[level]?.ruleId,
          wanted && {
            ...base,
            ruleName: name(level),
            kind: wanted.kind,
            low: wanted.kind === 'above' ? null : (wanted.low ?? null),
            high: wanted.kind === 'below' ? null : (wanted.high ?? null),
            ratePerMinute: null,
            noDataMinutes: null,
            hysteresis,
            level: THRESHOLD_LEVELS[level],
          },
        );
      }
      await this.put(
        ctx,
        existing.noData?.ruleId,
        input.noDataMinutes
          ? {
              ...base,
              ruleName: name('noData'),
              kind: 'noData',
              low: null,
              high: null,
              ratePerMinute: null,
              noDataMinutes: input.noDataMinutes,
              hysteresis: 0,
              level: THRESHOLD_LEVELS.noData,
            }
          : null,
      );
      await alarmRuleHooks.afterWrite?.(ctx);
      return factorOf(property, await areaThresholdRepo.rules(sql, scope, property.key));
    });
  }

  /** Writes one rule: updates it (only when it changes), adds it, or deletes it (null). */
  private async put(ctx: EntityContext, id: string | undefined, values: Row | null) {
    if (!values) {
      if (!id) return;
      await alarmRuleHooks.beforeDelete?.(ctx, [id]);
      await entityRepo.remove(ctx.sql, alarmRuleEntity, [id]);
      return;
    }
    if (!id) {
      await alarmRuleHooks.beforeCreate?.(ctx, values);
      await entityRepo.insert(ctx.sql, alarmRuleEntity, values, {
        tenant_id: ctx.tenantId,
        created_by: ctx.auth.userId,
        updated_by: ctx.auth.userId,
      });
      return;
    }
    const [stored] = await entityRepo.byIds(ctx.sql, alarmRuleEntity, [id]);
    if (stored && Object.entries(values).every(([name, value]) => sameValue(stored[name], value)))
      return;
    await alarmRuleHooks.beforeUpdate?.(ctx, id, values);
    await entityRepo.update(ctx.sql, alarmRuleEntity, id, values, {
      updated_by: ctx.auth.userId,
    });
    await alarmRuleHooks.afterUpdate?.(ctx, id, values);
  }

  /**
   * The scope of the thresholds: one device's (it must be visible, of an area product, and of
   * the product given) or a product's of the area (the area's first when none is given and
   * `optional`).
   */
  private async scopeOf(
    sql: Sql,
    area: AreaDef,
    products: AreaProductRow[],
    productId: string | undefined,
    deviceId: string | null | undefined,
    options: { optional?: boolean } = {},
  ): Promise<Scope | undefined> {
    if (deviceId) {
      const device = await areaThresholdRepo.device(sql, deviceId);
      if (!device) throw fieldError(404, 'deviceId', 'iot.deviceNotFound');
      if (productId && productId !== device.product_id)
        throw fieldError(400, 'deviceId', 'monitor.threshold.deviceNotOfProduct');
      if (!products.some((one) => one.id === device.product_id))
        throw fieldError(400, 'deviceId', 'monitor.threshold.productNotInArea');
      return { productId: device.product_id, deviceId };
    }
    if (!productId) {
      if (options.optional)
        return products[0] ? { productId: products[0].id, deviceId: null } : undefined;
      throw fieldError(400, 'productId', 'validation.required');
    }
    if (!products.some((one) => one.id === productId))
      throw fieldError(400, 'productId', 'monitor.threshold.productNotInArea');
    return { productId, deviceId: null };
  }
}

/** Stored values as rows answer them (ids as text, numbers as numbers) against wanted ones. */
function sameValue(stored: unknown, wanted: unknown): boolean {
  if (wanted === null || wanted === undefined) return stored === null || stored === undefined;
  return String(stored) === String(wanted);
}

import { BILLING_MODES, label, wellBillingEntity } from '@shuili/contract';
import type { EntityContext, EntityHooks } from '../../../entity/entity-hooks';
import type { Row } from '../../../entity/entity-repo';
import type { FieldProblem } from '../../../http/app-error';
import { mergedRow, refuseProblems } from '../../monitor/entity-rows';
import { cardControllerProblem } from './device-kind';

/** The price a billing mode charges by, besides the household's tiered price per m³. */
const PRICE_OF_MODE: Record<string, string | undefined> = {
  kwh: 'pricePerKwh',
  time: 'pricePerHour',
};

/** A well's settings belong to a card controller, and a mode by kWh or time has its price. */
async function checkSetting(ctx: EntityContext, id: string | undefined, values: Row) {
  const setting = await mergedRow(ctx.sql, wellBillingEntity.table, id, values);
  const problems: FieldProblem[] = [];
  const device =
    'deviceId' in values ? await cardControllerProblem(ctx.sql, setting.deviceId) : undefined;
  if (device) problems.push(device);
  const mode = String(setting.billingMode ?? 'm3');
  const price = PRICE_OF_MODE[mode];
  if (price && (setting[price] === null || setting[price] === undefined)) {
    const name =
      BILLING_MODES.find((option) => option.value === mode)?.label ?? label(mode, mode, mode);
    problems.push({ field: price, key: 'billing.priceNeeded', params: { mode: name[ctx.lang] } });
  }
  refuseProblems(problems);
}

/** The wells' billing settings' rules, for the generic entity routes. */
export const wellBillingHooks: EntityHooks = {
  beforeCreate: async (ctx, values) => checkSetting(ctx, undefined, values),
  beforeUpdate: async (ctx, id, values) => checkSetting(ctx, id, values),
};

import { defineEntity, f, label } from '../../entity-kit';
import { DEVICE_TARGET } from '../iot/targets';
import {
  IRRIGATION_CONFIG_SCREEN,
  IRRIGATION_PATH,
  SOIL_DEPTHS,
  VALVE_GROUP_TARGET,
} from './irrigation-targets';

const LAST_DECISION_SQL = `SELECT r.result ->> 'reason' FROM scheduler_run r
  WHERE r.tenant_id = t.tenant_id AND r.key = 'irrigation:soil-rule:' || t.id
    AND r.result IS NOT NULL
  ORDER BY r.fire_at DESC, r.id DESC LIMIT 1`;

const PERCENT = { min: 0, max: 100, precision: 1 } as const;

/**
 * A soil-moisture rule (墒情灌溉规则): every 10 minutes the server reads the soil station's
 * moisture at the chosen depth; below `startBelow` it opens the valve group (for at most
 * `maxMinutes`), above `stopAbove` it closes it; it skips opening when more than `rainSkipMm`
 * fell in the last 24 h at the tenant's weather station nearest to the soil station.
 */
export const soilMoistureRuleEntity = defineEntity({
  name: 'SoilMoistureRule',
  title: label('Soil-moisture rules', '墒情灌溉规则', '墒情灌溉規則'),
  table: 'monitor_soil_moisture_rule',
  path: IRRIGATION_PATH,
  route: IRRIGATION_CONFIG_SCREEN,
  menuCode: 'soilMoistureRule',
  scope: 'tenant',
  fields: {
    ruleName: f.text({
      label: label('Rule', '规则名称', '規則名稱'),
      required: true,
      max: 64,
      unique: true,
      sortable: true,
    }),
    deviceId: f.ref({
      label: label('Soil station', '墒情站', '墒情站'),
      required: true,
      target: DEVICE_TARGET,
    }),
    groupId: f.ref({
      label: label('Valve group', '轮灌组', '輪灌組'),
      required: true,
      target: VALVE_GROUP_TARGET,
    }),
    depth: f.enumOf({
      label: label('Depth', '深度', '深度'),
      required: true,
      defaultValue: '20',
      options: SOIL_DEPTHS.map((depth) => ({
        value: depth,
        label: label(`${depth} cm`, `${depth}cm`, `${depth}cm`),
      })),
    }),
    startBelow: f.decimal({
      label: label('Start below (%)', '低于此值开灌(%)', '低於此值開灌(%)'),
      required: true,
      ...PERCENT,
    }),
    stopAbove: f.decimal({
      label: label('Stop above (%)', '高于此值停灌(%)', '高於此值停灌(%)'),
      required: true,
      ...PERCENT,
    }),
    rainSkipMm: f.decimal({
      label: label(
        'Skip after rain over (mm / 24 h)',
        '24小时降雨超过(mm)则跳过',
        '24小時降雨超過(mm)則跳過',
      ),
      min: 0,
      max: 500,
      precision: 1,
    }),
    maxMinutes: f.int({
      label: label('Open at most (min)', '单次最长(分钟)', '單次最長(分鐘)'),
      required: true,
      defaultValue: 120,
      min: 1,
      max: 1440,
    }),
    lastDecision: f.text({
      label: label('Last decision', '最近决策', '最近決策'),
      readOnly: true,
      search: undefined,
      computed: LAST_DECISION_SQL,
    }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
    status: f.status(),
  },
});

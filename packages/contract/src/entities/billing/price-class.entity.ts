import { defineEntity, f, label } from '../../entity-kit';
import { DEVICE_TARGET } from '../iot/targets';
import { BILLING_PATH, BILLING_SCREENS, PRICE_CLASS_TARGET } from './billing-targets';

/** Billing modes of a well (RESEARCH.md "Card-swipe"): what its sessions are charged by. */
export const BILLING_MODES = [
  { value: 'm3', label: label('By water (m³)', '按水量计费', '按水量計費') },
  { value: 'kwh', label: label('By electricity (kWh)', '按电量计费', '按電量計費') },
  { value: 'time', label: label('By time (hours)', '按时长计费', '按時長計費') },
  {
    value: 'energyToWater',
    label: label('Electricity converted to water', '以电折水', '以電折水'),
  },
] as const;
export type BillingMode = (typeof BILLING_MODES)[number]['value'];

/**
 * A price class (one per crop class: grain, cash crops, aquaculture): the base price within the
 * household's quota, in fen per m³ with up to 2 decimals (3.00 fen = 0.03 yuan/m³), and the
 * yearly quota per mu a household's water right starts from.
 */
export const priceClassEntity = defineEntity({
  name: 'PriceClass',
  title: label('Water prices', '水价类别', '水價類別'),
  table: 'billing_price_class',
  path: `${BILLING_PATH}/priceClass`,
  route: BILLING_SCREENS.waterSet,
  menuCode: 'waterSet',
  scope: 'tenant',
  defaultSort: { field: 'basePrice', order: 'ascend' },
  fields: {
    className: f.text({
      label: label('Crop class', '作物类别', '作物類別'),
      required: true,
      max: 64,
      unique: true,
      sortable: true,
    }),
    basePrice: f.decimal({
      label: label('Base price (fen/m³)', '基础水价(分/m³)', '基礎水價(分/m³)'),
      required: true,
      min: 0,
      max: 100_000,
      precision: 2,
    }),
    quotaPerMu: f.decimal({
      label: label('Quota (m³/mu/year)', '定额(m³/亩/年)', '定額(m³/畝/年)'),
      required: true,
      min: 0,
      max: 100_000,
      precision: 2,
    }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
  },
});

/**
 * A tier above the quota of a price class: use more than the quota by up to `overQuotaPercent`
 * (empty: without upper bound) is charged at `multiplier` × the base price. Tiers of a class
 * follow each other without gaps (each starts where the one below ends) and their multipliers
 * never decrease; the server refuses a tier breaking that.
 */
export const priceTierEntity = defineEntity({
  name: 'PriceTier',
  title: label('Tiered prices', '超定额阶梯', '超定額階梯'),
  table: 'billing_price_tier',
  path: `${BILLING_PATH}/priceTier`,
  route: BILLING_SCREENS.waterSet,
  menuCode: 'priceTier',
  scope: 'tenant',
  defaultSort: { field: 'overQuotaPercent', order: 'ascend' },
  fields: {
    priceClassId: f.ref({
      label: label('Crop class', '作物类别', '作物類別'),
      required: true,
      target: PRICE_CLASS_TARGET,
      onDelete: 'cascade',
    }),
    overQuotaPercent: f.decimal({
      label: label('Up to % over quota', '超定额上限(%)', '超定額上限(%)'),
      min: 0.01,
      max: 10_000,
      precision: 2,
    }),
    multiplier: f.decimal({
      label: label('Price multiplier', '加价倍数', '加價倍數'),
      required: true,
      min: 1,
      max: 100,
      precision: 2,
    }),
  },
});

/**
 * How a well (a card controller) charges its sessions: by m³ (the household's tiered price), by
 * kWh or hour at its own price (fen, up to 2 decimals), or its kWh converted to m³ with the
 * coefficient valid at the session's start (WaterCoefficient) and then the tiered price.
 */
export const wellBillingEntity = defineEntity({
  name: 'WellBilling',
  title: label('Well billing', '机井计费', '機井計費'),
  table: 'billing_well_setting',
  path: `${BILLING_PATH}/wellBilling`,
  route: BILLING_SCREENS.waterSet,
  menuCode: 'wellBilling',
  scope: 'tenant',
  fields: {
    deviceId: f.ref({
      label: label('Well controller', '机井控制器', '機井控制器'),
      required: true,
      unique: true,
      target: DEVICE_TARGET,
      onDelete: 'cascade',
    }),
    billingMode: f.enumOf({
      label: label('Billing mode', '计费方式', '計費方式'),
      required: true,
      options: BILLING_MODES,
      defaultValue: 'm3',
    }),
    pricePerKwh: f.decimal({
      label: label('Price per kWh (fen)', '电价(分/kWh)', '電價(分/kWh)'),
      min: 0,
      max: 100_000,
      precision: 2,
    }),
    pricePerHour: f.decimal({
      label: label('Price per hour (fen)', '时价(分/小时)', '時價(分/小時)'),
      min: 0,
      max: 1_000_000,
      precision: 2,
    }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
  },
});

/**
 * A well's electricity-to-water coefficient (m³ per kWh) from its date on, with the measured
 * volume and energy it was calibrated from: published with its history, since farmers distrust
 * a hidden one. A session is converted with the coefficient valid at its start.
 */
export const waterCoefficientEntity = defineEntity({
  name: 'WaterCoefficient',
  title: label('Electricity-to-water coefficients', '以电折水系数', '以電折水係數'),
  table: 'billing_water_coefficient',
  path: `${BILLING_PATH}/waterCoefficient`,
  route: BILLING_SCREENS.waterSet,
  menuCode: 'waterCoefficient',
  scope: 'tenant',
  defaultSort: { field: 'validFrom', order: 'descend' },
  uniqueTogether: [['validFrom', 'deviceId']],
  fields: {
    deviceId: f.ref({
      label: label('Well controller', '机井控制器', '機井控制器'),
      required: true,
      target: DEVICE_TARGET,
      onDelete: 'cascade',
    }),
    coefficient: f.decimal({
      label: label('Coefficient (m³/kWh)', '折算系数(m³/kWh)', '折算係數(m³/kWh)'),
      // Not "coefficient": the table's name holds that word, and constraint names are read for
      // the field a refusal names (entity-errors.ts).
      column: 'm3_per_kwh',
      required: true,
      min: 0.0001,
      max: 1000,
      precision: 4,
    }),
    validFrom: f.datetime({
      label: label('Valid from', '生效时间', '生效時間'),
      required: true,
    }),
    measuredVolume: f.decimal({
      label: label('Measured volume (m³)', '率定水量(m³)', '率定水量(m³)'),
      min: 0,
      max: 10_000_000,
      precision: 2,
    }),
    measuredEnergy: f.decimal({
      label: label('Measured energy (kWh)', '率定电量(kWh)', '率定電量(kWh)'),
      min: 0,
      max: 10_000_000,
      precision: 2,
    }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
  },
});

import { defineEntity, f, label } from '../../entity-kit';
import { THING_KEY } from './targets';

/**
 * The catalogue of measured quantities (water level, rainfall, soil moisture ...). The name is
 * stored in one language (the seed writes Chinese, the language of the districts); the seeded
 * catalogue in packages/contract/src/iot/factors.ts keeps all three for screens that know the code.
 */
export const iotFactorEntity = defineEntity({
  name: 'IotFactor',
  title: label('Factors', '监测因子', '監測因子'),
  table: 'iot_factor',
  path: '/api/iot/factor',
  route: '/factorList',
  menuCode: 'iotfactor',
  scope: 'tenant',
  defaultSort: { field: 'factorCode', order: 'ascend' },
  fields: {
    factorCode: f.text({
      label: label('Factor code', '因子编码', '因子編碼'),
      required: true,
      max: 64,
      unique: true,
      sortable: true,
      pattern: THING_KEY,
    }),
    factorName: f.text({
      label: label('Factor name', '因子名称', '因子名稱'),
      required: true,
      max: 64,
    }),
    unit: f.text({ label: label('Unit', '单位', '單位'), max: 16, search: undefined }),
    precision: f.int({
      label: label('Decimal places', '小数位数', '小數位數'),
      required: true,
      defaultValue: 2,
      max: 6,
    }),
    minValue: f.decimal({
      label: label('Minimum', '最小值', '最小值'),
      min: -1e9,
      max: 1e9,
      precision: 6,
    }),
    maxValue: f.decimal({
      label: label('Maximum', '最大值', '最大值'),
      min: -1e9,
      max: 1e9,
      precision: 6,
    }),
    category: f.dict({ label: label('Category', '类别', '類別'), dictType: 'factor_category' }),
    status: f.status(),
  },
});

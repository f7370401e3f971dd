import { defineEntity, f, label } from '../../entity-kit';
import { TRACE_GTIN_PATTERN, TRACE_PLANT_CATEGORIES } from './trace-options';
import { TRACE_PATH, TRACE_SCREENS } from './trace-targets';

/**
 * A variety (品种): crop and variety, category, the GTIN its packages carry by default (check
 * digit verified by the server) and its growth period.
 */
export const tracePlantEntity = defineEntity({
  name: 'TracePlant',
  title: label('Varieties', '品种管理', '品種管理'),
  table: 'trace_plant',
  path: `${TRACE_PATH}/plant`,
  route: TRACE_SCREENS.plant,
  menuCode: 'tracePlant',
  scope: 'tenant',
  uniqueTogether: [['cropName', 'variety']],
  fields: {
    cropName: f.text({
      label: label('Crop', '作物', '作物'),
      required: true,
      max: 64,
      sortable: true,
    }),
    variety: f.text({
      label: label('Variety', '品种', '品種'),
      required: true,
      max: 64,
      sortable: true,
    }),
    category: f.enumOf({
      label: label('Category', '类别', '類別'),
      required: true,
      options: TRACE_PLANT_CATEGORIES,
      defaultValue: 'grain',
    }),
    gtin: f.text({
      label: label('Product GTIN', '商品条码(GTIN)', '商品條碼(GTIN)'),
      max: 14,
      pattern: TRACE_GTIN_PATTERN,
    }),
    growthDays: f.int({
      label: label('Growth period (days)', '生长周期(天)', '生長週期(天)'),
      min: 1,
      max: 1000,
    }),
    description: f.textarea({ label: label('Description', '品种介绍', '品種介紹'), max: 2000 }),
  },
});

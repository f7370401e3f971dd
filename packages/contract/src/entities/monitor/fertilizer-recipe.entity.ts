import { defineEntity, f, label } from '../../entity-kit';
import { FERTIGATION_PATH, FERTIGATION_SCREEN } from './fertigation-targets';

/** Crop stages a recipe is made for (DOMAINS.md "Recipes: ... per crop stage"). */
export const CROP_STAGES = [
  { value: 'seedling', label: label('Seedling', '苗期', '苗期') },
  { value: 'vegetative', label: label('Vegetative', '营养生长期', '營養生長期') },
  { value: 'flowering', label: label('Flowering', '开花期', '開花期') },
  { value: 'fruiting', label: label('Fruit set and swelling', '坐果膨大期', '坐果膨大期') },
  { value: 'ripening', label: label('Ripening', '成熟期', '成熟期') },
  { value: 'whole', label: label('Whole season', '全生育期', '全生育期') },
] as const;

/** A channel's share of the mix, in parts (A : B : C : acid). */
const RATIO = { min: 0, max: 100, precision: 2, list: true } as const;

/**
 * A fertigation recipe: the EC and pH a machine mixes to for a crop at a stage, and how its
 * fertilizer channels share the dosing. Its targets go to the machine as the setRecipe command
 * when a program using it starts (with the ratios where the product's command takes them).
 */
export const fertilizerRecipeEntity = defineEntity({
  name: 'FertilizerRecipe',
  title: label('Fertilizer recipes', '施肥配方', '施肥配方'),
  table: 'monitor_fertilizer_recipe',
  path: FERTIGATION_PATH,
  route: FERTIGATION_SCREEN,
  menuCode: 'fertilizerRecipe',
  scope: 'tenant',
  fields: {
    recipeName: f.text({
      label: label('Recipe', '配方名称', '配方名稱'),
      required: true,
      max: 64,
      unique: true,
      sortable: true,
    }),
    crop: f.text({ label: label('Crop', '作物', '作物'), required: true, max: 64 }),
    stage: f.enumOf({
      label: label('Crop stage', '生育期', '生育期'),
      required: true,
      options: CROP_STAGES,
    }),
    targetEc: f.decimal({
      label: label('Target EC (mS/cm)', '目标EC(mS/cm)', '目標EC(mS/cm)'),
      required: true,
      min: 0,
      max: 10,
      precision: 2,
    }),
    targetPh: f.decimal({
      label: label('Target pH', '目标pH', '目標pH'),
      required: true,
      min: 4,
      max: 9,
      precision: 2,
    }),
    ratioA: f.decimal({ label: label('Channel A', 'A通道', 'A通道'), ...RATIO, defaultValue: 1 }),
    ratioB: f.decimal({ label: label('Channel B', 'B通道', 'B通道'), ...RATIO, defaultValue: 1 }),
    ratioC: f.decimal({ label: label('Channel C', 'C通道', 'C通道'), ...RATIO, defaultValue: 0 }),
    ratioAcid: f.decimal({ label: label('Acid', '酸液', '酸液'), ...RATIO, defaultValue: 0 }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
    status: f.status(),
  },
});

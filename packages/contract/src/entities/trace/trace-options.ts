import { label } from '../../entity-kit/label';

/** Languages a producer's compliance certificate is printed in. */
export const TRACE_CERT_LANGUAGES = [
  { value: 'zh', label: label('Simplified Chinese', '简体中文', '簡體中文') },
  { value: 'tw', label: label('Traditional Chinese', '繁体中文', '繁體中文') },
  { value: 'en', label: label('English', '英文', '英文') },
] as const;

export const TRACE_PLANT_CATEGORIES = [
  { value: 'grain', label: label('Grain', '粮食作物', '糧食作物') },
  { value: 'vegetable', label: label('Vegetable', '蔬菜', '蔬菜') },
  { value: 'fruit', label: label('Fruit', '水果', '水果') },
  { value: 'oil', label: label('Oil crop', '油料作物', '油料作物') },
  { value: 'tea', label: label('Tea', '茶叶', '茶葉') },
  { value: 'other', label: label('Other', '其他', '其他') },
] as const;

export const TRACE_PLANTING_STATES = [
  { value: 'growing', label: label('Growing', '生长中', '生長中') },
  { value: 'harvested', label: label('Harvested', '已采收', '已採收') },
  { value: 'ended', label: label('Ended', '已结束', '已結束') },
] as const;

export const TRACE_GROWTH_STAGES = [
  { value: 'seedling', label: label('Seedling', '苗期', '苗期') },
  { value: 'vegetative', label: label('Vegetative', '营养生长期', '營養生長期') },
  { value: 'flowering', label: label('Flowering', '开花期', '開花期') },
  { value: 'fruiting', label: label('Fruiting', '结果期', '結果期') },
  { value: 'mature', label: label('Mature', '成熟期', '成熟期') },
] as const;

export const TRACE_WORK_TYPES = [
  { value: 'fertilizing', label: label('Fertilizing', '施肥', '施肥') },
  { value: 'spraying', label: label('Spraying', '喷药', '噴藥') },
  { value: 'irrigation', label: label('Irrigation', '灌溉', '灌溉') },
  { value: 'weeding', label: label('Weeding', '除草', '除草') },
  { value: 'other', label: label('Other', '其他', '其他') },
] as const;
export type TraceWorkType = (typeof TRACE_WORK_TYPES)[number]['value'];

export const TRACE_PROCESS_TYPES = [
  { value: 'washing', label: label('Washing', '清洗', '清洗') },
  { value: 'sorting', label: label('Sorting', '分拣', '分揀') },
  { value: 'drying', label: label('Drying', '烘干', '烘乾') },
  { value: 'milling', label: label('Milling', '磨粉', '磨粉') },
  { value: 'cutting', label: label('Cutting', '切配', '切配') },
  { value: 'other', label: label('Other', '其他', '其他') },
] as const;

/** A trace code: 12 characters of Crockford base 32 (no I, L, O, U). */
export const TRACE_CODE_PATTERN = {
  source: '^[0-9A-HJKMNP-TV-Z]{12}$',
  key: 'validation.invalid',
};

/** A GTIN-14 (a GTIN-8, -12 or -13 padded with zeros on the left); its check digit is the server's. */
export const TRACE_GTIN_PATTERN = { source: '^\\d{14}$', key: 'validation.invalid' };

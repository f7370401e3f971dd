import { defineEntity, f, label } from '../../entity-kit';
import { INSECT_CATALOGUE_SCREEN, INSECT_PATH } from './insect-targets';

/** Insect orders a trap's catch is sorted by first. */
export const INSECT_ORDERS = [
  { value: 'lepidoptera', label: label('Moths (Lepidoptera)', '鳞翅目', '鱗翅目') },
  { value: 'hemiptera', label: label('Bugs, hoppers (Hemiptera)', '半翅目', '半翅目') },
  { value: 'coleoptera', label: label('Beetles (Coleoptera)', '鞘翅目', '鞘翅目') },
  { value: 'orthoptera', label: label('Crickets (Orthoptera)', '直翅目', '直翅目') },
  { value: 'diptera', label: label('Flies (Diptera)', '双翅目', '雙翅目') },
  { value: 'other', label: label('Other', '其他', '其他') },
] as const;

const hints = (lang: string, zh: string, tw: string) =>
  label(`Identification (${lang})`, `识别要点(${zh})`, `識別要點(${tw})`);
const advice = (lang: string, zh: string, tw: string) =>
  label(`Control advice (${lang})`, `防治建议(${zh})`, `防治建議(${tw})`);
const TEXT = { max: 2000, list: false } as const;

/**
 * A pest species of the catalogue (spec /insectImageIntroduction): names, how to tell it on a
 * trap's tray, what to do about it, the crops it attacks, and its picture (stored through the
 * file storage by the picture call; the key never leaves the server). Its hints and advice are
 * kept in each language of the console, so every reader gets theirs.
 */
export const insectSpeciesEntity = defineEntity({
  name: 'InsectSpecies',
  title: label('Pest species', '虫害图鉴', '蟲害圖鑑'),
  table: 'monitor_insect_species',
  path: INSECT_PATH,
  route: INSECT_CATALOGUE_SCREEN,
  menuCode: 'insectSpecies',
  scope: 'tenant',
  defaultSort: { field: 'nameZh', order: 'ascend' },
  fields: {
    // The picture first: the catalogue is read by its pictures.
    pictureKey: {
      ...f.text({ label: label('Picture', '图片', '圖片'), readOnly: true, list: false }),
      search: undefined,
      export: false,
      writeOnly: true,
    },
    pictureAt: f.datetime({
      label: label('Picture', '图片', '圖片'),
      readOnly: true,
      search: undefined,
      export: false,
    }),
    nameZh: f.text({
      label: label('Chinese name', '中文名', '中文名'),
      required: true,
      max: 64,
      unique: true,
      sortable: true,
    }),
    nameLatin: f.text({
      label: label('Latin name', '学名', '學名'),
      required: true,
      max: 128,
      sortable: true,
    }),
    nameEn: f.text({ label: label('English name', '英文名', '英文名'), max: 128 }),
    insectOrder: f.enumOf({
      label: label('Order', '目', '目'),
      required: true,
      options: INSECT_ORDERS,
    }),
    hostCrops: f.text({ label: label('Host crops', '寄主作物', '寄主作物'), max: 200 }),
    hintsZh: f.textarea({ label: hints('zh', '简体', '簡體'), ...TEXT }),
    hintsTw: f.textarea({ label: hints('tw', '繁体', '繁體'), ...TEXT }),
    hintsEn: f.textarea({ label: hints('en', '英文', '英文'), ...TEXT }),
    adviceZh: f.textarea({ label: advice('zh', '简体', '簡體'), ...TEXT }),
    adviceTw: f.textarea({ label: advice('tw', '繁体', '繁體'), ...TEXT }),
    adviceEn: f.textarea({ label: advice('en', '英文', '英文'), ...TEXT }),
    status: f.status(),
  },
});

import { defineEntity, f, label } from '../../entity-kit';
import { DEVICE_TARGET } from '../iot/targets';
import { VALVE_GROUP_TARGET } from './irrigation-targets';
import {
  FERTIGATION_PATH,
  FERTIGATION_SCREEN,
  FERTILIZER_RECIPE_TARGET,
} from './fertigation-targets';

/** A time of day, HH:mm (24 h). */
export const TIME_OF_DAY = { source: '^([01]\\d|2[0-3]):[0-5]\\d$', key: 'validation.timeOfDay' };

/** ISO weekdays as stored ('1' Monday ... '7' Sunday). */
export const WEEKDAYS = [
  { value: '1', label: label('Mon', '周一', '週一') },
  { value: '2', label: label('Tue', '周二', '週二') },
  { value: '3', label: label('Wed', '周三', '週三') },
  { value: '4', label: label('Thu', '周四', '週四') },
  { value: '5', label: label('Fri', '周五', '週五') },
  { value: '6', label: label('Sat', '周六', '週六') },
  { value: '7', label: label('Sun', '周日', '週日') },
] as const;

const MINUTES = { min: 0, max: 240 } as const;

/** What a program's last run came to (the run history's newest status), for the list. */
const LAST_RUN_SQL = `SELECT r.status FROM monitor_fertigation_run r
  WHERE r.tenant_id = t.tenant_id AND r.program_id = t.id ORDER BY r.id DESC LIMIT 1`;

/**
 * A fertigation program: on one machine, for one of its output groups (`groupNo`, the number its
 * startProgram command takes; `valveGroupId` names the field valve group it waters), clear water
 * first, then the recipe's fertilizer, then clear water to flush the pipes. The server runs it as a sequence of
 * commands (setRecipe, startProgram) and watches EC and pH against the recipe's targets; started
 * by hand (startProgram) or at its start time on its days.
 */
export const fertigationProgramEntity = defineEntity({
  name: 'FertigationProgram',
  title: label('Fertigation programs', '施肥程序', '施肥程式'),
  table: 'monitor_fertigation_program',
  path: FERTIGATION_PATH,
  route: FERTIGATION_SCREEN,
  menuCode: 'fertigationProgram',
  scope: 'tenant',
  fields: {
    programName: f.text({
      label: label('Program', '程序名称', '程式名稱'),
      required: true,
      max: 64,
      unique: true,
      sortable: true,
    }),
    deviceId: f.ref({
      label: label('Fertigation machine', '水肥一体机', '水肥一體機'),
      required: true,
      target: DEVICE_TARGET,
    }),
    /** The machine's own output group (startProgram's `group`). */
    groupNo: f.int({
      label: label('Machine group', '设备轮灌组号', '設備輪灌組號'),
      required: true,
      min: 1,
      max: 16,
      defaultValue: 1,
    }),
    /** The field valves that group waters (for regional management and reports). */
    valveGroupId: f.ref({
      label: label('Valve group', '轮灌组', '輪灌組'),
      target: VALVE_GROUP_TARGET,
      onDelete: 'set-null',
    }),
    recipeId: f.ref({
      label: label('Recipe', '配方', '配方'),
      required: true,
      target: FERTILIZER_RECIPE_TARGET,
    }),
    waterBeforeMinutes: f.int({
      label: label('Water before (min)', '前清水(分钟)', '前清水(分鐘)'),
      required: true,
      defaultValue: 10,
      ...MINUTES,
    }),
    fertilizerMinutes: f.int({
      label: label('Fertilizer (min)', '施肥(分钟)', '施肥(分鐘)'),
      required: true,
      defaultValue: 30,
      min: 1,
      max: 240,
    }),
    waterAfterMinutes: f.int({
      label: label('Water after (min)', '后清水(分钟)', '後清水(分鐘)'),
      required: true,
      defaultValue: 10,
      ...MINUTES,
    }),
    startTime: f.text({
      label: label('Start at', '启动时间', '啟動時間'),
      max: 5,
      pattern: TIME_OF_DAY,
      search: undefined,
    }),
    daysOfWeek: f.tags({
      label: label('Days', '运行日', '運行日'),
      options: WEEKDAYS,
      list: false,
    }),
    lastRunStatus: f.enumOf({
      label: label('Last run', '最近运行', '最近執行'),
      options: [
        { value: 'running', label: label('Running', '运行中', '執行中') },
        { value: 'succeeded', label: label('Finished', '已完成', '已完成') },
        { value: 'failed', label: label('Stopped on a fault', '故障停止', '故障停止') },
        { value: 'stopped', label: label('Stopped by hand', '手动停止', '手動停止') },
      ],
      readOnly: true,
      computed: LAST_RUN_SQL,
    }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
    status: f.status(),
  },
});

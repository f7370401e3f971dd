import { defineEntity, f, label } from '../../entity-kit';
import { TIME_OF_DAY, WEEKDAYS } from './fertigation-program.entity';
import { IRRIGATION_CONFIG_SCREEN, IRRIGATION_PATH } from './irrigation-targets';

/** The scheduler key of a schedule's daily start (rotation.processor.ts). */
const START_KEY_SQL = `'irrigation:rotation:' || t.id`;

const LAST_RUN_SQL = `SELECT coalesce(r.result ->> 'decision', r.state) FROM scheduler_run r
  WHERE r.tenant_id = t.tenant_id AND r.key = ${START_KEY_SQL}
  ORDER BY r.fire_at DESC, r.id DESC LIMIT 1`;

const NEXT_RUN_SQL = `SELECT s.due_at FROM scheduler_trigger s
  WHERE s.tenant_id = t.tenant_id AND s.key = ${START_KEY_SQL} AND s.state = 'waiting'`;

/**
 * A rotation schedule (轮灌计划): at its start time on its days (tenant's time zone), the server
 * opens the first valve group for its minutes, then the next, each step a scheduler trigger;
 * the channels of its groups are held while it runs (manual control of them is refused).
 */
export const rotationScheduleEntity = defineEntity({
  name: 'RotationSchedule',
  title: label('Rotation schedules', '轮灌计划', '輪灌計畫'),
  table: 'monitor_rotation_schedule',
  path: IRRIGATION_PATH,
  route: IRRIGATION_CONFIG_SCREEN,
  menuCode: 'rotationSchedule',
  scope: 'tenant',
  fields: {
    scheduleName: f.text({
      label: label('Schedule', '计划名称', '計畫名稱'),
      required: true,
      max: 64,
      unique: true,
      sortable: true,
    }),
    /** `<valveGroupId>:<minutes>` each, in running order (irrigation-targets.ts). */
    steps: f.tags({
      label: label('Groups and minutes', '轮灌组与时长', '輪灌組與時長'),
      required: true,
      list: false,
      export: false,
    }),
    startTime: f.text({
      label: label('Start at', '启动时间', '啟動時間'),
      required: true,
      max: 5,
      pattern: TIME_OF_DAY,
      search: undefined,
    }),
    daysOfWeek: f.tags({ label: label('Days', '运行日', '運行日'), options: WEEKDAYS }),
    lastRun: f.text({
      label: label('Last run', '最近运行', '最近執行'),
      readOnly: true,
      search: undefined,
      computed: LAST_RUN_SQL,
    }),
    nextRun: f.datetime({
      label: label('Next run', '下次运行', '下次執行'),
      readOnly: true,
      sortable: false,
      computed: NEXT_RUN_SQL,
    }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
    status: f.status(),
  },
});

import { defineEntity, f, label } from '../../entity-kit';

/** The LED area's own API (its program entity's generic calls and its own calls). */
export const LED_PATH = '/api/monitor/led';
export const LED_PROGRAM_SCREEN = '/led/ledProgramManagement';

/** The code a screen reports as its `program` property: letters, digits, - and _. */
export const LED_PROGRAM_NO = { source: '^[A-Za-z0-9_-]{1,32}$', key: 'validation.ledProgramNo' };

/** The screens (of the caller's zones) whose last report says they show this program. */
const SCREENS_SQL = `SELECT string_agg(d.device_name, ', ' ORDER BY d.device_no)
  FROM iot_telemetry_latest l JOIN iot_device d ON d.tenant_id = l.tenant_id AND d.id = l.device_id
 WHERE l.tenant_id = t.tenant_id AND l.key = 'program' AND l.text_value = t.program_no`;

/**
 * An LED program (DOMAINS.md "LED screens"): its code (what a screen reports showing), name and
 * resolution here; its pages (led/led-program-content.ts) are kept in `content`, edited on
 * /led/ledEditProgram and sent to screens from /led/setProgram.
 */
export const ledProgramEntity = defineEntity({
  name: 'LedProgram',
  title: label('LED programs', 'LED节目', 'LED節目'),
  table: 'monitor_led_program',
  path: LED_PATH,
  route: LED_PROGRAM_SCREEN,
  menuCode: 'ledProgram',
  scope: 'tenant',
  fields: {
    programNo: f.text({
      label: label('Program code', '节目编号', '節目編號'),
      required: true,
      max: 32,
      unique: true,
      sortable: true,
      pattern: LED_PROGRAM_NO,
    }),
    programName: f.text({
      label: label('Program', '节目名称', '節目名稱'),
      required: true,
      max: 64,
      sortable: true,
    }),
    width: f.int({
      label: label('Width (px)', '宽度(像素)', '寬度(像素)'),
      required: true,
      min: 16,
      max: 1024,
      defaultValue: 192,
      search: undefined,
    }),
    height: f.int({
      label: label('Height (px)', '高度(像素)', '高度(像素)'),
      required: true,
      min: 8,
      max: 512,
      defaultValue: 96,
      search: undefined,
    }),
    /** The pages (LedPage[]), written by saveLedProgramContent only. */
    content: f.json({ label: label('Pages', '页面', '頁面') }),
    pageCount: f.int({
      label: label('Pages', '页数', '頁數'),
      readOnly: true,
      search: undefined,
      computed: `coalesce(jsonb_array_length(t.content), 0)`,
    }),
    /** The first page, drawn as the list's thumbnail. */
    firstPage: f.computedJson({
      label: label('Preview', '预览', '預覽'),
      computed: `t.content -> 0`,
    }),
    screens: f.text({
      label: label('Shown on', '播放屏幕', '播放螢幕'),
      readOnly: true,
      search: undefined,
      computed: SCREENS_SQL,
    }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
    status: f.status(),
  },
});

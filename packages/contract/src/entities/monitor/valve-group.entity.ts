import { defineEntity, f, label } from '../../entity-kit';
import { ZONE_TARGET } from '../admin/targets';
import { IRRIGATION_CONFIG_SCREEN, IRRIGATION_PATH } from './irrigation-targets';

/** The members as operators read them: "Valve 12 #1, Valve 12 #2" (RLS: devices they see). */
const MEMBER_SUMMARY_SQL = `SELECT string_agg(d.device_name || ' #' || split_part(m.v, ':', 2), ', '
    ORDER BY m.n)
  FROM unnest(t.members) WITH ORDINALITY AS m(v, n)
  JOIN iot_device d ON d.id = nullif(split_part(m.v, ':', 1), '')::bigint`;

/**
 * A valve group (轮灌组): channels of irrigation valve controllers opened and closed together,
 * by batch control, rotation schedules and soil-moisture rules. Each member is one channel of
 * one irrigation valve of the tenant (checked by the server when saved).
 */
export const valveGroupEntity = defineEntity({
  name: 'ValveGroup',
  title: label('Valve groups', '轮灌组', '輪灌組'),
  table: 'monitor_valve_group',
  path: IRRIGATION_PATH,
  route: IRRIGATION_CONFIG_SCREEN,
  menuCode: 'valveGroup',
  scope: 'tenant',
  fields: {
    groupName: f.text({
      label: label('Group', '轮灌组名称', '輪灌組名稱'),
      required: true,
      max: 64,
      unique: true,
      sortable: true,
    }),
    zoneId: f.ref({ label: label('Zone', '所属区域', '所屬區域'), target: ZONE_TARGET }),
    /** `<deviceId>:<channel>` each (irrigation-targets.ts). */
    members: f.tags({
      label: label('Valves', '阀门通道', '閥門通道'),
      required: true,
      list: false,
      export: false,
    }),
    memberSummary: f.text({
      label: label('Valves', '阀门通道', '閥門通道'),
      readOnly: true,
      search: undefined,
      computed: MEMBER_SUMMARY_SQL,
    }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
    status: f.status(),
  },
});

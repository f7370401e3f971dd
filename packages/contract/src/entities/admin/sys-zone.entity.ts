import { defineEntity, f, label } from '../../entity-kit';
import { ZONE_TARGET } from './targets';

/** Irrigation zones as a tree; users are assigned zones, and monitoring screens load them first. */
export const sysZoneEntity = defineEntity({
  name: 'SysZone',
  title: label('Zones', '区域管理', '區域管理'),
  table: 'sys_zone',
  path: '/api/admin/syszone',
  route: '/admin/regional',
  menuCode: 'regional',
  scope: 'tenant',
  tree: { parent: 'zoneParent', title: 'zoneName', sequence: 'zoneSequence' },
  calls: {
    query: 'queryZone',
    add: 'addZone',
    update: 'updateZone',
    delete: 'deleteZone',
    tree: 'queryZoneTree',
  },
  fields: {
    zoneName: f.text({
      label: label('Zone name', '区域名称', '區域名稱'),
      required: true,
      max: 64,
    }),
    zoneCode: f.text({
      label: label('Zone code', '区域编码', '區域編碼'),
      required: true,
      max: 64,
      unique: true,
    }),
    zoneType: f.dict({ label: label('Zone type', '区域类型', '區域類型'), dictType: 'zone_type' }),
    regionCode: f.text({
      label: label('Region code', '行政区划编码', '行政區劃編碼'),
      max: 20,
      search: 'eq',
      pattern: { source: '^\\d+$', key: 'validation.digits' },
    }),
    zoneSequence: f.int({
      label: label('Sequence', '排序', '排序'),
      required: true,
      defaultValue: 0,
      max: 100_000,
    }),
    zoneParent: f.ref({
      label: label('Parent zone', '上级区域', '上級區域'),
      target: ZONE_TARGET,
      list: false,
    }),
    zoneDescription: f.textarea({ label: label('Description', '描述', '描述'), max: 500 }),
    status: f.status(),
  },
});

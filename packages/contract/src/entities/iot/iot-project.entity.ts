import { defineEntity, f, label } from '../../entity-kit';
import { ZONE_TARGET } from '../admin/targets';
import { IDENTIFIER_PATTERN } from './targets';

/** Construction projects devices are installed under (spec /IOTprojectList). */
export const iotProjectEntity = defineEntity({
  name: 'IotProject',
  title: label('Projects', '项目管理', '專案管理'),
  table: 'iot_project',
  path: '/api/iot/project',
  route: '/IOTprojectList',
  menuCode: 'iotproject',
  scope: 'tenant',
  fields: {
    projectNo: f.text({
      label: label('Project no.', '项目编号', '專案編號'),
      required: true,
      max: 64,
      unique: true,
      sortable: true,
      pattern: IDENTIFIER_PATTERN,
    }),
    projectName: f.text({
      label: label('Project name', '项目名称', '專案名稱'),
      required: true,
      max: 128,
      sortable: true,
    }),
    zoneId: f.ref({ label: label('Zone', '所属区域', '所屬區域'), target: ZONE_TARGET }),
    regionCode: f.text({
      label: label('Region code', '行政区划编码', '行政區劃編碼'),
      max: 20,
      search: 'eq',
      pattern: { source: '^\\d+$', key: 'validation.digits' },
    }),
    description: f.textarea({ label: label('Description', '描述', '描述'), max: 500 }),
    status: f.status(),
  },
});

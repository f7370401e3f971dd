import { defineEntity, f, label } from '../../entity-kit';

/** Administrative divisions (China's to county level ship as seed data); shared by all tenants. */
export const sysRegionEntity = defineEntity({
  name: 'SysRegion',
  title: label('Regions', '行政区划', '行政區劃'),
  table: 'sys_region',
  path: '/api/admin/sysregion',
  route: '/admin/sysregion',
  menuCode: 'sysregion',
  scope: 'shared',
  key: 'regionCode',
  tree: { parent: 'regionParent', title: 'regionName', sequence: 'regionSequence' },
  calls: { query: '/api/admin/querySysRegion' },
  defaultSort: { field: 'regionCode', order: 'ascend' },
  fields: {
    regionName: f.text({
      label: label('Region name', '区划名称', '區劃名稱'),
      required: true,
      min: 2,
      max: 40,
    }),
    regionCode: f.text({
      label: label('Region code', '区划编码', '區劃編碼'),
      required: true,
      min: 6,
      max: 20,
      unique: true,
      sortable: true,
      search: 'eq',
      pattern: { source: '^\\d+$', key: 'validation.digits' },
    }),
    regionType: f.enumOf({
      label: label('Level', '级别', '級別'),
      required: true,
      options: [
        { value: 'province', label: label('Province', '省级', '省級') },
        { value: 'city', label: label('City', '地级', '地級') },
        { value: 'county', label: label('County', '县级', '縣級') },
        { value: 'town', label: label('Town', '乡级', '鄉級') },
      ],
    }),
    // Regions hang on their parent's code, not its id: codes are the nation's stable keys.
    regionParent: f.text({
      label: label('Parent code', '上级编码', '上級編碼'),
      max: 20,
      search: 'eq',
      pattern: { source: '^\\d+$', key: 'validation.digits' },
    }),
    regionSequence: f.int({
      label: label('Sequence', '排序', '排序'),
      required: true,
      defaultValue: 0,
      list: false,
    }),
    status: f.status(),
  },
});

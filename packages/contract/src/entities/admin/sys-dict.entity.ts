import { defineEntity, f, label } from '../../entity-kit';
import { DICT_TARGET } from './targets';

/** Dictionaries: typed value lists that feed every select showing one (queryDictByDictType). */
export const sysDictEntity = defineEntity({
  name: 'SysDict',
  title: label('Dictionaries', '字典管理', '字典管理'),
  table: 'sys_dict',
  path: '/api/admin/sysdict',
  route: '/admin/sysdict',
  menuCode: 'sysdict',
  scope: 'tenant',
  tree: { parent: 'dictParent', title: 'dictName', sequence: 'dictSequence' },
  uniqueTogether: [['dictType', 'dictValue']],
  fields: {
    dictType: f.text({
      label: label('Dictionary type', '字典类型', '字典類型'),
      required: true,
      max: 64,
      search: 'eq',
      sortable: true,
      pattern: { source: '^[a-z][a-z0-9_]*$', key: 'validation.dictType' },
    }),
    dictName: f.text({ label: label('Name', '字典名称', '字典名稱'), required: true, max: 64 }),
    dictValue: f.text({ label: label('Value', '字典值', '字典值'), required: true, max: 64 }),
    dictSequence: f.int({
      label: label('Sequence', '排序', '排序'),
      required: true,
      defaultValue: 0,
      max: 100_000,
    }),
    dictParent: f.ref({
      label: label('Parent', '上级字典', '上級字典'),
      target: DICT_TARGET,
      list: false,
    }),
    status: f.status(),
  },
});

import { defineEntity, f, label } from '../../entity-kit';
import { ORG_TARGET } from './targets';

/** Organisations as a tree (spec §3 Organisation); users belong to one. */
export const sysOrgEntity = defineEntity({
  name: 'SysOrg',
  title: label('Organisations', '组织管理', '組織管理'),
  table: 'sys_org',
  path: '/api/admin/sysorg',
  route: '/admin/sysorg',
  menuCode: 'sysorg',
  scope: 'tenant',
  tree: { parent: 'orgParent', title: 'orgName', sequence: 'orgSequence' },
  fields: {
    orgName: f.text({
      label: label('Organisation name', '组织名称', '組織名稱'),
      required: true,
      max: 64,
    }),
    orgType: f.dict({
      label: label('Organisation type', '组织类型', '組織類型'),
      required: true,
      dictType: 'org_type',
    }),
    orgDescription: f.textarea({
      label: label('Description', '描述', '描述'),
      max: 500,
      list: true,
    }),
    orgSequence: f.int({
      label: label('Sequence', '排序', '排序'),
      required: true,
      defaultValue: 0,
      max: 100_000,
    }),
    orgParent: f.ref({
      label: label('Parent organisation', '上级组织', '上級組織'),
      target: ORG_TARGET,
      list: false,
    }),
    status: f.status(),
  },
});

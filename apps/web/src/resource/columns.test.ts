import {
  operationLogEntity,
  sysMenuButtonEntity,
  sysTenantEntity,
  sysUserEntity,
} from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { cellText } from './cell-text';
import { absentColumns, columnSpecsOf, defaultHidden, visibleColumns } from './columns';
import type { ResourceRow } from './resource-row';

const names = (specs: Array<{ name: string }>) => specs.map((spec) => spec.name);

describe('columnSpecsOf', () => {
  it('lists the declared list fields, never write-only ones, then the audit columns', () => {
    expect(names(columnSpecsOf(sysUserEntity))).toEqual([
      'username',
      'nickname',
      'email',
      'mobile',
      'orgId',
      'roleIds',
      'status',
      'createdAt',
      'updatedAt',
    ]);
    const tenant = names(columnSpecsOf(sysTenantEntity));
    expect(tenant).not.toContain('adminPassword');
    expect(tenant).not.toContain('adminUsername');
  });

  it('keeps an entity’s own createdAt column, sortable and shown', () => {
    const specs = columnSpecsOf(operationLogEntity);
    expect(names(specs).filter((name) => name === 'createdAt')).toHaveLength(1);
    expect(specs.find((spec) => spec.name === 'createdAt')).toMatchObject({
      sortable: true,
      defaultVisible: true,
    });
    expect(defaultHidden(specs)).toEqual(new Set(['updatedAt']));
  });

  it('leaves out fields the screen fixes', () => {
    expect(names(columnSpecsOf(sysMenuButtonEntity, { menuId: '1' }))).not.toContain('menuId');
  });

  it('sorts only declared sortable fields', () => {
    const sortable = columnSpecsOf(sysUserEntity).filter((spec) => spec.sortable);
    expect(names(sortable)).toEqual(['username', 'nickname', 'createdAt', 'updatedAt']);
  });
});

describe('columns hidden by data permissions', () => {
  const specs = columnSpecsOf(sysUserEntity);
  const row = (fields: Record<string, unknown>): ResourceRow => ({ id: '1', ...fields });

  it('hides the columns no row carries', () => {
    const rows = [
      row({ username: 'a', nickname: 'A', status: 1, orgId: '2', orgIdLabel: 'HQ' }),
      row({ username: 'b', nickname: 'B', status: 0, orgId: null }),
    ];
    expect(absentColumns(specs, rows)).toEqual(
      new Set(['email', 'mobile', 'roleIds', 'createdAt', 'updatedAt']),
    );
    expect(names(visibleColumns(specs, absentColumns(specs, rows), defaultHidden(specs)))).toEqual([
      'username',
      'nickname',
      'orgId',
      'status',
    ]);
  });

  it('counts a reference present when only its label arrives', () => {
    expect(absentColumns(specs, [row({ roleIdsLabel: ['Admin'] })]).has('roleIds')).toBe(false);
  });

  it('hides nothing while there are no rows to tell by', () => {
    expect(absentColumns(specs, [])).toEqual(new Set());
  });

  it('also hides what the user chose to hide', () => {
    const rows = [row({ username: 'a', nickname: 'A', createdAt: '2024-01-01T00:00:00Z' })];
    expect(names(visibleColumns(specs, absentColumns(specs, rows), new Set(['nickname'])))).toEqual(
      ['username', 'createdAt'],
    );
  });
});

describe('cellText', () => {
  const t = (key: string) => key;
  const context = { lang: 'zh' as const, t };
  const { fields } = sysUserEntity;

  it('shows references by their labels', () => {
    const row: ResourceRow = { id: '1', orgId: '2', orgIdLabel: '总部', roleIds: ['1', '2'] };
    expect(cellText('orgId', fields.orgId, row, context)).toBe('总部');
    expect(
      cellText('roleIds', fields.roleIds, { ...row, roleIdsLabel: ['甲', '乙'] }, context),
    ).toBe('甲, 乙');
  });

  it('shows options by their label in the current language, and status translated', () => {
    const result = operationLogEntity.fields.result;
    expect(cellText('result', result, { id: '1', result: 'failure' }, context)).toBe('失败');
    expect(cellText('status', fields.status, { id: '1', status: 0 }, context)).toBe(
      'resource.disabled',
    );
  });

  it('formats datetimes and leaves empty values blank', () => {
    expect(cellText('username', fields.username, { id: '1' }, context)).toBe('');
    expect(cellText('createdAt', undefined, { id: '1', createdAt: null }, context)).toBe('');
    expect(
      cellText('createdAt', undefined, { id: '1', createdAt: '2024-03-01T08:00:00' }, context),
    ).toBe('2024-03-01 08:00:00');
  });
});

import {
  sysMenuButtonEntity,
  sysOrgEntity,
  sysTenantEntity,
  sysUserEntity,
  createSchemaOf,
  updateSchemaOf,
} from '@shuili/contract';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { changedFieldsOf, formFieldsOf, initialValuesOf, requestBodyOf } from './form-values';
import type { ResourceRow } from './resource-row';

const names = (fields: Array<[string, unknown]>) => fields.map(([name]) => name);

describe('formFieldsOf', () => {
  it('has create-only fields on create only, and never read-only ones', () => {
    const create = names(formFieldsOf(sysTenantEntity, 'create'));
    const edit = names(formFieldsOf(sysTenantEntity, 'edit'));
    expect(create).toContain('adminUsername');
    expect(create).toContain('adminPassword');
    expect(edit).not.toContain('adminUsername');
    expect(edit).not.toContain('adminPassword');
    expect(names(formFieldsOf(sysUserEntity, 'edit'))).not.toContain('password');
  });

  it('leaves out the fields the screen fixes', () => {
    expect(names(formFieldsOf(sysMenuButtonEntity, 'create', { menuId: '4' }))).toEqual([
      'buttonCode',
      'buttonName',
    ]);
  });
});

describe('initialValuesOf', () => {
  it('starts a new record from the declared defaults and the preset', () => {
    expect(
      initialValuesOf(sysOrgEntity, 'create', undefined, {
        orgParent: { value: '5', label: 'HQ' },
      }),
    ).toEqual({ orgSequence: 0, status: 1, orgParent: { value: '5', label: 'HQ' } });
  });

  it('edits a row with references as labelled values and dates as dates', () => {
    const row: ResourceRow = {
      id: '9',
      username: 'ann',
      orgId: '2',
      orgIdLabel: 'HQ',
      roleIds: ['1', '3'],
      roleIdsLabel: ['Admin', 'Operator'],
      status: 1,
    };
    const values = initialValuesOf(sysUserEntity, 'edit', row);
    expect(values).toMatchObject({
      username: 'ann',
      orgId: { value: '2', label: 'HQ' },
      roleIds: [
        { value: '1', label: 'Admin' },
        { value: '3', label: 'Operator' },
      ],
      status: 1,
    });
    expect(values).not.toHaveProperty('password');
    const tenant = initialValuesOf(sysTenantEntity, 'edit', {
      id: '1',
      startTime: '2024-01-01T00:00:00.000Z',
    });
    expect(dayjs.isDayjs(tenant.startTime)).toBe(true);
  });
});

describe('requestBodyOf', () => {
  it('builds an add body the contract accepts: ids, trimmed text, no blanks', () => {
    const body = requestBodyOf(sysUserEntity, 'create', {
      username: ' ann ',
      nickname: 'Ann',
      password: ' secret1 ',
      email: '',
      orgId: { value: '2', label: 'HQ' },
      roleIds: [{ value: '1', label: 'Admin' }],
      status: 1,
    });
    expect(body).toEqual({
      username: 'ann',
      nickname: 'Ann',
      password: ' secret1 ',
      orgId: '2',
      roleIds: ['1'],
      status: 1,
    });
    expect(createSchemaOf(sysUserEntity).safeParse(body).success).toBe(true);
  });

  it('sends dates as ISO datetimes', () => {
    const body = requestBodyOf(sysTenantEntity, 'create', {
      tenantCode: 'acme2',
      tenantName: 'Acme',
      startTime: dayjs('2024-05-01T00:00:00Z'),
      adminUsername: 'boss',
      adminPassword: 'secret12',
    });
    expect(body.startTime).toBe('2024-05-01T00:00:00.000Z');
    expect(createSchemaOf(sysTenantEntity).safeParse(body).success).toBe(true);
  });

  it('sends the fixed fields with a new record', () => {
    expect(
      requestBodyOf(
        sysMenuButtonEntity,
        'create',
        { buttonCode: 'x:add', buttonName: 'Add' },
        { fixed: { menuId: '4' } },
      ),
    ).toEqual({ buttonCode: 'x:add', buttonName: 'Add', menuId: '4' });
  });

  it('updates with the id and only the fields that changed; a cleared field is null', () => {
    const row: ResourceRow = {
      id: '9',
      username: 'ann',
      nickname: 'Ann',
      email: 'ann@example.com',
      orgId: '2',
      orgIdLabel: 'HQ',
      roleIds: ['1'],
      roleIdsLabel: ['Admin'],
      status: 1,
    };
    const initial = initialValuesOf(sysUserEntity, 'edit', row);
    const body = requestBodyOf(
      sysUserEntity,
      'edit',
      { ...initial, nickname: 'Annie', email: '', orgId: { value: '2', label: 'HQ' } },
      { row, initial },
    );
    expect(body).toEqual({ id: '9', nickname: 'Annie', email: null });
    expect(updateSchemaOf(sysUserEntity).safeParse(body).success).toBe(true);
  });

  it('sends only the id when nothing changed', () => {
    const row: ResourceRow = { id: '3', orgName: 'HQ', orgType: 'hq', orgSequence: 1, status: 1 };
    const initial = initialValuesOf(sysOrgEntity, 'edit', row);
    expect(requestBodyOf(sysOrgEntity, 'edit', { ...initial }, { row, initial })).toEqual({
      id: '3',
    });
  });
});

describe('changedFieldsOf', () => {
  it('names the fields that differ from the start, blanks and untouched fields alike unchanged', () => {
    const initial = initialValuesOf(sysUserEntity, 'create');
    expect(
      changedFieldsOf(sysUserEntity, 'create', { ...initial, nickname: '  ' }, initial),
    ).toEqual([]);
    expect(
      changedFieldsOf(sysUserEntity, 'create', { ...initial, nickname: 'Ada' }, initial),
    ).toEqual(['nickname']);
    const row: ResourceRow = { id: '7', username: 'ada', nickname: 'Ada' };
    const start = initialValuesOf(sysUserEntity, 'edit', row);
    expect(changedFieldsOf(sysUserEntity, 'edit', { ...start }, start)).toEqual([]);
    expect(changedFieldsOf(sysUserEntity, 'edit', { ...start, nickname: 'Bea' }, start)).toEqual([
      'nickname',
    ]);
  });
});

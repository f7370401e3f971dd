import {
  alarmRecordEntity,
  operationLogEntity,
  sysMenuButtonEntity,
  sysOrgEntity,
  sysUserEntity,
} from '@shuili/contract';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { hasFilters, pageParamsOf, searchFieldsOf, searchParamsOf } from './search-params';

describe('searchFieldsOf', () => {
  it('offers the declared search fields, not those the screen fixes', () => {
    expect(searchFieldsOf(sysMenuButtonEntity).map(([name]) => name)).toEqual([
      'menuId',
      'buttonCode',
      'buttonName',
    ]);
    expect(searchFieldsOf(sysMenuButtonEntity, { menuId: '7' }).map(([name]) => name)).toEqual([
      'buttonCode',
      'buttonName',
    ]);
  });

  it('leaves out fields without a search mode', () => {
    const names = searchFieldsOf(sysUserEntity).map(([name]) => name);
    expect(names).toContain('username');
    expect(names).not.toContain('geographic');
    expect(names).not.toContain('password');
  });
});

describe('searchParamsOf', () => {
  it('sends an in field as one comma list, and the fixed list over the form', () => {
    expect(
      searchParamsOf(alarmRecordEntity, { deviceKind: ['pump_station', ' ', 'irrigation_valve'] }),
    ).toEqual({ deviceKind: 'pump_station,irrigation_valve' });
    expect(searchParamsOf(alarmRecordEntity, { deviceKind: [] })).toEqual({});
    expect(
      searchParamsOf(
        alarmRecordEntity,
        { deviceKind: ['weather_station'] },
        { deviceKind: 'soil_moisture,pump_station' },
      ),
    ).toEqual({ deviceKind: 'soil_moisture,pump_station' });
  });

  it('sends like and eq fields under their name, trimmed, and drops blanks', () => {
    expect(
      searchParamsOf(sysUserEntity, { username: '  ad ', nickname: '', email: '   ', status: 0 }),
    ).toEqual({ username: 'ad', status: '0' });
  });

  it('sends a reference as its id, whether chosen with its label or not', () => {
    expect(searchParamsOf(sysUserEntity, { orgId: { value: '12', label: 'HQ' } })).toEqual({
      orgId: '12',
    });
    expect(searchParamsOf(sysOrgEntity, { orgType: 'station' })).toEqual({ orgType: 'station' });
  });

  it('sends a range as <field>From and <field>To ISO datetimes', () => {
    const from = dayjs('2024-03-01T08:00:00Z');
    const to = dayjs('2024-03-02T08:00:00Z');
    expect(searchParamsOf(operationLogEntity, { createdAt: [from, to] })).toEqual({
      createdAtFrom: '2024-03-01T08:00:00.000Z',
      createdAtTo: '2024-03-02T08:00:00.000Z',
    });
    expect(searchParamsOf(operationLogEntity, { createdAt: [from, null] })).toEqual({
      createdAtFrom: '2024-03-01T08:00:00.000Z',
    });
    expect(searchParamsOf(operationLogEntity, { createdAt: undefined })).toEqual({});
  });

  it('always sends the fixed filters, which the form cannot override', () => {
    expect(
      searchParamsOf(sysMenuButtonEntity, { menuId: '99', buttonCode: 'add' }, { menuId: '7' }),
    ).toEqual({ buttonCode: 'add', menuId: '7' });
  });

  it('ignores values of fields that are not searchable', () => {
    expect(searchParamsOf(sysUserEntity, { password: 'secret', profile: 'x' })).toEqual({});
  });
});

describe('hasFilters', () => {
  it('tells a filtered list from the plain one', () => {
    expect(hasFilters({})).toBe(false);
    expect(hasFilters({ orgName: undefined })).toBe(false);
    expect(hasFilters({ orgName: 'hq' })).toBe(true);
  });
});

describe('pageParamsOf', () => {
  it('sends paging, and sorting only when a field and an order are chosen', () => {
    expect(pageParamsOf({ currentPage: 2, pageSize: 50 })).toEqual({
      currentPage: '2',
      pageSize: '50',
      sort: undefined,
      order: undefined,
    });
    expect(
      pageParamsOf({ currentPage: 1, pageSize: 10, sort: 'username', order: 'descend' }),
    ).toEqual({ currentPage: '1', pageSize: '10', sort: 'username', order: 'descend' });
    expect(pageParamsOf({ currentPage: 1, pageSize: 10, sort: 'username' })).toMatchObject({
      sort: undefined,
    });
  });
});

import { describe, expect, it } from 'vitest';
import {
  filterUrls,
  idsWithPrefix,
  isReadOnlyUrl,
  readOnlyIds,
  toggleIds,
  urlPrefix,
  urlPrefixes,
  type UrlRow,
} from './url-grants';

const rows: UrlRow[] = [
  { id: '1', url: '/api/admin/sysuser/querySysUser', method: 'GET', description: 'List users' },
  { id: '2', url: '/api/admin/sysuser/addSysUser', method: 'POST', description: 'Add a user' },
  { id: '3', url: '/api/admin/sysuser/exportPDFSysUser', method: 'POST', description: null },
  { id: '4', url: '/api/admin/sysrole/querySysRole', method: 'GET' },
  { id: '5', url: '/api/admin/querySysRegion', method: 'GET', description: 'Regions' },
  { id: '6', url: '/api/admin/sysuserpost/deleteSysUserPost', method: 'POST' },
];

describe('URL grants', () => {
  it('groups a URL under everything up to its last segment', () => {
    expect(urlPrefix('/api/admin/sysuser/querySysUser')).toBe('/api/admin/sysuser/');
    expect(urlPrefix('/api/admin/querySysRegion')).toBe('/api/admin/');
    expect(urlPrefix('nothing')).toBe('nothing');
  });

  it('counts the URLs of each resource, sorted', () => {
    expect(urlPrefixes(rows)).toEqual([
      { prefix: '/api/admin/', count: 1 },
      { prefix: '/api/admin/sysrole/', count: 1 },
      { prefix: '/api/admin/sysuser/', count: 3 },
      { prefix: '/api/admin/sysuserpost/', count: 1 },
    ]);
  });

  it('selects by prefix without taking a longer resource name along', () => {
    expect(idsWithPrefix(rows, '/api/admin/sysuser/')).toEqual(['1', '2', '3']);
    expect(idsWithPrefix(rows, '/api/admin/')).toHaveLength(6);
  });

  it('knows the read-only calls by their last segment', () => {
    expect(isReadOnlyUrl('/api/admin/sysuser/exportPDFSysUser')).toBe(true);
    expect(isReadOnlyUrl('/api/admin/sysuser/querySysUser')).toBe(true);
    expect(isReadOnlyUrl('/api/admin/sysuser/addSysUser')).toBe(false);
    // Only the call's own name counts, not a resource that happens to start with "query".
    expect(isReadOnlyUrl('/api/queryService/deleteThing')).toBe(false);
    expect(readOnlyIds(rows)).toEqual(['1', '3', '4', '5']);
  });

  it('filters by address or description, ignoring case', () => {
    expect(filterUrls(rows, 'SYSROLE').map((row) => row.id)).toEqual(['4']);
    expect(filterUrls(rows, 'add a').map((row) => row.id)).toEqual(['2']);
    expect(filterUrls(rows, '  ')).toHaveLength(6);
  });

  it('adds and removes ids without duplicates', () => {
    expect(toggleIds(['1', '4'], ['1', '2'], true)).toEqual(['1', '4', '2']);
    expect(toggleIds(['1', '4', '2'], ['1', '2'], false)).toEqual(['4']);
  });
});

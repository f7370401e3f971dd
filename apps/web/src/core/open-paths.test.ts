import { describe, expect, it } from 'vitest';
import { PUBLIC_TRACE_PAGES } from '@shuili/contract';
import { loginPath, OPEN_PATHS, safeRedirect, SERVER_PAGES } from './open-paths';

describe('OPEN_PATHS', () => {
  it('lists the console’s open pages, and not the public trace pages the server answers', () => {
    expect(OPEN_PATHS).toContain('/thirdLogin');
    expect(OPEN_PATHS).not.toContain('/search');
    expect(OPEN_PATHS).not.toContain('/traceHome');
    expect([...SERVER_PAGES].sort()).toEqual(Object.values(PUBLIC_TRACE_PAGES).sort());
  });
});

describe('loginPath', () => {
  it('keeps the whole intended path, query included', () => {
    const path = loginPath('/home/workbench?view=roles');
    expect(new URLSearchParams(path.split('?')[1]).get('redirect')).toBe(
      '/home/workbench?view=roles',
    );
  });
});

describe('safeRedirect', () => {
  it('accepts paths inside the app', () => {
    expect(safeRedirect('/home/workbench?view=roles')).toBe('/home/workbench?view=roles');
    expect(safeRedirect('/')).toBe('/');
  });

  it('refuses other origins, protocol-relative URLs and the sign-in page itself', () => {
    for (const value of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/login',
      '/login?redirect=/x',
      '',
      null,
      undefined,
    ]) {
      expect(safeRedirect(value)).toBeUndefined();
    }
  });
});

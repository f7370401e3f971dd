import { describe, expect, it } from 'vitest';
import { loginPath, OPEN_PATHS, safeRedirect } from './open-paths';

describe('OPEN_PATHS', () => {
  it('lists the open pages that exist, and not traceability’s, which are not built yet', () => {
    expect(OPEN_PATHS).toContain('/thirdLogin');
    expect(OPEN_PATHS).not.toContain('/search');
    expect(OPEN_PATHS).not.toContain('/traceHome');
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

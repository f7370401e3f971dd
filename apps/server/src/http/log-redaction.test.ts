import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction';

describe('redactUrl', () => {
  it('hides secrets of the token call and keeps the rest', () => {
    expect(
      redactUrl(
        '/api/uaa/oauth/token?grant_type=password&tenantCode=demo&username=admin&password=admin123',
      ),
    ).toBe(
      '/api/uaa/oauth/token?grant_type=password&tenantCode=demo&username=admin&password=%5Bredacted%5D',
    );
    expect(redactUrl('/api/uaa/oauth/token?grant_type=mobile&smsCaptcha=123456')).not.toContain(
      '123456',
    );
    expect(redactUrl('/api/admin/sysorg/querySysOrg?currentPage=1')).toBe(
      '/api/admin/sysorg/querySysOrg?currentPage=1',
    );
    expect(redactUrl('/api/health')).toBe('/api/health');
  });
});

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
    // A password-reset link's page: its token opens an account for 30 minutes.
    expect(redactUrl('/forgotpassword?resetToken=98765432109876543210')).not.toContain('987654');
  });

  it('hides second-factor codes, recovery codes, captchas and current passwords, in any case', () => {
    const secrets = {
      totpCode: '123456',
      TOTPCODE: '234567',
      code: 'abcde-fghjk',
      recoveryCode: 'mnpqr-stuvw',
      smsCaptcha: '345678',
      charCaptcha: 'x7y8',
      currentPassword: 'Canal-gate-47',
      oldPassword: 'old-secret-1',
      adminPassword: 'admin-secret-2',
      mfa_ticket: 'dGlja2V0',
      ticket: 'dGlja2V1',
      secret: 'device-secret-3',
    };
    const logged = redactUrl(
      `/api/uaa/oauth/token?grant_type=password&username=admin&${new URLSearchParams(secrets)}`,
    );
    for (const value of Object.values(secrets)) expect(logged).not.toContain(value);
    expect(new URLSearchParams(logged.split('?')[1]).get('totpCode')).toBe('[redacted]');
    expect(logged).toContain('username=admin');
    expect(logged).toContain('grant_type=password');
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import { i18n } from '../i18n/i18n';
import { httpErrorText } from './http';

beforeAll(async () => {
  await i18n.init({ lng: 'en', resources: { en: { translation: en } } });
});

describe('httpErrorText (spec §8)', () => {
  it('says the login expired for 401 invalid_token', () => {
    expect(httpErrorText(401, { error: 'invalid_token', message: 'x' }, 'raw')).toBe(
      en.http.loginExpired,
    );
  });

  it('says the server is being upgraded for 500 and 503', () => {
    expect(httpErrorText(500, { message: 'x' }, 'raw')).toBe(en.http.serverUpgrading);
    expect(httpErrorText(503, {}, 'raw')).toBe(en.http.serverUpgrading);
  });

  it('says network error for 404 and no permission for any other 401', () => {
    expect(httpErrorText(404, { message: 'x' }, 'raw')).toBe(en.http.networkError);
    expect(httpErrorText(401, { message: 'Sign in first' }, 'raw')).toBe(en.http.noPermission);
  });

  it("passes anything else on: the server's translated words, else the raw text", () => {
    expect(httpErrorText(403, { message: 'Not allowed' }, 'raw')).toBe('Not allowed');
    expect(httpErrorText(429, { error_description: 'Slow down' }, 'raw')).toBe('Slow down');
    expect(httpErrorText(418, {}, 'raw')).toBe('raw');
  });
});

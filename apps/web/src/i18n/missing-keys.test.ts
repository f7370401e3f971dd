import type { ParseKeys } from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from './i18n';
import { MISSING_KEY_WARNING, reportMissingKeys } from './missing-keys';

describe('reportMissingKeys', () => {
  afterEach(() => vi.restoreAllMocks());

  it('announces a key the language lacks, bare or dotted, and not one it has', async () => {
    await i18n.init({
      lng: 'en',
      fallbackLng: false,
      resources: { en: { translation: { iot: { map: { title: 'Map' } } } } },
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    reportMissingKeys();
    // Keys as the console builds some at run time: any string.
    const lookUp = (key: string) => i18n.t(key as ParseKeys);
    lookUp('iot.map.title');
    lookUp('iot.map.coordinates');
    lookUp('min');
    expect(warn.mock.calls.map(([text]) => text)).toEqual([
      `${MISSING_KEY_WARNING}iot.map.coordinates`,
      `${MISSING_KEY_WARNING}min`,
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, readSettings } from './settings-store';

describe('readSettings', () => {
  it('defaults to theme #1890ff with tags view and sidebar logo on, fixed header off', () => {
    expect(readSettings(null)).toEqual({
      theme: '#1890ff',
      showSettings: true,
      tagsView: true,
      fixedHeader: false,
      sidebarLogo: true,
      supportPinyinSearch: true,
    });
  });

  it('keeps what was stored', () => {
    const stored = { ...DEFAULT_SETTINGS, theme: '#f5222d', tagsView: false, fixedHeader: true };
    expect(readSettings(JSON.stringify(stored))).toEqual(stored);
  });

  it('replaces broken or hand-edited values by their defaults', () => {
    expect(readSettings('not json')).toEqual(DEFAULT_SETTINGS);
    expect(readSettings('[1,2]')).toEqual(DEFAULT_SETTINGS);
    expect(
      readSettings(JSON.stringify({ theme: 'red; background: url(x)', tagsView: 'no' })),
    ).toEqual(DEFAULT_SETTINGS);
  });
});

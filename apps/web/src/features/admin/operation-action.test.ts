import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/features/admin/en.json';
import zh from '../../i18n/features/admin/zh.json';
import { operationActionText } from './operation-action';

const i18n = i18next.createInstance();
await i18n.init({
  lng: 'en',
  resources: { en: { translation: en }, zh: { translation: zh } },
  interpolation: { escapeValue: false },
});

describe('operation log actions', () => {
  it('reads entity keys as the entity title and the verb, in the reader’s language', () => {
    expect(operationActionText('add:SysPost', i18n.getFixedT('en'), 'en')).toBe('Posts · add');
    expect(operationActionText('update:SysParam', i18n.getFixedT('zh'), 'zh')).toBe(
      '参数管理 · 修改',
    );
  });

  it('reads call names, and shows an unknown key as stored', () => {
    expect(operationActionText('sendCommand', i18n.getFixedT('zh'), 'zh')).toBe('下发设备指令');
    expect(operationActionText('somethingNew', i18n.getFixedT('en'), 'en')).toBe('somethingNew');
    expect(operationActionText('add:NoSuchEntity', i18n.getFixedT('en'), 'en')).toBe(
      'add:NoSuchEntity',
    );
  });
});

import { LANGS, type Lang } from '@shuili/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setLanguage, useLocaleStore } from '../i18n/i18n';
import { DeferredSelect } from '../lib/deferred/DeferredSelect';

/**
 * Spec §2 language select: zh, tw, en, with the current one disabled. Deferred: the signed-out
 * pages show it before Ant Design's Select has downloaded.
 */
export function LanguageSelect() {
  const { t } = useTranslation();
  const lang = useLocaleStore((state) => state.lang);
  const [switching, setSwitching] = useState(false);

  const onChange = (next: Lang) => {
    setSwitching(true);
    void setLanguage(next).finally(() => setSwitching(false));
  };

  return (
    <DeferredSelect<Lang>
      data-testid="language-select"
      aria-label={t('lang.label')}
      value={lang}
      loading={switching}
      onChange={onChange}
      popupMatchSelectWidth={false}
      variant="borderless"
      options={LANGS.map((value) => ({
        value,
        label: t(`lang.${value}`),
        disabled: value === lang,
      }))}
    />
  );
}

import { SearchOutlined } from '@ant-design/icons';
import { Button, Select } from 'antd';
import { useMemo, useState } from 'react';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { AppRoute } from '../core/app-route';
import { useLocaleStore } from '../i18n/i18n';
import styles from './Navbar.module.css';
import type * as MenuSearch from './menu-search';
import { useSettingsStore } from './settings-store';

type MenuSearchModule = typeof MenuSearch;

// Fuse and the pinyin dictionary download when the search is first wanted, not with the console.
let loading: Promise<MenuSearchModule> | undefined;
const loadMenuSearch = () => (loading ??= import('./menu-search'));

/**
 * Spec §2 menu search: fuzzy over the titles of the user's screens in the current language, their
 * pinyin (full and initials) and their paths; choosing a result (Enter picks the first) opens it.
 */
export function HeaderSearch({ routes }: { routes: readonly AppRoute[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const lang = useLocaleStore((state) => state.lang);
  const pinyin = useSettingsStore((state) => state.supportPinyinSearch) && lang !== 'en';
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [menuSearch, setMenuSearch] = useState<MenuSearchModule>();

  const find = useMemo(
    () =>
      menuSearch?.createMenuSearch(
        menuSearch.buildSearchIndex(routes, (key) => t(key as ParseKeys), pinyin),
      ),
    [menuSearch, routes, t, pinyin],
  );
  const results = useMemo(() => find?.(query) ?? [], [find, query]);

  const prepare = () => {
    void loadMenuSearch().then(setMenuSearch, () => undefined);
  };
  const show = () => {
    prepare();
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    setQuery('');
  };

  return (
    <div className={styles.search} data-testid="header-search">
      {/* A native hint: a tooltip would cover the results. */}
      <Button
        type="text"
        aria-label={t('search.label')}
        title={t('search.label')}
        icon={<SearchOutlined />}
        onClick={open ? close : show}
        onMouseEnter={prepare}
        onFocus={prepare}
        data-testid="header-search-button"
      />
      {open && (
        <Select<string>
          className={styles.searchSelect}
          autoFocus
          defaultOpen
          value={null}
          aria-label={t('search.label')}
          placeholder={t('search.placeholder')}
          showSearch={{ filterOption: false, onSearch: setQuery, searchValue: query }}
          notFoundContent={query ? t('search.noResult') : null}
          options={results.map((item) => ({ value: item.path, label: item.title.join(' > ') }))}
          onChange={(path) => {
            close();
            void navigate(path);
          }}
          onBlur={close}
          data-testid="header-search-select"
        />
      )}
    </div>
  );
}

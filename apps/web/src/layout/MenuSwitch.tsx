import { useQuery } from '@tanstack/react-query';
import { Select, Space } from 'antd';
import type { ParseKeys } from 'i18next';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { HOME_PATH } from '../core/open-paths';
import { useSessionStore } from '../core/session-store';
import { http } from '../lib/http';
import { ownerOf, type MenuChoice, type ParentMenuOption, type PostOption } from './menu-choice';
import { applyPending, restoreChoice, switchMenu, useMenuSwitchStore } from './menu-switch';
import styles from './MenuSwitch.module.css';

/**
 * Spec §4 navbar switch: narrow the menu to one parent menu, and act in one of the user's posts.
 * Either change reloads the menu and regenerates the routes; clearing both restores the full
 * menu. The choice survives a reload of the tab.
 */
export function MenuSwitch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const user = useSessionStore((state) => state.user);
  const activeRole = useSessionStore((state) => state.activeRole);
  const choice = useMenuSwitchStore((state) => state.choice);
  const switching = useMenuSwitchStore((state) => state.switching);
  const owner = user && activeRole ? ownerOf(user, activeRole) : '';

  const parents = useQuery({
    queryKey: ['menu-switch', 'parents', owner],
    queryFn: ({ signal }) =>
      http.get<ParentMenuOption[]>('/api/account/sysuserdetail/queryParentMenu', {
        signal,
        silent: true,
      }),
    enabled: !!owner,
    staleTime: Infinity,
  });
  const posts = useQuery({
    queryKey: ['menu-switch', 'posts', owner],
    queryFn: ({ signal }) =>
      http.get<PostOption[]>('/api/admin/sysuserpost/queryUserPostOptions', {
        signal,
        silent: true,
      }),
    enabled: !!owner,
    staleTime: Infinity,
  });

  const leave = useCallback(() => void navigate(HOME_PATH), [navigate]);

  useEffect(() => applyPending(pathname), [pathname]);

  useEffect(() => {
    if (owner && parents.data && posts.data) restoreChoice(owner, parents.data, posts.data, leave);
  }, [owner, parents.data, posts.data, leave]);

  const parentOptions = parents.data ?? [];
  const postOptions = posts.data ?? [];
  // Nothing to switch between: one parent menu and no post (or the options are still loading).
  const showParents = parentOptions.length > 1 || (!!parents.data && !!choice.parentId);
  const showPosts = postOptions.length > 0;
  if (!owner || (!showParents && !showPosts)) return null;

  const label = (name: string) => (name.startsWith('route.') ? t(name as ParseKeys) : name);
  const change = (next: MenuChoice) => void switchMenu(owner, next, leave);

  return (
    <Space size={0} className={styles.switch} data-testid="menu-switch">
      {showParents && (
        <Select<string>
          className={styles.select}
          variant="borderless"
          allowClear
          placeholder={t('adminExtra.menuSwitch.allMenus')}
          aria-label={t('adminExtra.menuSwitch.parentMenu')}
          value={choice.parentId}
          loading={switching}
          disabled={switching}
          popupMatchSelectWidth={false}
          onChange={(parentId) => change({ ...choice, parentId: parentId || undefined })}
          options={parentOptions.map((menu) => ({ value: menu.id, label: label(menu.menuName) }))}
          data-testid="menu-switch-parent"
        />
      )}
      {showPosts && (
        <Select<string>
          className={styles.select}
          variant="borderless"
          allowClear
          placeholder={t('adminExtra.menuSwitch.noPost')}
          aria-label={t('adminExtra.menuSwitch.post')}
          value={choice.postCode}
          loading={switching}
          disabled={switching}
          popupMatchSelectWidth={false}
          onChange={(postCode) => change({ ...choice, postCode: postCode || undefined })}
          options={postOptions.map((post) => ({ value: post.postCode, label: post.postName }))}
          data-testid="menu-switch-post"
        />
      )}
    </Space>
  );
}

import { Drawer, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../layout/app-state';
import type { RoleRef } from './authority-api';
import { ButtonGrantTab } from './ButtonGrantTab';
import { DataFieldGrantTab } from './DataFieldGrantTab';
import { MenuGrantTab } from './MenuGrantTab';
import { UrlGrantTab } from './UrlGrantTab';

export interface RoleAuthorizeDrawerProps {
  /** The role whose menus, buttons, URLs and data fields are edited. */
  role: RoleRef;
  open: boolean;
  onClose: () => void;
}

/**
 * Spec §6: authorise a role with menus, menu buttons, API URLs and data fields. Each tab saves
 * its own list; what a tab holds unsaved survives switching tabs until the drawer closes.
 */
export function RoleAuthorizeDrawer({ role, open, onClose }: RoleAuthorizeDrawerProps) {
  const { t } = useTranslation();
  const mobile = useAppStore((state) => state.device === 'mobile');
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('authority.authorizeTitle', { role: role.roleName || role.roleCode })}
      size={mobile ? '100%' : 760}
      // A closed drawer forgets unsaved choices: reopening shows what the server has.
      destroyOnHidden
      data-testid="role-authorize-drawer"
    >
      <Tabs
        items={[
          {
            key: 'menus',
            label: t('authority.tabs.menus'),
            children: <MenuGrantTab role={role} />,
          },
          {
            key: 'buttons',
            label: t('authority.tabs.buttons'),
            children: <ButtonGrantTab role={role} />,
          },
          { key: 'urls', label: t('authority.tabs.urls'), children: <UrlGrantTab role={role} /> },
          {
            key: 'data',
            label: t('authority.tabs.data'),
            children: <DataFieldGrantTab role={role} />,
          },
        ]}
      />
    </Drawer>
  );
}

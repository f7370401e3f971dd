import { sysMenuButtonEntity, sysMenuEntity } from '@shuili/contract';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ResourceRow } from '../../resource/resource-row';
import { TreeWithDetail } from './TreeWithDetail';

/** Menu names are the web's route title keys (route.*): shown translated, the key on hover. */
function useMenuName() {
  const { t, i18n } = useTranslation();
  return (value: unknown) => {
    const key = typeof value === 'string' ? value : '';
    return i18n.exists(key) ? t(key as ParseKeys) : key;
  };
}

/** Spec §2 /admin/sysmenu: the menu tree and, for the chosen menu, its buttons. */
export function SysMenuPage() {
  const { t } = useTranslation();
  const menuName = useMenuName();
  return (
    <TreeWithDetail
      master={sysMenuEntity}
      detail={sysMenuButtonEntity}
      detailField="menuId"
      detailTitle={(row: ResourceRow) =>
        t('resource.menu.buttons', { menu: menuName(row.menuName) })
      }
      emptyText={t('resource.menu.choose')}
      chooseLabel={t('resource.menu.showButtons')}
      masterCells={{
        // The stored key (route.home) is the menu's data, not something to read: it shows on
        // hover only, so no screen shows a translation key.
        menuName: (value) => {
          const name = menuName(value);
          return name === value ? name : <span title={String(value)}>{name}</span>;
        },
      }}
    />
  );
}

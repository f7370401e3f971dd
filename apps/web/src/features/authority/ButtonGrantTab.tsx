import { TOAST_MS, type MenuButtonNode } from '@shuili/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Empty, Skeleton, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../lib/feedback';
import { authorityApi, authorityKeys, type RoleRef } from './authority-api';
import { isKnownAction } from './button-actions';
import { useMenuButtonTree } from './MenuGrantTab';
import { buttonAction, menusWithButtons } from './menu-tree';
import styles from './RoleAuthorizeDrawer.module.css';
import { toggleIds } from './url-grants';
import { useMenuLabel } from './use-menu-label';

type MenuButton = MenuButtonNode['buttons'][number];

/** Spec §6 "menu buttons can be authorised per role": each menu's buttons as checkboxes. */
export function ButtonGrantTab({ role }: { role: RoleRef }) {
  const { t } = useTranslation();
  const label = useMenuLabel();
  const queryClient = useQueryClient();
  const tree = useMenuButtonTree();
  const granted = useQuery({
    queryKey: authorityKeys.roleButtons(role.id, role.roleCode),
    queryFn: ({ signal }) => authorityApi.roleButtonIds(role.roleCode, signal),
  });
  // The saved menus of the role: buttons of a menu the role cannot open are of no use.
  const menus = useQuery({
    queryKey: authorityKeys.roleMenus(role.id),
    queryFn: ({ signal }) => authorityApi.roleMenuIds(role.id, signal),
  });
  const [edited, setEdited] = useState<string[] | undefined>();
  const entries = useMemo(() => menusWithButtons(tree.data ?? []), [tree.data]);
  const selected = edited ?? granted.data ?? [];
  const selectedSet = new Set(selected);
  const grantedMenus = new Set(menus.data ?? []);
  const allButtons = entries.flatMap(({ node }) => node.buttons.map((button) => button.id));

  const buttonLabel = (button: MenuButton) => {
    const action = buttonAction(button.buttonCode);
    return isKnownAction(action) ? t(`authority.buttonActions.${action}`) : button.buttonName;
  };

  const save = useMutation({
    // Every button of the role at once: the list replaces what the role held.
    mutationFn: () =>
      authorityApi.authorizeButtons(
        role.id,
        selected.filter((id) => allButtons.includes(id)),
      ),
    onSuccess: async () => {
      feedback.success(t('authority.saved'), TOAST_MS.success / 1000);
      await queryClient.invalidateQueries({ queryKey: authorityKeys.role(role.id) });
      setEdited(undefined);
    },
  });

  if (tree.isPending || granted.isPending) return <Skeleton active />;
  if (tree.isError || granted.isError) {
    return <Alert type="error" showIcon title={t('authority.loadFailed')} />;
  }
  if (entries.length === 0) return <Empty description={t('authority.buttons.none')} />;

  return (
    <div className={styles.tab} data-testid="grant-buttons">
      <div className={styles.toolbar}>
        <Space wrap>
          <Button onClick={() => setEdited(allButtons)}>{t('authority.checkAll')}</Button>
          <Button onClick={() => setEdited([])}>{t('authority.clear')}</Button>
          <Button onClick={() => setEdited(undefined)} disabled={!edited}>
            {t('authority.undo')}
          </Button>
        </Space>
        <Space wrap>
          <Typography.Text type="secondary">
            {t('authority.buttons.count', {
              count: allButtons.filter((id) => selectedSet.has(id)).length,
              total: allButtons.length,
            })}
          </Typography.Text>
          <Button
            type="primary"
            loading={save.isPending}
            onClick={() => save.mutate()}
            data-testid="grant-buttons-save"
          >
            {t('authority.save')}
          </Button>
        </Space>
      </div>
      <div>
        {entries.map(({ node, path }) => {
          const ids = node.buttons.map((button) => button.id);
          const on = ids.filter((id) => selectedSet.has(id)).length;
          return (
            <div
              key={node.id}
              className={styles.menuRow}
              data-testid="grant-buttons-menu"
              data-menu={node.menuCode}
            >
              <div className={styles.menuHead}>
                <Checkbox
                  checked={on === ids.length}
                  indeterminate={on > 0 && on < ids.length}
                  onChange={(event) => setEdited(toggleIds(selected, ids, event.target.checked))}
                >
                  <Typography.Text strong>
                    {path.map((step) => label(step.menuName)).join(' / ')}
                  </Typography.Text>
                </Checkbox>
                {menus.data && !grantedMenus.has(node.id) && (
                  <Tag color="warning">{t('authority.buttons.menuNotGranted')}</Tag>
                )}
              </div>
              <Space wrap size={[16, 4]}>
                {node.buttons.map((button) => (
                  <Checkbox
                    key={button.id}
                    checked={selectedSet.has(button.id)}
                    onChange={(event) =>
                      setEdited(toggleIds(selected, [button.id], event.target.checked))
                    }
                    data-testid="grant-button"
                    data-code={button.buttonCode}
                  >
                    {buttonLabel(button)}
                  </Checkbox>
                ))}
              </Space>
            </div>
          );
        })}
      </div>
    </div>
  );
}

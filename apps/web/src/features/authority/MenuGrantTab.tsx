import { TOAST_MS, type MenuButtonNode } from '@shuili/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Skeleton, Space, Tree, Typography, type TreeDataNode } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../lib/feedback';
import { authorityApi, authorityKeys, type RoleRef } from './authority-api';
import styles from './RoleAuthorizeDrawer.module.css';
import { allMenuIds, checkedLeafIds, flattenMenus, menuIdsToSave } from './menu-tree';
import { useMenuLabel } from './use-menu-label';

/** The menu tree everybody editing a role shares: it changes only on the menus screen. */
export function useMenuButtonTree() {
  return useQuery({
    queryKey: authorityKeys.menuTree,
    queryFn: ({ signal }) => authorityApi.menuButtonTree(signal),
  });
}

function toTreeData(nodes: readonly MenuButtonNode[], label: (name: string) => string) {
  const convert = (node: MenuButtonNode): TreeDataNode => ({
    key: node.id,
    title: label(node.menuName),
    children: node.children.map(convert),
  });
  return nodes.map(convert);
}

/** Spec §6 "roles can be authorised with menus": a checkable menu tree of the role. */
export function MenuGrantTab({ role }: { role: RoleRef }) {
  const { t } = useTranslation();
  const label = useMenuLabel();
  const queryClient = useQueryClient();
  const tree = useMenuButtonTree();
  const granted = useQuery({
    queryKey: authorityKeys.roleMenus(role.id),
    queryFn: ({ signal }) => authorityApi.roleMenuIds(role.id, signal),
  });
  // Undefined until the user checks something: the tree shows what the server has.
  const [edited, setEdited] = useState<string[] | undefined>();
  const nodes = useMemo(() => tree.data ?? [], [tree.data]);
  const treeData = useMemo(() => toTreeData(nodes, label), [nodes, label]);
  const serverChecked = useMemo(
    () => checkedLeafIds(nodes, granted.data ?? []),
    [nodes, granted.data],
  );
  const checked = edited ?? serverChecked;
  const count = menuIdsToSave(nodes, checked).length;

  const save = useMutation({
    mutationFn: () => authorityApi.authorizeMenus(role.id, menuIdsToSave(nodes, checked)),
    onSuccess: async () => {
      feedback.success(t('authority.saved'), TOAST_MS.success / 1000);
      await queryClient.invalidateQueries({ queryKey: authorityKeys.roleMenus(role.id) });
      setEdited(undefined);
    },
  });

  if (tree.isPending || granted.isPending) return <Skeleton active />;
  if (tree.isError || granted.isError) {
    return <Alert type="error" showIcon title={t('authority.loadFailed')} />;
  }
  if (nodes.length === 0) return <Empty description={t('authority.menus.none')} />;

  return (
    <div className={styles.tab} data-testid="grant-menus">
      <div className={styles.toolbar}>
        <Space wrap>
          <Button onClick={() => setEdited(allMenuIds(nodes))} data-testid="grant-menus-all">
            {t('authority.checkAll')}
          </Button>
          <Button onClick={() => setEdited([])} data-testid="grant-menus-none">
            {t('authority.clear')}
          </Button>
          <Button onClick={() => setEdited(undefined)} disabled={!edited}>
            {t('authority.undo')}
          </Button>
        </Space>
        <Space wrap>
          <Typography.Text type="secondary">
            {t('authority.menus.count', { count, total: flattenMenus(nodes).length })}
          </Typography.Text>
          <Button
            type="primary"
            loading={save.isPending}
            onClick={() => save.mutate()}
            data-testid="grant-menus-save"
          >
            {t('authority.save')}
          </Button>
        </Space>
      </div>
      <Typography.Paragraph type="secondary" className={styles.hint}>
        {t('authority.menus.hint')}
      </Typography.Paragraph>
      <Tree
        checkable
        selectable={false}
        defaultExpandAll
        treeData={treeData}
        checkedKeys={checked}
        onCheck={(keys) => setEdited((Array.isArray(keys) ? keys : keys.checked).map(String))}
        data-testid="grant-menus-tree"
      />
    </div>
  );
}

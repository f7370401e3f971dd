import { ApartmentOutlined, UserOutlined } from '@ant-design/icons';
import { TOAST_MS, type OrgUserNode } from '@shuili/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Drawer,
  Empty,
  Input,
  Skeleton,
  Space,
  Tree,
  Typography,
  type TreeDataNode,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../layout/app-state';
import { feedback } from '../../lib/feedback';
import { authorityApi, authorityKeys, type RoleRef } from './authority-api';
import {
  assignedUserKeys,
  filterOrgUserTree,
  holdsUsers,
  mergeCheckedUsers,
  userIdsOf,
  userKeys,
} from './org-user-tree';
import styles from './RoleAuthorizeDrawer.module.css';

export interface RoleUsersDrawerProps {
  /** The role whose holders are edited. */
  role: RoleRef;
  open: boolean;
  onClose: () => void;
  /** After the holders were saved (a user list showing roles may refresh). */
  onSaved?: () => void;
}

function toTreeData(nodes: readonly OrgUserNode[]): TreeDataNode[] {
  return nodes.map((node) => ({
    key: node.key,
    title: node.title,
    icon: node.kind === 'org' ? <ApartmentOutlined /> : <UserOutlined />,
    // An organisation without users has nothing to grant.
    disableCheckbox: !holdsUsers(node),
    children: toTreeData(node.children),
  }));
}

/** Spec §6 "roles can be ... assigned users": who holds the role, picked from the organisations. */
export function RoleUsersDrawer({ role, open, onClose, onSaved }: RoleUsersDrawerProps) {
  const { t } = useTranslation();
  const mobile = useAppStore((state) => state.device === 'mobile');
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('authority.users.title', { role: role.roleName || role.roleCode })}
      size={mobile ? '100%' : 520}
      destroyOnHidden
      data-testid="role-users-drawer"
    >
      <RoleUsers role={role} onSaved={onSaved} />
    </Drawer>
  );
}

function RoleUsers({ role, onSaved }: { role: RoleRef; onSaved?: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tree = useQuery({
    queryKey: authorityKeys.roleUsers(role.id),
    queryFn: ({ signal }) => authorityApi.orgUserTree(role.id, signal),
  });
  const [edited, setEdited] = useState<string[] | undefined>();
  const [text, setText] = useState('');
  const nodes = useMemo(() => tree.data ?? [], [tree.data]);
  const shown = useMemo(() => filterOrgUserTree(nodes, text), [nodes, text]);
  const shownData = useMemo(() => toTreeData(shown), [shown]);
  const shownUsers = useMemo(() => new Set(userKeys(shown)), [shown]);
  const checked = edited ?? assignedUserKeys(nodes);
  const total = userKeys(nodes).length;

  const save = useMutation({
    mutationFn: () => authorityApi.authorizeUsers(role.id, userIdsOf(nodes, checked)),
    onSuccess: async () => {
      feedback.success(t('authority.saved'), TOAST_MS.success / 1000);
      await queryClient.invalidateQueries({ queryKey: authorityKeys.roleUsers(role.id) });
      setEdited(undefined);
      onSaved?.();
    },
  });

  if (tree.isPending) return <Skeleton active />;
  if (tree.isError) return <Alert type="error" showIcon title={t('authority.loadFailed')} />;

  return (
    <div className={styles.tab} data-testid="role-users">
      <div className={styles.toolbar}>
        <Typography.Text type="secondary" data-testid="role-users-count">
          {t('authority.users.count', { count: userIdsOf(nodes, checked).length, total })}
        </Typography.Text>
        <Space wrap>
          <Button onClick={() => setEdited(undefined)} disabled={!edited}>
            {t('authority.undo')}
          </Button>
          <Button
            type="primary"
            loading={save.isPending}
            onClick={() => save.mutate()}
            data-testid="role-users-save"
          >
            {t('authority.save')}
          </Button>
        </Space>
      </div>
      <Input.Search
        allowClear
        placeholder={t('authority.users.search')}
        aria-label={t('authority.users.search')}
        onSearch={setText}
        onChange={(event) => setText(event.target.value)}
        data-testid="role-users-search"
      />
      <Typography.Paragraph type="secondary" className={styles.hint}>
        {t('authority.users.hint')}
      </Typography.Paragraph>
      {shown.length === 0 ? (
        <Empty description={t('authority.users.none')} />
      ) : (
        <Tree
          // A new filter lays the tree out afresh, every level open.
          key={text}
          className={styles.userTree}
          checkable
          selectable={false}
          showIcon
          defaultExpandAll
          treeData={shownData}
          checkedKeys={checked.filter((key) => shownUsers.has(key))}
          onCheck={(keys) =>
            setEdited(
              mergeCheckedUsers(
                checked,
                shown,
                (Array.isArray(keys) ? keys : keys.checked).map(String),
              ),
            )
          }
          data-testid="role-users-tree"
        />
      )}
    </div>
  );
}

import { TOAST_MS } from '@shuili/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Empty,
  Skeleton,
  Space,
  Switch,
  Tag,
  Tree,
  Typography,
  type TreeDataNode,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../core/permission';
import { useSessionStore } from '../../core/session-store';
import { feedback } from '../../lib/feedback';
import { adminExtraApi, adminExtraKeys, type UserListRow } from './admin-extra-api';
import styles from './AdminExtra.module.css';
import { loadZones } from './zone-store';
import { allZoneIds, buildZoneTree, toggleZone, type ZoneTreeNode } from './zone-tree';

export interface ZoneAssignmentProps {
  /** The user whose zones are shown and edited. */
  user: UserListRow;
}

/** The zone tree of one user: a checked zone is assigned; saving replaces the whole list. */
export function ZoneAssignment({ user }: ZoneAssignmentProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const mayAssign = usePermission('regionalManagement:assign');
  const myId = useSessionStore((state) => state.user?.id);
  const zones = useQuery({
    queryKey: adminExtraKeys.zones,
    queryFn: ({ signal }) => adminExtraApi.zones(signal),
  });
  const assigned = useQuery({
    queryKey: adminExtraKeys.assignedZones(user.id),
    queryFn: ({ signal }) => adminExtraApi.assignedZoneIds(user.id, signal),
  });
  const [edited, setEdited] = useState<string[] | undefined>();
  const [withChildren, setWithChildren] = useState(true);

  const tree = useMemo(() => buildZoneTree(zones.data?.list ?? []), [zones.data]);
  const known = useMemo(() => new Set(allZoneIds(tree)), [tree]);
  const checked = (edited ?? assigned.data ?? []).filter((id) => known.has(id));

  const treeData = useMemo(() => {
    const convert = (node: ZoneTreeNode): TreeDataNode => ({
      key: node.id,
      title: (
        <Space size={4}>
          <span>{node.row.zoneName}</span>
          {node.row.zoneCode && (
            <Typography.Text type="secondary">{node.row.zoneCode}</Typography.Text>
          )}
          {node.row.status === 0 && <Tag>{t('adminExtra.zones.disabled')}</Tag>}
        </Space>
      ),
      children: node.children.map(convert),
    });
    return tree.map(convert);
  }, [tree, t]);

  const save = useMutation({
    mutationFn: () => adminExtraApi.assignZones(user.id, checked),
    onSuccess: async () => {
      feedback.success(t('adminExtra.saved'), TOAST_MS.success / 1000);
      await queryClient.invalidateQueries({ queryKey: adminExtraKeys.assignedZones(user.id) });
      setEdited(undefined);
      // The signed-in user's own zones changed: the monitoring screens must see it.
      if (user.id === myId) void loadZones({ force: true });
    },
  });

  const title = t('adminExtra.zones.zonesOf', { user: user.nickname || user.username });
  if (zones.isPending || assigned.isPending) {
    return (
      <Card title={title}>
        <Skeleton active />
      </Card>
    );
  }
  if (zones.isError || assigned.isError) {
    return (
      <Card title={title}>
        <Alert type="error" showIcon title={t('adminExtra.loadFailed')} />
      </Card>
    );
  }

  return (
    <Card
      title={title}
      data-testid="zone-assignment"
      extra={
        mayAssign && (
          <Button
            type="primary"
            loading={save.isPending}
            onClick={() => save.mutate()}
            data-testid="zone-assign-save"
          >
            {t('adminExtra.save')}
          </Button>
        )
      }
    >
      {tree.length === 0 ? (
        <Empty description={t('adminExtra.zones.none')} />
      ) : (
        <>
          <div className={styles.toolbar}>
            <Typography.Text type="secondary" data-testid="zone-assign-count">
              {t('adminExtra.zones.count', { count: checked.length, total: known.size })}
            </Typography.Text>
            {mayAssign && (
              <Space wrap>
                <Space size={6}>
                  <Switch
                    size="small"
                    checked={withChildren}
                    onChange={setWithChildren}
                    aria-label={t('adminExtra.zones.withChildren')}
                  />
                  <span>{t('adminExtra.zones.withChildren')}</span>
                </Space>
                <Button size="small" onClick={() => setEdited([...known])}>
                  {t('adminExtra.checkAll')}
                </Button>
                <Button size="small" onClick={() => setEdited([])}>
                  {t('adminExtra.clear')}
                </Button>
                <Button size="small" onClick={() => setEdited(undefined)} disabled={!edited}>
                  {t('adminExtra.undo')}
                </Button>
              </Space>
            )}
          </div>
          <Typography.Paragraph type="secondary">{t('adminExtra.zones.hint')}</Typography.Paragraph>
          <Tree
            className={styles.zoneTree}
            checkable
            checkStrictly
            selectable={false}
            defaultExpandAll
            disabled={!mayAssign}
            treeData={treeData}
            checkedKeys={{ checked, halfChecked: [] }}
            onCheck={(_, info) =>
              setEdited(
                toggleZone(checked, tree, String(info.node.key), info.checked, withChildren),
              )
            }
            data-testid="zone-tree"
          />
        </>
      )}
    </Card>
  );
}

import { TOAST_MS } from '@shuili/contract';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Checkbox,
  Empty,
  Popconfirm,
  Select,
  Skeleton,
  Space,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocaleStore } from '../../i18n/i18n';
import { feedback } from '../../lib/feedback';
import {
  authorityApi,
  authorityKeys,
  type DataField,
  type DataPermissionRule,
  type RoleRef,
} from './authority-api';
import { useMenuButtonTree } from './MenuGrantTab';
import { leafMenus } from './menu-tree';
import styles from './RoleAuthorizeDrawer.module.css';
import { useMenuLabel } from './use-menu-label';

function fieldsOf(rule: DataPermissionRule | undefined): string[] {
  return (rule?.dataFields ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/**
 * Spec §6 "data fields can be authorised per role": per menu, the fields of its screen the role
 * may see. Without a rule the role sees every field.
 */
export function DataFieldGrantTab({ role }: { role: RoleRef }) {
  const { t } = useTranslation();
  const label = useMenuLabel();
  const queryClient = useQueryClient();
  const tree = useMenuButtonTree();
  const rules = useQuery({
    queryKey: authorityKeys.dataRules(role.id, role.roleCode),
    queryFn: ({ signal }) => authorityApi.dataRules(role.roleCode, signal),
  });
  const [menuCode, setMenuCode] = useState<string | undefined>();

  const menus = useMemo(() => leafMenus(tree.data ?? []), [tree.data]);
  const menuNames = useMemo(
    () =>
      new Map(
        menus.map(({ node, path }) => [
          node.menuCode,
          path.map((step) => label(step.menuName)).join(' / '),
        ]),
      ),
    [menus, label],
  );
  const ruleList = rules.data?.list ?? [];
  const rule = ruleList.find((item) => item.menuCode === menuCode);
  // The rules name fields by code; their screens' field lists say how people call them.
  const lang = useLocaleStore((state) => state.lang);
  const ruleMenus = [...new Set(ruleList.map((item) => item.menuCode))];
  const ruleFields = useQueries({
    queries: ruleMenus.map((code) => ({
      queryKey: authorityKeys.dataFields(code, lang),
      queryFn: ({ signal }: { signal: AbortSignal }) => authorityApi.dataFields(code, signal),
    })),
  });
  const fieldLabel = (code: string, field: string) =>
    ruleFields[ruleMenus.indexOf(code)]?.data?.find((item) => item.field === field)?.label ?? field;

  const remove = useMutation({
    mutationFn: (id: string) => authorityApi.deleteDataRule(id),
    onSuccess: async () => {
      feedback.success(t('authority.data.removed'), TOAST_MS.success / 1000);
      await queryClient.invalidateQueries({
        queryKey: authorityKeys.dataRules(role.id, role.roleCode),
      });
    },
  });

  if (tree.isPending || rules.isPending) return <Skeleton active />;
  if (tree.isError || rules.isError) {
    return <Alert type="error" showIcon title={t('authority.loadFailed')} />;
  }

  const columns: TableColumnsType<DataPermissionRule> = [
    {
      key: 'menu',
      title: t('authority.data.menu'),
      render: (_, item) => menuNames.get(item.menuCode) ?? item.menuCode,
    },
    {
      key: 'fields',
      title: t('authority.data.fields'),
      render: (_, item) =>
        fieldsOf(item).map((name) => <Tag key={name}>{fieldLabel(item.menuCode, name)}</Tag>),
    },
    {
      key: 'actions',
      title: t('authority.actions'),
      width: 150,
      render: (_, item) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setMenuCode(item.menuCode)}>
            {t('authority.data.edit')}
          </Button>
          <Popconfirm
            title={t('authority.data.removeTitle')}
            description={t('authority.data.removeConfirm')}
            okText={t('authority.data.remove')}
            cancelText={t('authority.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => remove.mutateAsync(item.id)}
          >
            <Button type="link" size="small" danger data-testid="grant-data-remove">
              {t('authority.data.remove')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div className={styles.tab} data-testid="grant-data">
      <Typography.Paragraph type="secondary" className={styles.hint}>
        {t('authority.data.hint')}
      </Typography.Paragraph>
      <Table<DataPermissionRule>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={ruleList}
        pagination={false}
        locale={{ emptyText: t('authority.data.noRules') }}
        data-testid="grant-data-rules"
      />
      <Select
        showSearch
        optionFilterProp="label"
        placeholder={t('authority.data.chooseMenu')}
        aria-label={t('authority.data.chooseMenu')}
        value={menuCode}
        onChange={setMenuCode}
        options={menus.map(({ node }) => ({
          value: node.menuCode,
          label: menuNames.get(node.menuCode) ?? node.menuCode,
        }))}
        data-testid="grant-data-menu"
      />
      {menuCode && (
        <DataFieldEditor
          // A fresh choice of fields for every menu.
          key={`${menuCode}:${rule?.id ?? ''}:${rule?.dataFields ?? ''}`}
          role={role}
          menuCode={menuCode}
          rule={rule}
        />
      )}
    </div>
  );
}

interface DataFieldEditorProps {
  role: RoleRef;
  menuCode: string;
  rule: DataPermissionRule | undefined;
}

function DataFieldEditor({ role, menuCode, rule }: DataFieldEditorProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const lang = useLocaleStore((state) => state.lang);
  const fields = useQuery({
    queryKey: authorityKeys.dataFields(menuCode, lang),
    queryFn: ({ signal }) => authorityApi.dataFields(menuCode, signal),
  });
  const [edited, setEdited] = useState<string[] | undefined>();
  const all = (fields.data ?? []).map((field) => field.field);
  // Without a rule every field shows: start from all of them.
  const picked = edited ?? (rule ? fieldsOf(rule) : all);

  const save = useMutation({
    mutationFn: () =>
      authorityApi.authorizeDataFields(
        role.roleCode,
        menuCode,
        all.filter((name) => picked.includes(name)),
      ),
    onSuccess: async () => {
      feedback.success(t('authority.saved'), TOAST_MS.success / 1000);
      await queryClient.invalidateQueries({
        queryKey: authorityKeys.dataRules(role.id, role.roleCode),
      });
    },
  });

  if (fields.isPending) return <Skeleton active />;
  if (fields.isError) return <Alert type="error" showIcon title={t('authority.loadFailed')} />;
  if (all.length === 0) return <Empty description={t('authority.data.noFields')} />;

  const chosen = all.filter((name) => picked.includes(name)).length;
  return (
    <div className={styles.tab} data-testid="grant-data-editor">
      {!rule && <Alert type="info" showIcon title={t('authority.data.noRule')} />}
      <div className={styles.toolbar}>
        <Checkbox
          checked={chosen === all.length}
          indeterminate={chosen > 0 && chosen < all.length}
          onChange={(event) => setEdited(event.target.checked ? all : [])}
        >
          {t('authority.checkAll')}
        </Checkbox>
        <Space wrap>
          <Typography.Text type={chosen === 0 ? 'danger' : 'secondary'}>
            {chosen === 0
              ? t('authority.data.pickOne')
              : t('authority.data.count', { count: chosen, total: all.length })}
          </Typography.Text>
          <Button
            type="primary"
            disabled={chosen === 0}
            loading={save.isPending}
            onClick={() => save.mutate()}
            data-testid="grant-data-save"
          >
            {t('authority.save')}
          </Button>
        </Space>
      </div>
      <Checkbox.Group<string>
        className={styles.fields}
        value={picked}
        onChange={(values) => setEdited(values)}
        options={(fields.data ?? []).map((field: DataField) => ({
          value: field.field,
          label: field.label,
        }))}
        data-testid="grant-data-fields"
      />
    </div>
  );
}

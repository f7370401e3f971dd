import { TOAST_MS } from '@shuili/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Input,
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
import { feedback } from '../../lib/feedback';
import { authorityApi, authorityKeys, type RoleRef } from './authority-api';
import styles from './RoleAuthorizeDrawer.module.css';
import {
  filterUrls,
  idsWithPrefix,
  readOnlyIds,
  toggleIds,
  urlPrefixes,
  type UrlRow,
} from './url-grants';

const METHOD_COLORS: Record<string, string> = {
  GET: 'blue',
  POST: 'green',
  PUT: 'orange',
  DELETE: 'red',
};

/** Spec §6 "roles can be authorised with API URLs": the calls the role may make. */
export function UrlGrantTab({ role }: { role: RoleRef }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const urls = useQuery({
    queryKey: authorityKeys.urls,
    queryFn: ({ signal }) => authorityApi.urls(signal),
  });
  const granted = useQuery({
    queryKey: authorityKeys.roleUrls(role.id),
    queryFn: ({ signal }) => authorityApi.roleUrlIds(role.id, signal),
  });
  const [edited, setEdited] = useState<string[] | undefined>();
  const [text, setText] = useState('');
  const [prefix, setPrefix] = useState<string | undefined>();
  const rows = useMemo(() => urls.data?.list ?? [], [urls.data]);
  const shown = useMemo(() => filterUrls(rows, text), [rows, text]);
  const prefixes = useMemo(() => urlPrefixes(rows), [rows]);
  const known = useMemo(() => new Set(rows.map((row) => row.id)), [rows]);
  const selected = edited ?? granted.data ?? [];
  const count = selected.filter((id) => known.has(id)).length;

  const save = useMutation({
    mutationFn: () =>
      authorityApi.authorizeUrls(
        role.id,
        selected.filter((id) => known.has(id)),
      ),
    onSuccess: async () => {
      feedback.success(t('authority.saved'), TOAST_MS.success / 1000);
      await queryClient.invalidateQueries({ queryKey: authorityKeys.roleUrls(role.id) });
      setEdited(undefined);
    },
  });

  const columns: TableColumnsType<UrlRow> = [
    {
      key: 'method',
      dataIndex: 'method',
      title: t('authority.urls.method'),
      width: 90,
      filters: ['GET', 'POST', 'PUT', 'DELETE'].map((value) => ({ text: value, value })),
      onFilter: (value, row) => row.method === value,
      render: (method: string) => <Tag color={METHOD_COLORS[method]}>{method}</Tag>,
    },
    {
      key: 'url',
      dataIndex: 'url',
      title: t('authority.urls.url'),
      render: (url: string) => <span className={styles.url}>{url}</span>,
    },
    {
      key: 'description',
      dataIndex: 'description',
      title: t('authority.urls.description'),
      ellipsis: true,
    },
  ];

  if (urls.isPending || granted.isPending) return <Skeleton active />;
  if (urls.isError || granted.isError) {
    return <Alert type="error" showIcon title={t('authority.loadFailed')} />;
  }

  const applyPrefix = (on: boolean) => {
    if (prefix) setEdited(toggleIds(selected, idsWithPrefix(rows, prefix), on));
  };

  return (
    <div className={styles.tab} data-testid="grant-urls">
      <div className={styles.toolbar}>
        <Input.Search
          allowClear
          placeholder={t('authority.urls.search')}
          aria-label={t('authority.urls.search')}
          onSearch={setText}
          onChange={(event) => setText(event.target.value)}
          style={{ maxWidth: 320 }}
          data-testid="grant-urls-search"
        />
        <Space wrap>
          <Typography.Text type="secondary" data-testid="grant-urls-count">
            {t('authority.urls.count', { count, total: rows.length })}
          </Typography.Text>
          <Button
            type="primary"
            loading={save.isPending}
            onClick={() => save.mutate()}
            data-testid="grant-urls-save"
          >
            {t('authority.save')}
          </Button>
        </Space>
      </div>
      <Space wrap>
        <Space.Compact>
          <Select
            className={styles.prefixSelect}
            showSearch
            allowClear
            placeholder={t('authority.urls.prefix')}
            aria-label={t('authority.urls.prefix')}
            value={prefix}
            onChange={setPrefix}
            options={prefixes.map((entry) => ({
              value: entry.prefix,
              label: `${entry.prefix} (${entry.count})`,
            }))}
            data-testid="grant-urls-prefix"
          />
          <Button
            disabled={!prefix}
            onClick={() => applyPrefix(true)}
            data-testid="grant-urls-prefix-on"
          >
            {t('authority.urls.selectPrefix')}
          </Button>
          <Button disabled={!prefix} onClick={() => applyPrefix(false)}>
            {t('authority.urls.deselectPrefix')}
          </Button>
        </Space.Compact>
        <Button
          onClick={() => setEdited(toggleIds(selected, readOnlyIds(rows), true))}
          data-testid="grant-urls-read-only"
        >
          {t('authority.urls.readOnly')}
        </Button>
        <Button onClick={() => setEdited([])}>{t('authority.clear')}</Button>
        <Button onClick={() => setEdited(undefined)} disabled={!edited}>
          {t('authority.undo')}
        </Button>
      </Space>
      <Table<UrlRow>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={shown}
        pagination={{ defaultPageSize: 20, showSizeChanger: true, pageSizeOptions: [20, 50, 100] }}
        rowSelection={{
          selectedRowKeys: selected,
          preserveSelectedRowKeys: true,
          onChange: (keys) => setEdited(keys.map(String)),
        }}
        data-testid="grant-urls-table"
      />
    </div>
  );
}

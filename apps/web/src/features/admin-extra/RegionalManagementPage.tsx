import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Empty, Input, Select, Space, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminExtraApi, adminExtraKeys, type UserListRow } from './admin-extra-api';
import styles from './AdminExtra.module.css';
import { ZoneAssignment } from './ZoneAssignment';

type SearchField = 'username' | 'nickname';

/** Spec §2 /admin/regionalManagement: which irrigation zones each user looks after. */
export function RegionalManagementPage() {
  const { t } = useTranslation();
  const [field, setField] = useState<SearchField>('nickname');
  const [text, setText] = useState('');
  const [page, setPage] = useState({ currentPage: 1, pageSize: 10 });
  const [chosen, setChosen] = useState<UserListRow | undefined>();

  const query = { ...page, [field]: text.trim() || undefined };
  const users = useQuery({
    queryKey: [...adminExtraKeys.users, query],
    queryFn: ({ signal }) => adminExtraApi.users(query, signal),
    placeholderData: keepPreviousData,
  });

  const columns: TableColumnsType<UserListRow> = [
    { key: 'nickname', dataIndex: 'nickname', title: t('adminExtra.zones.nickname') },
    { key: 'username', dataIndex: 'username', title: t('adminExtra.zones.username') },
    { key: 'org', dataIndex: 'orgIdLabel', title: t('adminExtra.zones.org'), ellipsis: true },
  ];

  return (
    <div className={styles.split} data-testid="regional-management-page">
      <Card title={t('adminExtra.zones.users')}>
        <Space.Compact className={styles.userSearch}>
          <Select<SearchField>
            value={field}
            onChange={setField}
            aria-label={t('adminExtra.zones.searchBy')}
            options={[
              { value: 'nickname', label: t('adminExtra.zones.nickname') },
              { value: 'username', label: t('adminExtra.zones.username') },
            ]}
            popupMatchSelectWidth={false}
          />
          <Input.Search
            allowClear
            placeholder={t('adminExtra.zones.searchUser')}
            aria-label={t('adminExtra.zones.searchUser')}
            maxLength={64}
            onSearch={(value) => {
              setText(value);
              setPage((current) => ({ ...current, currentPage: 1 }));
            }}
            data-testid="zone-user-search"
          />
        </Space.Compact>
        <Table<UserListRow>
          size="small"
          rowKey="id"
          columns={columns}
          dataSource={users.data?.list ?? []}
          loading={users.isFetching}
          rowClassName={(row) =>
            `${styles.clickable} ${row.id === chosen?.id ? styles.chosenRow : ''}`
          }
          onRow={(row) => ({ onClick: () => setChosen(row) })}
          pagination={{
            current: page.currentPage,
            pageSize: page.pageSize,
            total: users.data?.total ?? 0,
            size: 'small',
            showTotal: (total) => t('adminExtra.total', { total }),
            onChange: (currentPage, pageSize) => setPage({ currentPage, pageSize }),
          }}
          data-testid="zone-users-table"
        />
      </Card>
      {chosen ? (
        <ZoneAssignment key={chosen.id} user={chosen} />
      ) : (
        <Card title={t('adminExtra.zones.zones')}>
          <Empty description={t('adminExtra.zones.chooseUser')} />
        </Card>
      )}
    </div>
  );
}

import { Card, Descriptions, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../../core/session-store';
import { dayPart } from './greeting';

/** Spec §2 pinned home tab: who is signed in, in which tenant, with which roles. */
export function WorkbenchPage() {
  const { t } = useTranslation();
  const user = useSessionStore((state) => state.user);
  const activeRole = useSessionStore((state) => state.activeRole);
  if (!user) return null;

  const name = user.nickname || user.username;
  return (
    <Card data-testid="workbench">
      <Typography.Title level={3} data-testid="greeting">
        {t(`home.greeting.${dayPart(new Date().getHours())}`, { name })}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('home.welcome')}</Typography.Paragraph>
      <Descriptions
        title={t('home.profile')}
        bordered
        column={{ xs: 1, sm: 1, md: 2 }}
        items={[
          {
            key: 'nickname',
            label: t('home.nickname'),
            children: <span data-testid="user-nickname">{user.nickname}</span>,
          },
          {
            key: 'username',
            label: t('home.username'),
            children: <span data-testid="user-username">{user.username}</span>,
          },
          {
            key: 'tenantName',
            label: t('home.tenantName'),
            children: <span data-testid="tenant-name">{user.tenantName}</span>,
          },
          {
            key: 'tenantCode',
            label: t('home.tenantCode'),
            children: <span data-testid="tenant-code">{user.tenantCode}</span>,
          },
          {
            key: 'roles',
            label: t('home.roles'),
            children: (
              <span data-testid="user-roles">
                {user.roles.map((role) => (
                  <Tag key={role} color={role === activeRole ? 'blue' : undefined}>
                    {role}
                  </Tag>
                ))}
              </span>
            ),
          },
          {
            key: 'activeRole',
            label: t('home.activeRole'),
            children: <span data-testid="active-role">{activeRole}</span>,
          },
        ]}
      />
    </Card>
  );
}

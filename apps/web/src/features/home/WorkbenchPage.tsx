import { Card, Descriptions, Skeleton, Tag, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../../core/session-store';
import { loadFeatureStrings } from '../../i18n/i18n';
import { dayPart } from './greeting';
import styles from './WorkbenchPage.module.css';

// The operations overview arrives as a chunk of its own with its strings, after the greeting has
// shown.
const WorkbenchOverview = lazy(() =>
  Promise.all([import('./overview/WorkbenchOverview'), loadFeatureStrings(['home'])]).then(
    ([module]) => ({ default: module.WorkbenchOverview }),
  ),
);

/**
 * Spec §2 pinned home tab: who is signed in, in which tenant, with which roles, and the
 * operations overview an operator looks at first.
 */
export function WorkbenchPage() {
  const { t } = useTranslation();
  const user = useSessionStore((state) => state.user);
  const activeRole = useSessionStore((state) => state.activeRole);
  if (!user) return null;

  const name = user.nickname || user.username;
  return (
    <div className={styles.page}>
      <Card data-testid="workbench" size="small">
        <Typography.Title level={4} data-testid="greeting" style={{ marginTop: 0 }}>
          {t(`home.greeting.${dayPart(new Date().getHours())}`, { name })}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('home.welcome')}</Typography.Paragraph>
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 2, lg: 3 }}
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
      <Suspense fallback={<Skeleton active />}>
        <WorkbenchOverview />
      </Suspense>
    </div>
  );
}

import type { MySession } from '@shuili/contract';
import { TOAST_MS } from '@shuili/contract';
import { Button, Card, List, Popconfirm, Space, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { logout } from '../../core/end-session';
import { feedback } from '../../lib/feedback';
import { formatDate } from '../../lib/format';
import { agentText } from '../admin-extra/user-agent';
import { securityApi } from './security-api';

/** The signed-in user's sessions: where and when, and signing out one, the others or all. */
export function SessionsCard() {
  const { t } = useTranslation();
  const [sessions, setSessions] = useState<MySession[]>();

  const load = useCallback(() => {
    void securityApi
      .sessions()
      .then(setSessions)
      .catch(() => undefined);
  }, []);
  useEffect(load, [load]);

  const signOutOne = async (session: MySession) => {
    await securityApi.signOutSession(session.id);
    if (session.current) {
      await logout();
      return;
    }
    feedback.success(t('sessions.signedOut', { count: 1 }), TOAST_MS.success / 1000);
    load();
  };
  const signOutOthers = async () => {
    const { count } = await securityApi.signOutOthers();
    feedback.success(t('sessions.signedOut', { count }), TOAST_MS.success / 1000);
    load();
  };
  const signOutEverywhere = async () => {
    await securityApi.signOutEverywhere();
    await logout();
  };

  return (
    <Card
      title={t('sessions.title')}
      data-testid="profile-sessions"
      extra={
        <Space wrap>
          <Button
            onClick={() => void signOutOthers().catch(() => undefined)}
            data-testid="sessions-sign-out-others"
          >
            {t('sessions.signOutOthers')}
          </Button>
          <Popconfirm
            title={t('sessions.everywhereConfirm')}
            okText={t('sessions.signOutEverywhere')}
            cancelText={t('mfa.cancel')}
            onConfirm={() => signOutEverywhere().catch(() => undefined)}
          >
            <Button danger data-testid="sessions-sign-out-everywhere">
              {t('sessions.signOutEverywhere')}
            </Button>
          </Popconfirm>
        </Space>
      }
    >
      <List
        loading={!sessions}
        dataSource={sessions ?? []}
        rowKey="id"
        renderItem={(session) => (
          <List.Item
            data-testid="session-row"
            data-current={session.current ? 'true' : 'false'}
            actions={[
              <Button
                key="out"
                size="small"
                onClick={() => void signOutOne(session).catch(() => undefined)}
                data-testid="session-sign-out"
              >
                {t('sessions.signOut')}
              </Button>,
            ]}
          >
            <List.Item.Meta
              title={
                <Space wrap>
                  <span>{agentText(session.userAgent) || t('sessions.unknownAgent')}</span>
                  {session.current && <Tag color="blue">{t('sessions.current')}</Tag>}
                </Space>
              }
              description={
                <Typography.Text type="secondary">
                  {t('sessions.detail', {
                    ip: session.ip ?? '—',
                    created: formatDate(session.createdAt, 'YYYY-MM-DD HH:mm'),
                    lastSeen: formatDate(session.lastSeenAt, 'YYYY-MM-DD HH:mm'),
                  })}
                </Typography.Text>
              }
            />
          </List.Item>
        )}
      />
    </Card>
  );
}

import { LockOutlined } from '@ant-design/icons';
import {
  LIMITS,
  normalizeMobile,
  SYS_USER_DETAIL_FIELDS,
  TOAST_MS,
  type FieldError,
  type SysUser,
  type UpdateSysUserDetailBody,
} from '@shuili/contract';
import { Button, Card, Col, Descriptions, Form, Input, Row, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../../core/session-store';
import { feedback } from '../../lib/feedback';
import { reportFormError } from '../../lib/form-errors';
import { AvatarPreview } from './AvatarPreview';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { CurrentPasswordDialog, proofRefusal } from './CurrentPasswordDialog';
import styles from './ProfilePage.module.css';
import { profileApi } from './profile-api';
import { SessionsCard } from './SessionsCard';
import { TwoStepCard } from './TwoStepCard';
import { PROFILE_LIMITS, useProfileRules } from './use-profile-rules';

interface ProfileValues {
  nickname: string;
  email: string;
  mobile: string;
  geographic: string;
  address: string;
  profile: string;
  avatar: string;
}

const FIELDS = SYS_USER_DETAIL_FIELDS;
const HTTP_URL = /^https?:\/\/\S+$/i;

function valuesOf(user: SysUser | undefined): ProfileValues {
  return {
    nickname: user?.nickname ?? '',
    email: user?.email ?? '',
    mobile: user?.phone ?? '',
    geographic: user?.geographic ?? '',
    address: user?.address ?? '',
    profile: user?.profile ?? '',
    avatar: user?.avatar ?? '',
  };
}

/** Spec §5: sent trimmed; an empty text clears the field on the server. */
function bodyOf(values: ProfileValues): UpdateSysUserDetailBody {
  const text = (value: string | undefined) => (value ?? '').trim();
  return {
    nickname: text(values.nickname),
    email: text(values.email),
    mobile: text(values.mobile),
    geographic: text(values.geographic),
    address: text(values.address),
    profile: text(values.profile),
    avatar: text(values.avatar),
  };
}

/**
 * Whether the form gives the account another e-mail or mobile: those decide how the account is
 * recovered, and the server takes them only with the current password.
 */
function changesAddresses(user: SysUser, values: ProfileValues): boolean {
  const email = (values.email ?? '').trim().toLowerCase();
  const mobile = normalizeMobile(values.mobile ?? '');
  return email !== (user.email ?? '').toLowerCase() || mobile !== (user.phone ?? '');
}

/** Spec §2 /profile/index: the signed-in user's own details and a way to change the password. */
export function ProfilePage() {
  const { t } = useTranslation();
  const user = useSessionStore((state) => state.user);
  const rules = useProfileRules();
  const [form] = Form.useForm<ProfileValues>();
  const [saving, setSaving] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);
  // Details waiting for the current password (a new e-mail or mobile).
  const [unproved, setUnproved] = useState<ProfileValues>();
  const typedAvatar = (Form.useWatch('avatar', form) ?? '').trim();

  if (!user) return null;
  const avatar = HTTP_URL.test(typedAvatar) ? typedAvatar : user.avatar;

  /**
   * Sends the details (with the current password once asked for); answers the server's refusal
   * of the password, which keeps the password dialog open.
   */
  const submit = async (
    values: ProfileValues,
    currentPassword?: string,
  ): Promise<FieldError | undefined> => {
    setSaving(true);
    try {
      const saved = await profileApi.updateSysUserDetail({ ...bodyOf(values), currentPassword });
      setUnproved(undefined);
      // The navbar and workbench read the session's user: they show the new details at once.
      useSessionStore.setState({ user: saved });
      form.setFieldsValue(valuesOf(saved));
      feedback.success(t('profile.saved'), TOAST_MS.success / 1000);
    } catch (error) {
      const refusal = proofRefusal(error);
      if (refusal) {
        setUnproved(values);
        // Asked for without a password typed yet: the dialog says why.
        return currentPassword === undefined ? undefined : refusal;
      }
      setUnproved(undefined);
      reportFormError(form, error, FIELDS);
    } finally {
      setSaving(false);
    }
    return undefined;
  };

  const save = (values: ProfileValues) => {
    if (changesAddresses(user, values)) setUnproved(values);
    else void submit(values);
  };

  const reset = () => {
    form.resetFields();
    form.setFieldsValue(valuesOf(useSessionStore.getState().user));
  };

  return (
    <Row gutter={[16, 16]} data-testid="profile-page">
      <Col xs={24} lg={8}>
        <Card title={t('profile.account')}>
          <div className={styles.identity}>
            <AvatarPreview key={avatar ?? ''} src={avatar} alt={t('profile.avatarAlt')} />
            <Typography.Title level={4} style={{ margin: 0 }} data-testid="profile-nickname">
              {user.nickname || user.username}
            </Typography.Title>
          </div>
          <Descriptions
            className={styles.account}
            column={1}
            size="small"
            items={[
              {
                key: 'username',
                label: t('profile.username'),
                children: <span data-testid="profile-username">{user.username}</span>,
              },
              {
                key: 'tenant',
                label: t('profile.tenant'),
                children: (
                  <span data-testid="profile-tenant">
                    {user.tenantName} ({user.tenantCode})
                  </span>
                ),
              },
              {
                key: 'roles',
                label: t('profile.roles'),
                children: (
                  <span data-testid="profile-roles">
                    {user.roles.map((role) => (
                      <Tag key={role}>{role}</Tag>
                    ))}
                  </span>
                ),
              },
            ]}
          />
          <Button
            icon={<LockOutlined />}
            block
            onClick={() => setPasswordOpen(true)}
            data-testid="profile-change-password"
          >
            {t('profile.changePassword')}
          </Button>
        </Card>
      </Col>
      <Col xs={24} lg={16}>
        <Card title={t('profile.details')}>
          <Form<ProfileValues>
            form={form}
            name="profile"
            layout="vertical"
            initialValues={valuesOf(user)}
            onFinish={save}
          >
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item name="nickname" label={t('profile.nickname')} rules={rules.nickname}>
                  <Input maxLength={LIMITS.nickname.max} autoComplete="nickname" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="email" label={t('profile.email')} rules={rules.email}>
                  <Input inputMode="email" autoComplete="email" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="mobile" label={t('profile.mobile')} rules={rules.mobile}>
                  <Input autoComplete="tel" placeholder={t('profile.mobilePlaceholder')} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="geographic"
                  label={t('profile.geographic')}
                  rules={rules.geographic}
                >
                  <Input maxLength={PROFILE_LIMITS.geographic} />
                </Form.Item>
              </Col>
              <Col span={24}>
                <Form.Item name="address" label={t('profile.address')} rules={rules.address}>
                  <Input maxLength={PROFILE_LIMITS.address} autoComplete="street-address" />
                </Form.Item>
              </Col>
              <Col span={24}>
                <Form.Item name="avatar" label={t('profile.avatar')} rules={rules.avatar}>
                  <Input maxLength={PROFILE_LIMITS.avatar} inputMode="url" />
                </Form.Item>
              </Col>
              <Col span={24}>
                <Form.Item name="profile" label={t('profile.profile')} rules={rules.profile}>
                  <Input.TextArea rows={4} maxLength={PROFILE_LIMITS.profile} showCount />
                </Form.Item>
              </Col>
            </Row>
            <div className={styles.actions}>
              <Button type="primary" htmlType="submit" loading={saving} data-testid="profile-save">
                {t('profile.save')}
              </Button>
              <Button onClick={reset}>{t('profile.reset')}</Button>
            </div>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={8}>
        <TwoStepCard />
      </Col>
      <Col xs={24} lg={16}>
        <SessionsCard />
      </Col>
      <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
      <CurrentPasswordDialog
        open={unproved !== undefined}
        onCancel={() => setUnproved(undefined)}
        onConfirm={(currentPassword) => submit(unproved!, currentPassword)}
      />
    </Row>
  );
}

import { TOAST_MS } from '@shuili/contract';
import { Button, Form, Input, Result, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { feedback } from '../../lib/feedback';
import { reportFormError } from '../../lib/form-errors';
import type { Registered } from '@shuili/contract';
import { authApi } from './auth-api';
import { AuthCard } from './AuthCard';
import { NewPasswordFields } from './NewPasswordFields';
import { CaptchaButton } from './CaptchaButton';
import styles from './RegisterPage.module.css';
import { useAuthRules } from './use-auth-rules';

interface RegisterValues {
  tenantName: string;
  username: string;
  password: string;
  confirmPassword: string;
  email: string;
  mobile: string;
  smsCaptcha: string;
  nickname?: string;
}

const FORM_FIELDS = [
  'tenantName',
  'username',
  'password',
  'email',
  'mobile',
  'smsCaptcha',
  'nickname',
];

/** Spec §2 /register: a new tenant whose first user, the registrant, is its administrator. */
export function RegisterPage() {
  const { t } = useTranslation();
  const rules = useAuthRules();
  const [form] = Form.useForm<RegisterValues>();
  const [submitting, setSubmitting] = useState(false);
  const [registered, setRegistered] = useState<Registered>();

  const sendSms = async () => {
    const { mobile } = await form.validateFields(['mobile']);
    const sent = await authApi.getSmsCaptcha(mobile.trim());
    feedback.success(t('captcha.sent'), TOAST_MS.success / 1000);
    return sent.resendIn;
  };

  const onFinish = async (values: RegisterValues) => {
    setSubmitting(true);
    try {
      const nickname = values.nickname?.trim();
      const result = await authApi.registerAccount({
        tenantName: values.tenantName.trim(),
        username: values.username.trim(),
        password: values.password,
        email: values.email.trim(),
        mobile: values.mobile.trim(),
        smsCaptcha: values.smsCaptcha.trim(),
        ...(nickname ? { nickname } : {}),
      });
      setRegistered(result);
    } catch (error) {
      reportFormError(form, error, FORM_FIELDS);
    } finally {
      setSubmitting(false);
    }
  };

  if (registered) {
    const signIn = `/login?${new URLSearchParams({
      tenant: registered.tenantCode,
      username: registered.username,
    }).toString()}`;
    return (
      <AuthCard subtitle={t('register.title')}>
        <Result
          status="success"
          title={t('register.successTitle')}
          subTitle={
            <>
              <span className={styles.codeLine}>
                {t('register.tenantCodeLabel')}{' '}
                <strong data-testid="registered-tenant-code">{registered.tenantCode}</strong>
              </span>
              <span>{t('register.successBody', { username: registered.username })}</span>
            </>
          }
          extra={
            <Link to={signIn} data-testid="registered-sign-in">
              <Button type="primary">{t('register.signIn')}</Button>
            </Link>
          }
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      subtitle={t('register.intro')}
      footer={<Link to="/login">{t('register.haveAccount')}</Link>}
    >
      <Form<RegisterValues>
        form={form}
        name="register"
        layout="vertical"
        requiredMark={false}
        onFinish={(values) => void onFinish(values)}
      >
        <Form.Item name="tenantName" label={t('field.tenantName')} rules={rules.tenantName}>
          <Input autoComplete="organization" />
        </Form.Item>
        <Form.Item name="username" label={t('field.username')} rules={rules.username}>
          <Input autoComplete="username" />
        </Form.Item>
        <NewPasswordFields name="password" />
        <Form.Item name="email" label={t('field.email')} rules={rules.email}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item name="mobile" label={t('field.mobile')} rules={rules.mobile}>
          <Input placeholder={t('login.mobilePlaceholder')} autoComplete="tel" inputMode="tel" />
        </Form.Item>
        <Form.Item label={t('field.smsCaptcha')} required>
          <Space.Compact block>
            <Form.Item name="smsCaptcha" rules={rules.captcha(t('field.smsCaptcha'))} noStyle>
              <Input
                aria-label={t('field.smsCaptcha')}
                autoComplete="one-time-code"
                inputMode="numeric"
              />
            </Form.Item>
            <CaptchaButton label={t('captcha.getCode')} onSend={sendSms} testId="send-sms" />
          </Space.Compact>
        </Form.Item>
        <Form.Item name="nickname" label={t('register.nicknameOptional')} rules={rules.nickname}>
          <Input autoComplete="nickname" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={submitting}>
            {t('register.submit')}
          </Button>
        </Form.Item>
      </Form>
    </AuthCard>
  );
}

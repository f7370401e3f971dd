import { RESET_LINK, TOAST_MS } from '@shuili/contract';
import { Button, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { feedback } from '../../lib/feedback';
import { reportFormError } from '../../lib/form-errors';
import { authApi } from './auth-api';
import { AuthCard } from './AuthCard';
import { NewPasswordFields } from './NewPasswordFields';
import { CaptchaButton } from './CaptchaButton';
import { ResetByLinkForm } from './reset-link/ResetByLinkForm';
import { useAuthRules } from './use-auth-rules';

interface ForgotValues {
  tenantCode: string;
  email: string;
  charCaptcha: string;
  newPassword: string;
  confirmPassword: string;
}

const FORM_FIELDS = ['tenantCode', 'email', 'charCaptcha', 'newPassword'];

/**
 * Spec §2 /forgotpassword: a code by email, then a new password. Opened from the link that
 * retrievePassword e-mails (spec §7: email and charCaptcha), the link's own form instead.
 */
export function ForgotPasswordPage() {
  const [searchParams] = useSearchParams();
  const resetToken = searchParams.get(RESET_LINK.param)?.trim();
  return resetToken ? <ResetByLinkForm token={resetToken} /> : <CodeResetForm />;
}

/** The console's two steps: the code e-mailed to an account of the tenant, and the password. */
function CodeResetForm() {
  const { t } = useTranslation();
  const rules = useAuthRules();
  const navigate = useNavigate();
  const [form] = Form.useForm<ForgotValues>();
  const [submitting, setSubmitting] = useState(false);

  const sendCode = async () => {
    const values = await form.validateFields(['tenantCode', 'email']);
    const sent = await authApi.getEmailCaptcha(values.tenantCode.trim(), values.email.trim());
    // Worded so it does not reveal whether the address has an account.
    feedback.success(t('forgot.codeSent'), TOAST_MS.success / 1000);
    return sent.resendIn;
  };

  const onFinish = async (values: ForgotValues) => {
    setSubmitting(true);
    try {
      await authApi.retrievePassword({
        tenantCode: values.tenantCode.trim(),
        email: values.email.trim(),
        charCaptcha: values.charCaptcha.trim(),
        newPassword: values.newPassword,
      });
      feedback.success(t('forgot.success'), TOAST_MS.success / 1000);
      void navigate('/login', { replace: true });
    } catch (error) {
      reportFormError(form, error, FORM_FIELDS);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthCard
      subtitle={t('forgot.title')}
      footer={<Link to="/login">{t('forgot.backToLogin')}</Link>}
    >
      <Form<ForgotValues>
        form={form}
        name="forgot"
        layout="vertical"
        requiredMark={false}
        onFinish={(values) => void onFinish(values)}
      >
        <Form.Item name="tenantCode" label={t('field.tenantCode')} rules={rules.tenantCode}>
          <Input autoComplete="organization" />
        </Form.Item>
        <Form.Item name="email" label={t('field.email')} rules={rules.email}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item label={t('field.charCaptcha')} required>
          <Space.Compact block>
            <Form.Item name="charCaptcha" rules={rules.captcha(t('field.charCaptcha'))} noStyle>
              <Input
                aria-label={t('field.charCaptcha')}
                autoComplete="one-time-code"
                inputMode="numeric"
              />
            </Form.Item>
            <CaptchaButton
              label={t('forgot.sendCode')}
              onSend={sendCode}
              testId="send-email-code"
            />
          </Space.Compact>
        </Form.Item>
        <NewPasswordFields name="newPassword" />
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={submitting}>
            {t('forgot.submit')}
          </Button>
        </Form.Item>
      </Form>
    </AuthCard>
  );
}

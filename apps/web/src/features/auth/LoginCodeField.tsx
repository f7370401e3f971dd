import { TOAST_MS, type CaptchaSent } from '@shuili/contract';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../lib/feedback';
import { http } from '../../lib/http';
import { LoginCodeInput } from './LoginCodeInput';
import type { useAuthRules } from './use-auth-rules';

export interface LoginCodeFieldProps {
  rules: ReturnType<typeof useAuthRules>;
  /** The sign-in form: the code goes to the account its tenant and username name. */
  form: FormInstance<{ tenantCode?: string; username?: string }>;
}

/**
 * The code a password sign-in needs once the account has had failed sign-ins from too many
 * addresses (the server's captcha_required says why), sent to the account's own mobile or
 * e-mail. Its own chunk, with its call: most sign-ins never need it, and the sign-in page's
 * first download has a budget (e2e/bundle.test.ts).
 */
export function LoginCodeField({ rules, form }: LoginCodeFieldProps) {
  const { t } = useTranslation();

  const send = async () => {
    const values = await form.validateFields(['tenantCode', 'username']);
    const sent = await http.get<CaptchaSent>('/api/account/captcha/getSignInCaptcha', {
      params: { tenantCode: values.tenantCode?.trim(), username: values.username?.trim() },
    });
    feedback.success(t('captcha.sent'), TOAST_MS.success / 1000);
    return sent.resendIn;
  };

  return (
    <LoginCodeInput
      name="captcha"
      label={t('field.charCaptcha')}
      rules={rules.captcha(t('field.charCaptcha'))}
      onSend={send}
      testId="send-sign-in-code"
    />
  );
}

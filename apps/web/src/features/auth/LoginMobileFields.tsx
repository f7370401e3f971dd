import { MobileOutlined } from '@ant-design/icons';
import { Form } from 'antd';
import Input from 'antd/es/input/Input';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoginCodeInput } from './LoginCodeInput';
import type { useAuthRules } from './use-auth-rules';

export interface LoginMobileFieldsProps {
  rules: ReturnType<typeof useAuthRules>;
  /** The mobile number was typed or left: the tenants of that account are looked up. */
  onAccountChange(value: string): void;
  onAccountBlur(value: string): void;
  /** The tenant select, placed between the number and the code, as for the password. */
  tenantField: ReactNode;
  /** Sends the SMS code; resolves to the seconds before another may be sent. */
  onSendSms(): Promise<number | undefined>;
}

/**
 * The sign-in form's SMS tab: mobile number and code. Its own chunk, downloaded when the tab is
 * chosen (or about to be), so the password sign-in most people use does not carry it.
 */
export function LoginMobileFields({
  rules,
  onAccountChange,
  onAccountBlur,
  tenantField,
  onSendSms,
}: LoginMobileFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="mobile" rules={rules.mobile}>
        <Input
          prefix={<MobileOutlined />}
          aria-label={t('field.mobile')}
          placeholder={t('login.mobilePlaceholder')}
          autoComplete="tel"
          inputMode="tel"
          onChange={(event) => onAccountChange(event.target.value)}
          onBlur={(event) => onAccountBlur(event.target.value)}
        />
      </Form.Item>
      {tenantField}
      <LoginCodeInput
        name="smsCaptcha"
        label={t('field.smsCaptcha')}
        rules={rules.captcha(t('field.smsCaptcha'))}
        onSend={onSendSms}
        testId="send-sms"
      />
    </>
  );
}

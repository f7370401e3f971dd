import { SafetyOutlined } from '@ant-design/icons';
import { Form, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import Input from 'antd/es/input/Input';
import { useTranslation } from 'react-i18next';
import { CaptchaButton } from './CaptchaButton';

export interface LoginCodeInputProps {
  /** The form field the code goes in. */
  name: string;
  label: string;
  rules: Rule[];
  /** Sends the code; resolves to the seconds before another may be sent. */
  onSend(): Promise<number | undefined>;
  testId: string;
}

/** A 6-digit code with its "get code" button, as the sign-in form asks for one. */
export function LoginCodeInput({ name, label, rules, onSend, testId }: LoginCodeInputProps) {
  const { t } = useTranslation();
  return (
    <Form.Item>
      <Space.Compact block>
        <Form.Item name={name} rules={rules} noStyle>
          <Input
            prefix={<SafetyOutlined />}
            aria-label={label}
            placeholder={t('login.smsCaptchaPlaceholder')}
            autoComplete="one-time-code"
            inputMode="numeric"
          />
        </Form.Item>
        <CaptchaButton label={t('captcha.getCode')} onSend={onSend} testId={testId} />
      </Space.Compact>
    </Form.Item>
  );
}

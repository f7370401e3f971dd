import { PASSWORD_INPUT_MAX } from '@shuili/contract';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAuthRules } from './use-auth-rules';

/** A new password and its confirmation (spec §5: 6–31, never trimmed, the two must match). */
export function NewPasswordFields({ name }: { name: 'password' | 'newPassword' }) {
  const { t } = useTranslation();
  const rules = useAuthRules();
  return (
    <>
      <Form.Item name={name} label={t(`field.${name}`)} rules={rules[name]}>
        <Input.Password autoComplete="new-password" maxLength={PASSWORD_INPUT_MAX} />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t('field.confirmPassword')}
        dependencies={[name]}
        rules={rules.confirmPassword(name)}
      >
        <Input.Password autoComplete="new-password" maxLength={PASSWORD_INPUT_MAX} />
      </Form.Item>
    </>
  );
}

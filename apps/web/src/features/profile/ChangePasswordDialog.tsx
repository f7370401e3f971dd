import { PASSWORD_INPUT_MAX, TOAST_MS } from '@shuili/contract';
import { Button, Form, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../../core/session-store';
import { feedback } from '../../lib/feedback';
import { applyFieldErrors } from '../../lib/form-errors';
import { HttpError } from '../../lib/http';
import { profileApi } from './profile-api';
import { useProfileRules } from './use-profile-rules';

interface PasswordValues {
  oldPassword: string;
  newPassword: string;
  confirmNewPassword: string;
}

const FIELDS = ['oldPassword', 'newPassword', 'confirmNewPassword'] as const;
// Spec §5: the three fields are checked as the user leaves them and as they type.
const VALIDATE_ON = ['onBlur', 'onChange'];

/** Spec §2 user dropdown / §5 / §7: changes the signed-in user's password. */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={t('password.title')}
      onCancel={onClose}
      footer={null}
      // A closed dialog forgets what was typed: passwords never linger in the page.
      destroyOnHidden
      maskClosable={false}
    >
      <ChangePasswordForm onDone={onClose} />
    </Modal>
  );
}

function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const rules = useProfileRules();
  const userId = useSessionStore((state) => state.user?.id);
  const [form] = Form.useForm<PasswordValues>();
  const [saving, setSaving] = useState(false);

  const warn = (text: string) => feedback.warning(text, TOAST_MS.warning / 1000);

  // Spec §5: a confirmation that differs from the new password also warns.
  const warnOnMismatch = () => {
    const { newPassword, confirmNewPassword } = form.getFieldsValue();
    if (newPassword && confirmNewPassword && newPassword !== confirmNewPassword) {
      warn(t('password.mismatch'));
    }
  };

  const save = async (values: PasswordValues) => {
    if (!userId) return;
    setSaving(true);
    try {
      await profileApi.updatePassword({
        id: userId,
        oldPassword: values.oldPassword,
        newPassword: values.newPassword,
      });
      feedback.success(t('password.success'), TOAST_MS.success / 1000);
      onDone();
    } catch (error) {
      // Spec §8: any answer but 'success' is a 2 s warning with the server's words.
      warn(error instanceof Error && error.message ? error.message : t('password.failed'));
      if (error instanceof HttpError) {
        applyFieldErrors(
          form,
          // The server accepts the current password as `password` too; the form calls it oldPassword.
          error.fieldErrors.map((item) =>
            item.field === 'password' ? { ...item, field: 'oldPassword' } : item,
          ),
          FIELDS,
        );
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<PasswordValues>
      form={form}
      name="changePassword"
      layout="vertical"
      requiredMark
      onFinish={(values) => void save(values)}
      onFinishFailed={warnOnMismatch}
      data-testid="change-password-form"
    >
      <Form.Item
        name="oldPassword"
        label={t('password.oldPassword')}
        rules={rules.oldPassword}
        validateTrigger={VALIDATE_ON}
      >
        <Input.Password autoComplete="current-password" maxLength={PASSWORD_INPUT_MAX} autoFocus />
      </Form.Item>
      <Form.Item
        name="newPassword"
        label={t('password.newPassword')}
        rules={rules.newPassword}
        validateTrigger={VALIDATE_ON}
      >
        <Input.Password autoComplete="new-password" maxLength={PASSWORD_INPUT_MAX} />
      </Form.Item>
      <Form.Item
        name="confirmNewPassword"
        label={t('password.confirmNewPassword')}
        rules={rules.confirmNewPassword}
        validateTrigger={VALIDATE_ON}
        dependencies={['newPassword']}
      >
        <Input.Password autoComplete="new-password" maxLength={PASSWORD_INPUT_MAX} />
      </Form.Item>
      <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
        <Button onClick={onDone}>{t('password.cancel')}</Button>
        <Button
          type="primary"
          htmlType="submit"
          loading={saving}
          data-testid="change-password-submit"
        >
          {t('password.submit')}
        </Button>
      </Space>
    </Form>
  );
}

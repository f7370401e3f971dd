import { PASSWORD_INPUT_MAX, TOAST_MS } from '@shuili/contract';
import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthRules } from '../auth/use-auth-rules';
import { feedback } from '../../lib/feedback';
import { reportFormError } from '../../lib/form-errors';
import { adminExtraApi } from './admin-extra-api';

interface ResetValues {
  password: string;
  confirmPassword: string;
}

export interface ResetPasswordDialogProps {
  open: boolean;
  userId: string;
  /** Whose password is set, as the title names them. */
  userName: string;
  onClose: () => void;
}

// Spec §5: checked as the admin leaves a field and as they type.
const VALIDATE_ON = ['onBlur', 'onChange'];

/**
 * Sets a user's password (spec §5: 6 to 31 characters, confirmed, never trimmed); the server
 * signs the user out everywhere.
 */
export function ResetPasswordDialog({ open, userId, userName, onClose }: ResetPasswordDialogProps) {
  const { t } = useTranslation();
  const rules = useAuthRules();
  const [form] = Form.useForm<ResetValues>();
  const [saving, setSaving] = useState(false);

  const save = async (values: ResetValues) => {
    setSaving(true);
    try {
      await adminExtraApi.resetPassword(userId, values.password);
      feedback.success(t('adminExtra.reset.done', { user: userName }), TOAST_MS.success / 1000);
      onClose();
    } catch (error) {
      reportFormError(form, error, ['password']);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('adminExtra.reset.title', { user: userName })}
      okText={t('adminExtra.save')}
      cancelText={t('adminExtra.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      // Passwords never linger in a closed dialog.
      destroyOnHidden
      maskClosable={false}
      okButtonProps={{ 'data-testid': 'reset-password-save' }}
      data-testid="reset-password-dialog"
    >
      <Form<ResetValues>
        form={form}
        layout="vertical"
        requiredMark
        onFinish={(values) => void save(values)}
        data-testid="reset-password-form"
      >
        <Form.Item
          name="password"
          label={t('adminExtra.reset.password')}
          rules={rules.newPassword}
          validateTrigger={VALIDATE_ON}
          extra={t('adminExtra.reset.hint')}
        >
          <Input.Password autoComplete="new-password" maxLength={PASSWORD_INPUT_MAX} autoFocus />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('adminExtra.reset.confirm')}
          rules={rules.confirmPassword('password')}
          validateTrigger={VALIDATE_ON}
          dependencies={['password']}
        >
          <Input.Password autoComplete="new-password" maxLength={PASSWORD_INPUT_MAX} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

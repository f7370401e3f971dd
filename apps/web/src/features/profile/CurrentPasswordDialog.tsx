import { PASSWORD_INPUT_MAX, type FieldError } from '@shuili/contract';
import { Button, Form, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../../lib/http';

/** The server's refusal of the proof (missing or wrong current password), if it was that. */
export function proofRefusal(error: unknown): FieldError | undefined {
  return error instanceof HttpError
    ? error.fieldErrors.find((item) => item.field === 'currentPassword')
    : undefined;
}

/** The current-password field of a form that proves the person (the server's `currentPassword`). */
export function CurrentPasswordItem({
  autoFocus,
  testId,
}: {
  autoFocus?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="currentPassword"
      label={t('proof.currentPassword')}
      rules={[{ required: true, message: t('proof.required') }]}
    >
      <Input.Password
        autoComplete="current-password"
        maxLength={PASSWORD_INPUT_MAX}
        autoFocus={autoFocus}
        data-testid={testId}
      />
    </Form.Item>
  );
}

/**
 * Asks for the current password before a change to how the account is recovered (a new e-mail
 * or mobile, two-step verification on): a signed-in browser alone is not enough for those.
 * `onConfirm` makes the change with it and answers the server's refusal of the password, shown
 * under the field; any other outcome is the caller's to close the dialog on.
 */
export function CurrentPasswordDialog({
  open,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  onCancel: () => void;
  onConfirm: (currentPassword: string) => Promise<FieldError | undefined>;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={t('proof.title')}
      onCancel={onCancel}
      footer={null}
      // A closed dialog forgets what was typed: passwords never linger in the page.
      destroyOnHidden
      maskClosable={false}
    >
      <CurrentPasswordForm onCancel={onCancel} onConfirm={onConfirm} />
    </Modal>
  );
}

function CurrentPasswordForm({
  onCancel,
  onConfirm,
}: {
  onCancel: () => void;
  onConfirm: (currentPassword: string) => Promise<FieldError | undefined>;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ currentPassword: string }>();
  const [busy, setBusy] = useState(false);

  const confirm = async ({ currentPassword }: { currentPassword: string }) => {
    setBusy(true);
    try {
      const refusal = await onConfirm(currentPassword);
      if (refusal) form.setFields([{ name: 'currentPassword', errors: [refusal.message] }]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form
      form={form}
      name="currentPassword"
      layout="vertical"
      onFinish={(values) => void confirm(values)}
    >
      <Typography.Paragraph type="secondary">{t('proof.hint')}</Typography.Paragraph>
      <CurrentPasswordItem autoFocus testId="proof-password" />
      <Space>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="proof-confirm">
          {t('proof.confirm')}
        </Button>
        <Button onClick={onCancel}>{t('proof.cancel')}</Button>
      </Space>
    </Form>
  );
}

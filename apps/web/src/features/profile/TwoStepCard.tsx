import type {
  MfaEnrolment,
  MfaStatus,
  RecoveryCodes as RecoveryCodesAnswer,
} from '@shuili/contract';
import { TOAST_MS } from '@shuili/contract';
import { Button, Card, Form, Input, Space, Tag, Typography, type FormInstance } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../lib/feedback';
import { reportFormError } from '../../lib/form-errors';
import { AuthenticatorSetup } from '../auth/second-factor/AuthenticatorSetup';
import { RecoveryCodes } from '../auth/second-factor/RecoveryCodes';
import { CurrentPasswordDialog, CurrentPasswordItem, proofRefusal } from './CurrentPasswordDialog';
import { securityApi } from './security-api';

type Step = 'idle' | 'proof' | 'setup' | 'codes' | 'renew' | 'disable';

/**
 * Two-step verification (TOTP) of the signed-in user: turn it on, see recovery codes, get new ones,
 * turn it off.
 */
export function TwoStepCard() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<MfaStatus>();
  const [step, setStep] = useState<Step>('idle');
  const [enrolment, setEnrolment] = useState<MfaEnrolment>();
  const [codes, setCodes] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [confirmForm] = Form.useForm<{ code: string }>();
  const [renewForm] = Form.useForm<{ code: string }>();
  const [disableForm] = Form.useForm<{ currentPassword: string; code: string }>();

  const load = useCallback(() => {
    void securityApi
      .mfaStatus()
      .then(setStatus)
      .catch(() => undefined);
  }, []);
  useEffect(load, [load]);

  /** Turning it on starts with the current password; a refused one stays in the dialog. */
  const start = async (currentPassword: string) => {
    try {
      setEnrolment(await securityApi.startEnrolment(currentPassword));
      setStep('setup');
    } catch (error) {
      const refusal = proofRefusal(error);
      if (refusal) return refusal;
      setStep('idle'); // reported by the client
    }
    return undefined;
  };

  /**
   * Sends an authenticator code for new recovery codes (turning it on, or renewing them) and
   * shows the codes; a refused code is shown under the form's field.
   */
  const issueCodes = async (
    form: FormInstance<{ code: string }>,
    request: (code: string) => Promise<RecoveryCodesAnswer>,
    code: string,
  ) => {
    setBusy(true);
    try {
      const answer = await request(code.trim());
      setCodes(answer.recoveryCodes);
      setStep('codes');
      setEnrolment(undefined);
      form.resetFields();
      load();
    } catch (error) {
      reportFormError(form, error, ['code']);
    } finally {
      setBusy(false);
    }
  };
  const confirm = ({ code }: { code: string }) =>
    issueCodes(confirmForm, securityApi.confirmEnrolment, code);
  const renew = ({ code }: { code: string }) =>
    issueCodes(renewForm, securityApi.renewRecoveryCodes, code);

  const disable = async (values: { currentPassword: string; code: string }) => {
    setBusy(true);
    try {
      await securityApi.disable(values.currentPassword, values.code.trim());
      feedback.success(t('mfa.turnedOff'), TOAST_MS.success / 1000);
      disableForm.resetFields();
      setStep('idle');
      load();
    } catch (error) {
      reportFormError(disableForm, error, ['currentPassword', 'code']);
    } finally {
      setBusy(false);
    }
  };

  const codeRule = [{ required: true, whitespace: true, message: t('mfa.codeRequired') }];

  return (
    <Card title={t('mfa.title')} data-testid="profile-mfa">
      {status && (
        <Space wrap style={{ marginBottom: 12 }}>
          <Tag color={status.enabled ? 'green' : 'default'} data-testid="mfa-state">
            {status.enabled ? t('mfa.on') : t('mfa.off')}
          </Tag>
          {status.required && <Tag color="orange">{t('mfa.required')}</Tag>}
          {status.enabled && (
            <Typography.Text type="secondary">
              {t('mfa.recoveryLeft', { count: status.recoveryCodesLeft })}
            </Typography.Text>
          )}
        </Space>
      )}
      {step === 'codes' && (
        <>
          <RecoveryCodes codes={codes} />
          <Button onClick={() => setStep('idle')} data-testid="mfa-codes-done">
            {t('mfa.done')}
          </Button>
        </>
      )}
      {step === 'setup' && enrolment && (
        <>
          <AuthenticatorSetup enrolment={enrolment} />
          <Form
            form={confirmForm}
            name="mfaConfirm"
            layout="inline"
            onFinish={(v) => void confirm(v)}
          >
            <Form.Item name="code" rules={codeRule}>
              <Input
                placeholder={t('mfa.codePlaceholder')}
                aria-label={t('mfa.code')}
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={6}
                data-testid="mfa-confirm-code"
              />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={busy} data-testid="mfa-confirm">
              {t('mfa.turnOn')}
            </Button>
            <Button onClick={() => setStep('idle')}>{t('mfa.cancel')}</Button>
          </Form>
        </>
      )}
      {step === 'renew' && (
        <Form form={renewForm} name="mfaRenew" layout="vertical" onFinish={(v) => void renew(v)}>
          <Typography.Paragraph type="secondary">{t('mfa.renewHint')}</Typography.Paragraph>
          <Form.Item name="code" label={t('mfa.code')} rules={codeRule}>
            <Input
              placeholder={t('mfa.codePlaceholder')}
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={6}
              data-testid="mfa-renew-code"
            />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={busy} data-testid="mfa-renew-confirm">
              {t('mfa.renew')}
            </Button>
            <Button onClick={() => setStep('idle')}>{t('mfa.cancel')}</Button>
          </Space>
        </Form>
      )}
      {step === 'disable' && (
        <Form
          form={disableForm}
          name="mfaDisable"
          layout="vertical"
          onFinish={(v) => void disable(v)}
        >
          <CurrentPasswordItem />
          <Form.Item name="code" label={t('mfa.code')} rules={codeRule}>
            <Input autoComplete="one-time-code" maxLength={32} />
          </Form.Item>
          <Space>
            <Button danger htmlType="submit" loading={busy} data-testid="mfa-disable-confirm">
              {t('mfa.turnOff')}
            </Button>
            <Button onClick={() => setStep('idle')}>{t('mfa.cancel')}</Button>
          </Space>
        </Form>
      )}
      {step === 'idle' && status && !status.enabled && (
        <Button type="primary" onClick={() => setStep('proof')} data-testid="mfa-enable">
          {t('mfa.turnOn')}
        </Button>
      )}
      {step === 'idle' && status?.enabled && (
        <Space wrap>
          <Button onClick={() => setStep('renew')} data-testid="mfa-renew">
            {t('mfa.renew')}
          </Button>
          {!status.required && (
            <Button danger onClick={() => setStep('disable')} data-testid="mfa-disable">
              {t('mfa.turnOff')}
            </Button>
          )}
        </Space>
      )}
      <CurrentPasswordDialog
        open={step === 'proof'}
        onCancel={() => setStep('idle')}
        onConfirm={start}
      />
    </Card>
  );
}

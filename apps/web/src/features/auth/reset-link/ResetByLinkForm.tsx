import { TOAST_MS, type ResetLinkAccount } from '@shuili/contract';
import { Button, Form, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { feedback } from '../../../lib/feedback';
import { reportFormError } from '../../../lib/form-errors';
import { HttpError } from '../../../lib/http';
import { loadFeatureStrings } from '../../../i18n/i18n';
import { AuthCard } from '../AuthCard';
import { NewPasswordFields } from '../NewPasswordFields';
import { resetLinkApi } from './reset-link-api';
import styles from './ResetByLinkForm.module.css';

interface LinkValues {
  newPassword: string;
  confirmPassword: string;
}

type LinkState =
  | { kind: 'checking' }
  | { kind: 'ready'; account: ResetLinkAccount }
  | { kind: 'invalid' }
  | { kind: 'failed'; message: string };

/** The server refused the link itself (used, expired or unknown), not something else. */
const isLinkRefused = (error: unknown) =>
  error instanceof HttpError && error.fieldErrors.some((problem) => problem.field === 'token');

/**
 * The page of a password-reset link: the account it is for and a new password. A link works
 * once, for 30 minutes; a used or expired one says so and offers a new request.
 */
export function ResetByLinkForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<LinkValues>();
  const [state, setState] = useState<LinkState>({ kind: 'checking' });
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    let current = true;
    // The page's own strings (the account area's) are in place before any state that shows
    // them, whether the link works or not.
    const strings = loadFeatureStrings(['account']).catch(() => undefined);
    const show = (next: LinkState) =>
      void strings.then(() => {
        if (current) setState(next);
      });
    resetLinkApi.checkResetLink(token).then(
      (account) => show({ kind: 'ready', account }),
      (error: unknown) =>
        show(
          isLinkRefused(error)
            ? { kind: 'invalid' }
            : { kind: 'failed', message: error instanceof Error ? error.message : '' },
        ),
    );
    return () => {
      current = false;
    };
  }, [token]);

  const onFinish = async (values: LinkValues, account: ResetLinkAccount) => {
    setSubmitting(true);
    try {
      await resetLinkApi.resetPasswordByLink({ token, newPassword: values.newPassword });
      feedback.success(t('forgot.success'), TOAST_MS.success / 1000);
      const signIn = new URLSearchParams({
        tenant: account.tenantCode,
        username: account.username,
      });
      void navigate(`/login?${signIn.toString()}`, { replace: true });
    } catch (error) {
      if (isLinkRefused(error)) setState({ kind: 'invalid' });
      else reportFormError(form, error, ['newPassword']);
    } finally {
      setSubmitting(false);
    }
  };

  const footer = <Link to="/login">{t('forgot.backToLogin')}</Link>;
  if (state.kind === 'checking')
    return (
      <AuthCard subtitle={t('forgot.title')} footer={footer}>
        <div className={styles.checking} data-testid="reset-link-checking">
          <Spin />
        </div>
      </AuthCard>
    );
  if (state.kind !== 'ready')
    return (
      <AuthCard subtitle={t('forgot.title')} footer={footer}>
        <Result
          status="warning"
          title={state.kind === 'invalid' ? t('forgot.linkInvalidTitle') : state.message}
          subTitle={state.kind === 'invalid' ? t('forgot.linkInvalid') : undefined}
          extra={
            <Link to="/forgotpassword" data-testid="reset-link-again">
              <Button type="primary">{t('forgot.askAgain')}</Button>
            </Link>
          }
          data-testid="reset-link-invalid"
        />
      </AuthCard>
    );

  const { account } = state;
  return (
    <AuthCard subtitle={t('forgot.title')} footer={footer}>
      <p data-testid="reset-link-account">
        {t('forgot.linkAccount', {
          username: account.username,
          tenantName: account.tenantName,
          tenantCode: account.tenantCode,
        })}
      </p>
      <Form<LinkValues>
        form={form}
        name="resetLink"
        layout="vertical"
        requiredMark={false}
        onFinish={(values) => void onFinish(values, account)}
      >
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

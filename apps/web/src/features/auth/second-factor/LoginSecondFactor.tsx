import { SafetyOutlined } from '@ant-design/icons';
import { TOAST_MS, type MfaEnrolment, type TokenResponse } from '@shuili/contract';
import { Button, Form, Input, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadFeatureStrings } from '../../../i18n/i18n';
import { feedback } from '../../../lib/feedback';
import { http } from '../../../lib/http';
import { requestToken, type MobileGrant, type PasswordGrant } from '../../../lib/oauth';
import { AuthenticatorSetup } from './AuthenticatorSetup';
import { RecoveryCodes } from './RecoveryCodes';

export interface LoginSecondFactorProps {
  /** The sign-in to send again with the code. */
  grant: PasswordGrant | MobileGrant;
  /** mfa_required: ask for a code; mfa_enrollment_required: set up an authenticator first. */
  kind: 'mfa_required' | 'mfa_enrollment_required';
  ticket: string | undefined;
  onSignedIn(token: TokenResponse): void;
  onBack(): void;
}

/**
 * The second step of signing in for an account with a TOTP second factor: the code, or first
 * the set-up (QR code and secret) of an account that must have one, then its recovery codes.
 * Loaded only when the server asks for it.
 */
export function LoginSecondFactor(props: LoginSecondFactorProps) {
  const { t } = useTranslation();
  const [enrolment, setEnrolment] = useState<MfaEnrolment>();
  const [submitting, setSubmitting] = useState(false);
  // After a confirmed set-up: the token, held while its recovery codes are shown.
  const [confirmed, setConfirmed] = useState<TokenResponse>();
  // This step's texts load with it (the sign-in page itself does not carry them).
  const [ready, setReady] = useState(false);
  useEffect(() => {
    void loadFeatureStrings(['account']).then(() => setReady(true));
  }, []);

  useEffect(() => {
    if (props.kind !== 'mfa_enrollment_required' || !props.ticket) return;
    void http
      .post<MfaEnrolment>('/api/uaa/mfa/startEnrolment', { data: { ticket: props.ticket } })
      .then(setEnrolment)
      .catch(() => props.onBack());
    // The ticket decides; a new one starts a new set-up.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.kind, props.ticket]);

  const send = async (totpCode: string) => {
    setSubmitting(true);
    try {
      const token = await requestToken({ ...props.grant, totpCode });
      if (token.recovery_codes?.length) setConfirmed(token);
      else props.onSignedIn(token);
    } catch (error) {
      // A wrong or used code, or too many tries: the server's words, as for a wrong password.
      const text = error instanceof Error && error.message ? error.message : t('http.networkError');
      feedback.warning(text, TOAST_MS.warning / 1000);
    } finally {
      setSubmitting(false);
    }
  };

  if (!ready) return null;
  if (confirmed?.recovery_codes) {
    return (
      <div data-testid="login-second-factor">
        <RecoveryCodes codes={confirmed.recovery_codes} />
        <Button
          type="primary"
          block
          onClick={() => props.onSignedIn(confirmed)}
          data-testid="mfa-continue"
        >
          {t('mfa.continue')}
        </Button>
      </div>
    );
  }

  return (
    <div data-testid="login-second-factor">
      <Typography.Title level={5}>
        {props.kind === 'mfa_required' ? t('mfa.enterCode') : t('mfa.setUpTitle')}
      </Typography.Title>
      {enrolment && <AuthenticatorSetup enrolment={enrolment} />}
      <Form<{ totpCode: string }>
        name="secondFactor"
        size="large"
        requiredMark={false}
        onFinish={(values) => void send(values.totpCode.trim())}
      >
        <Form.Item
          name="totpCode"
          rules={[{ required: true, whitespace: true, message: t('mfa.codeRequired') }]}
          extra={props.kind === 'mfa_required' ? t('mfa.recoveryAccepted') : undefined}
        >
          <Input
            prefix={<SafetyOutlined />}
            aria-label={t('mfa.code')}
            placeholder={t('mfa.codePlaceholder')}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={32}
            autoFocus
            data-testid="mfa-code"
          />
        </Form.Item>
        <Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={submitting}
            data-testid="mfa-submit"
          >
            {t('mfa.verify')}
          </Button>
        </Form.Item>
        <Button type="link" block onClick={props.onBack}>
          {t('mfa.back')}
        </Button>
      </Form>
    </div>
  );
}

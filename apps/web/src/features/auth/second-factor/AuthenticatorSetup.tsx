import type { MfaEnrolment } from '@shuili/contract';
import { QRCode, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The QR code of a new TOTP secret and the secret as text, for an authenticator app. */
export function AuthenticatorSetup({ enrolment }: { enrolment: MfaEnrolment }) {
  const { t } = useTranslation();
  return (
    <div data-testid="mfa-setup">
      <Typography.Paragraph>{t('mfa.scanHint')}</Typography.Paragraph>
      <div style={{ display: 'flex', justifyContent: 'center' }}>
        <QRCode value={enrolment.otpauthUrl} size={176} data-testid="mfa-qr" />
      </div>
      <Typography.Paragraph style={{ marginTop: 12 }}>
        {t('mfa.secretHint')}{' '}
        <Typography.Text code copyable data-testid="mfa-secret">
          {enrolment.secret}
        </Typography.Text>
      </Typography.Paragraph>
    </div>
  );
}

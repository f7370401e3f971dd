import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The one-time recovery codes of a new second factor: shown once, to be written down. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  return (
    <div data-testid="mfa-recovery-codes">
      <Alert
        type="warning"
        showIcon
        title={t('mfa.recoveryTitle')}
        description={t('mfa.recoveryHint')}
      />
      <Typography.Paragraph copyable={{ text: codes.join('\n') }} style={{ marginTop: 12 }}>
        <code style={{ display: 'block', whiteSpace: 'pre', lineHeight: 1.8 }}>
          {codes.join('\n')}
        </code>
      </Typography.Paragraph>
    </div>
  );
}

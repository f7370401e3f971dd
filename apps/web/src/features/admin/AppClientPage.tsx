import { appClientEntity } from '@shuili/contract';
import { Alert, Button, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ResourcePage } from '../../resource/ResourcePage';

interface IssuedSecret {
  clientId: string;
  clientSecret: string;
}

/** The generated secret in add's answer, if there is one. */
export function issuedSecretOf(result: unknown): IssuedSecret | undefined {
  if (!result || typeof result !== 'object') return undefined;
  const { clientId, clientSecret } = result as Record<string, unknown>;
  return typeof clientSecret === 'string' && clientSecret
    ? { clientId: typeof clientId === 'string' ? clientId : '', clientSecret }
    : undefined;
}

/**
 * Spec §2 /admin/appclient: OAuth app clients. The server generates a client's secret and keeps
 * only its hash, so the secret is shown once, right after the client is added.
 */
export function AppClientPage() {
  const { t } = useTranslation();
  const [issued, setIssued] = useState<IssuedSecret | undefined>();
  return (
    <>
      <ResourcePage
        entity={appClientEntity}
        onSaved={(result, mode) => {
          if (mode === 'create') setIssued(issuedSecretOf(result));
        }}
      />
      <Modal
        open={issued !== undefined}
        title={t('resource.appClient.secretTitle')}
        closable={false}
        maskClosable={false}
        keyboard={false}
        footer={
          <Button type="primary" onClick={() => setIssued(undefined)} data-testid="secret-close">
            {t('resource.appClient.close')}
          </Button>
        }
      >
        <Alert type="warning" showIcon title={t('resource.appClient.secretWarning')} />
        <Typography.Paragraph style={{ marginTop: 16 }}>
          {t('resource.appClient.secretFor', { clientId: issued?.clientId ?? '' })}
        </Typography.Paragraph>
        <Typography.Paragraph copyable={{ text: issued?.clientSecret }} data-testid="client-secret">
          <Typography.Text code>{issued?.clientSecret}</Typography.Text>
        </Typography.Paragraph>
      </Modal>
    </>
  );
}

import { Button, Result } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { progress } from '../../lib/progress';
import { loadZones, useZoneStore, useZonesReady } from './zone-store';

/**
 * Shows a zone-scoped screen once the user's zones are loaded (spec §2): the progress bar runs
 * meanwhile (no spinner), and a failed load offers a retry.
 */
export function ZonesGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const ready = useZonesReady();
  const status = useZoneStore((state) => state.status);

  useEffect(() => {
    if (status !== 'loading') return;
    progress.start();
    return () => progress.done();
  }, [status]);

  if (ready) return children;
  if (status === 'error') {
    return (
      <Result
        status="warning"
        title={t('adminExtra.zones.loadFailed')}
        extra={
          <Button type="primary" onClick={() => loadZones().catch(() => undefined)}>
            {t('adminExtra.retry')}
          </Button>
        }
      />
    );
  }
  return null;
}

import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { fenText } from './desk-money';
import type { WriteOutcome } from './use-desk-reader';

/** How writing the card after the change went ('writing' while it runs). */
export function WriteOutcomeAlert({ outcome }: { outcome: WriteOutcome | 'writing' | undefined }) {
  const { t } = useTranslation();
  if (!outcome) return null;
  if (outcome === 'writing') return <Alert type="info" showIcon title={t('desk.write.writing')} />;
  if (outcome.written)
    return (
      <Alert
        type="success"
        showIcon
        data-testid="desk-write-written"
        title={t('desk.write.written', { balance: fenText(outcome.card.balanceFen) })}
      />
    );
  return (
    <Alert
      type="error"
      showIcon
      data-testid="desk-write-failed"
      title={t('desk.write.failed', { problem: outcome.problem })}
    />
  );
}

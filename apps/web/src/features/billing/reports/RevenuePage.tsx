import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AreaScreenProps } from '../../monitor/screens/area-screen-props';
import { ReconciliationPanel } from './ReconciliationPanel';
import { RevenuePanel } from './RevenuePanel';

/**
 * Spec /skgg/revenue: revenue by period, billing mode and tier, and the reconciliation of card
 * balances, the ledger and the controllers' records with the ledger's own checks.
 */
export function RevenuePage(_props: AreaScreenProps) {
  const { t } = useTranslation();
  return (
    <Tabs
      items={[
        { key: 'revenue', label: t('billingReports.revenue.title'), children: <RevenuePanel /> },
        {
          key: 'reconciliation',
          label: t('billingReports.reconciliation.title'),
          children: <ReconciliationPanel />,
        },
      ]}
    />
  );
}

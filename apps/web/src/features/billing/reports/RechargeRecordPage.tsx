import { rechargeRecordEntity } from '@shuili/contract';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { ResourcePage } from '../../../resource/ResourcePage';
import type { AreaScreenProps } from '../../monitor/screens/area-screen-props';
import { CashReportPanel } from './CashReportPanel';

/** Recharges and their reversals: the screen's fixed filter over the ledger's transactions. */
const RECHARGES = { rechargeOf: 'recharge' };

/**
 * Spec /skgg/rechargeRecord: the recharge records (by time, household, village, cashier, method
 * and payment reference, exported as xlsx or pdf by the entity kit) and the daily cash report
 * per cashier.
 */
export function RechargeRecordPage(_props: AreaScreenProps) {
  const { t } = useTranslation();
  return (
    <Tabs
      items={[
        {
          key: 'records',
          label: t('billingReports.records'),
          children: <ResourcePage entity={rechargeRecordEntity} fixedFilters={RECHARGES} />,
        },
        { key: 'cash', label: t('billingReports.cash.title'), children: <CashReportPanel /> },
      ]}
    />
  );
}

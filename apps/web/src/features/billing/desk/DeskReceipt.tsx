import type { DeskResult } from '@shuili/contract';
import { PrinterOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../../../core/session-store';
import { fenText } from './desk-money';
import type { WriteOutcome } from './use-desk-reader';

/**
 * A recharge's or refund's receipt: printed on its own (the print style sheet hides the rest of
 * the console while it prints).
 */
export function DeskReceipt({
  kind,
  result,
  householdName,
  method,
  outcome,
  at,
}: {
  kind: 'recharge' | 'refund';
  result: DeskResult;
  householdName: string | undefined;
  method?: string;
  outcome: WriteOutcome | 'writing' | undefined;
  at: Date;
}) {
  const { t } = useTranslation();
  const cashier = useSessionStore((state) => state.user?.nickname || state.user?.username);
  const written = outcome !== undefined && outcome !== 'writing' && outcome.written;
  const items = [
    { key: 'time', label: t('desk.receipt.time'), children: at.toLocaleString() },
    { key: 'card', label: t('desk.cardNo'), children: result.cardNo },
    { key: 'household', label: t('desk.household'), children: householdName ?? '' },
    {
      key: 'amount',
      label: t('desk.receipt.amount'),
      children: t('desk.yuan', { amount: fenText(result.amountFen ?? 0) }),
    },
    ...(method ? [{ key: 'method', label: t('desk.receipt.method'), children: method }] : []),
    {
      key: 'balance',
      label: t('desk.receipt.balance'),
      children: t('desk.yuan', { amount: fenText(result.balance?.availableFen ?? 0) }),
    },
    { key: 'txn', label: t('desk.receipt.txn'), children: result.txnId ?? '' },
    { key: 'cashier', label: t('desk.receipt.cashier'), children: cashier ?? '' },
    {
      key: 'written',
      label: t('desk.receipt.cardWritten'),
      children: written ? t('desk.receipt.yes') : t('desk.receipt.no'),
    },
  ];
  return (
    <Card
      size="small"
      className="desk-receipt"
      data-testid="desk-receipt"
      title={t(`desk.receipt.${kind}`)}
      extra={
        <Button size="small" icon={<PrinterOutlined />} onClick={() => window.print()}>
          {t('desk.receipt.print')}
        </Button>
      }
    >
      <style>{PRINT_ONLY_RECEIPT}</style>
      <Descriptions size="small" column={1} bordered items={items} />
    </Card>
  );
}

// While printing, only the receipt shows (the console's shell, menus and forms are hidden).
const PRINT_ONLY_RECEIPT = `@media print {
  body * { visibility: hidden; }
  .desk-receipt, .desk-receipt * { visibility: visible; }
  .desk-receipt { position: absolute; left: 0; top: 0; width: 100%; }
  .desk-receipt .ant-card-extra { display: none; }
}`;

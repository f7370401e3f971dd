import { Space } from 'antd';
import type { AreaScreenProps } from '../../monitor/screens/area-screen-props';
import { CardReaderStatus } from '../reader/CardReaderStatus';
import { DeskCardPanel } from './DeskCardPanel';
import { DeskMoneyForm } from './DeskMoneyForm';
import { useDeskReader } from './use-desk-reader';
import { useDeskCard } from './useDeskCard';

/**
 * Spec /skgg/refund: only the balance not held by a running session nor consumed is refunded
 * (the ledger refuses more, naming the amount); the card is written after the refund commits.
 */
export function DeskRefundPage(_props: AreaScreenProps) {
  const desk = useDeskReader();
  const card = useDeskCard(desk);
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="desk-refund-page">
      <CardReaderStatus />
      <DeskCardPanel desk={desk} card={card} />
      <DeskMoneyForm kind="refund" desk={desk} card={card} />
    </Space>
  );
}

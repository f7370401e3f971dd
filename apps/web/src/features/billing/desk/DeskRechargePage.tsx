import { Space } from 'antd';
import type { AreaScreenProps } from '../../monitor/screens/area-screen-props';
import { CardReaderStatus } from '../reader/CardReaderStatus';
import { DeskCardPanel } from './DeskCardPanel';
import { DeskMoneyForm } from './DeskMoneyForm';
import { useDeskReader } from './use-desk-reader';
import { useDeskCard } from './useDeskCard';

/** Spec /skgg/recharge: read the card, see its household and money, recharge, write the card. */
export function DeskRechargePage(_props: AreaScreenProps) {
  const desk = useDeskReader();
  const card = useDeskCard(desk);
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="desk-recharge-page">
      <CardReaderStatus />
      <DeskCardPanel desk={desk} card={card} />
      <DeskMoneyForm kind="recharge" desk={desk} card={card} />
    </Space>
  );
}

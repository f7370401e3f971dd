import { billingTxnEntity } from '@shuili/contract';
import { ResourcePage } from '../../../resource/ResourcePage';

/**
 * /skgg/transaction: every ledger transaction (recharges, refunds, holds, settlements,
 * consumption, reversals) with its amount in yuan, household, card, controller and cashier,
 * searched by time, type, household, payment reference or memo and exported like any list. Read
 * only: money moves through the desk's calls, corrections are reversals.
 */
export function TransactionPage() {
  return <ResourcePage entity={billingTxnEntity} />;
}

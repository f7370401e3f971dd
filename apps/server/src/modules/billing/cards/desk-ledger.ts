import type { Sql } from '../../../db/database';

/**
 * What the desk needs of the ledger (modules/billing/ledger LedgerService): posting inside the
 * desk's own transaction, so a card's state or write record commits or vanishes with the entry.
 */
export interface DeskLedger {
  recharge(
    sql: Sql,
    input: {
      tenantId: string;
      idempotencyKey: string;
      householdId: string;
      amountFen: number;
      method: 'cash' | 'online';
      externalRef?: string;
      cardId?: string;
      cashierId: string;
      memo?: string;
      createdBy: string;
    },
  ): Promise<{ txnId: string; replayed: boolean }>;
  refund(
    sql: Sql,
    input: {
      tenantId: string;
      idempotencyKey: string;
      householdId: string;
      amountFen: number;
      cardId?: string;
      cashierId: string;
      memo?: string;
      createdBy: string;
    },
  ): Promise<{ txnId: string; replayed: boolean }>;
  reverse(
    sql: Sql,
    input: {
      tenantId: string;
      idempotencyKey: string;
      txnId: string;
      memo: string;
      cashierId: string;
      createdBy: string;
    },
  ): Promise<{ txnId: string; replayed: boolean }>;
  householdBalance(
    sql: Sql,
    tenantId: string,
    householdId: string,
  ): Promise<{ availableFen: number; heldFen: number }>;
}

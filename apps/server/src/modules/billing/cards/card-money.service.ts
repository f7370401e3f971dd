import {
  CARD_PURSE_MAX_FEN,
  type CardWrite,
  type CardWriteState,
  type ConfirmCardWriteInput,
  type DeskReader,
  type DeskReaderRow,
  type DeskResult,
  type RechargeCardInput,
  type RefundCardInput,
  type ReverseCardWriteInput,
} from '@shuili/contract';
import type { Database, Sql } from '../../../db/database';
import type { AuthContext } from '../../../http/request-context';
import { seen, yuan } from './card-lifecycle.service';
import { cardWriteRepo } from './card-write.repo';
import { boundCard, known, refused } from './desk-checks';
import { deskCardRepo } from './desk-card.repo';
import type { DeskLedger } from './desk-ledger';
import { deskReaderRepo } from './desk-reader.repo';

type MoneyInput = {
  idempotencyKey: string;
  cardNo: string;
  amountFen: number;
  cardSequence: number;
  reader?: DeskReader;
};

/**
 * Money at the desk with write after commit (issue 20 item 6): the ledger posts the recharge or
 * refund and, in the same transaction, the card image to write is recorded (pending); the desk
 * writes it with compare-and-write and confirms. A write that fails stays pending and is retried
 * (at the desk now, or whenever the card is next read); one the cashier gives up on is offered for
 * reversal through the ledger. None is ever lost.
 */
export class CardMoneyService {
  constructor(
    private readonly db: Database,
    private readonly ledger: DeskLedger,
  ) {}

  recharge(auth: AuthContext, input: RechargeCardInput & { idempotencyKey: string }) {
    return this.post(auth, 'recharge', input as MoneyInput, (sql, householdId, cardId) =>
      this.ledger.recharge(sql, {
        tenantId: auth.tenantId,
        idempotencyKey: input.idempotencyKey,
        householdId,
        amountFen: input.amountFen,
        method: input.method,
        ...(input.externalRef ? { externalRef: input.externalRef } : {}),
        cardId,
        cashierId: auth.userId,
        createdBy: auth.userId,
      }),
    );
  }

  /** Only what is available (not held by a running session) can be refunded: the ledger says. */
  refund(auth: AuthContext, input: RefundCardInput & { idempotencyKey: string }) {
    return this.post(auth, 'refund', input as MoneyInput, (sql, householdId, cardId) =>
      this.ledger.refund(sql, {
        tenantId: auth.tenantId,
        idempotencyKey: input.idempotencyKey,
        householdId,
        amountFen: input.amountFen,
        cardId,
        cashierId: auth.userId,
        createdBy: auth.userId,
      }),
    );
  }

  private post(
    auth: AuthContext,
    reason: 'recharge' | 'refund',
    input: MoneyInput,
    posting: (
      sql: Sql,
      householdId: string,
      cardId: string,
    ) => Promise<{ txnId: string; replayed: boolean }>,
  ): Promise<DeskResult> {
    return this.db.tenant(auth, async (sql) => {
      const card = boundCard(
        known(await deskCardRepo.byNo(sql, input.cardNo, true), 'cardNo', input.cardNo),
        'cardNo',
      );
      if (input.reader) await seen(sql, auth, input.reader, reason);
      const posted = await posting(sql, card.householdId, card.id);
      const balance = await this.ledger.householdBalance(sql, auth.tenantId, card.householdId);
      // A card cannot carry more than its purse holds: an image above it could never be written
      // (refused here, the posting rolled back with the rest of the transaction).
      if (!posted.replayed && balance.availableFen > CARD_PURSE_MAX_FEN)
        throw refused(409, 'amountFen', 'billing.cardPurseFull', {
          cardNo: card.cardNo,
          max: yuan(CARD_PURSE_MAX_FEN),
        });
      // A retry answers the first call's write (as it stands now), never a second one.
      const write =
        (posted.replayed ? await cardWriteRepo.byTxn(sql, posted.txnId) : undefined) ??
        (await cardWriteRepo.add(sql, {
          tenantId: auth.tenantId,
          cardId: card.id,
          cardNo: card.cardNo,
          householdId: card.householdId,
          reason,
          txnId: posted.txnId,
          amountFen: input.amountFen,
          balanceFen: balance.availableFen,
          sequence: input.cardSequence + 1,
          userId: auth.userId,
        }));
      return {
        cardNo: card.cardNo,
        cardState: card.cardState,
        txnId: posted.txnId,
        amountFen: input.amountFen,
        balance,
        write,
        replayed: posted.replayed,
      };
    });
  }

  /**
   * The desk's report on a write. written: the card holds it (older images not on the card are
   * superseded by it). failed: stays pending; given the card's sequence now (a controller wrote
   * the card since), the image is made again from the ledger's balance for the next try.
   * abandoned: failed, offered for reversal, still retried when the card is next read.
   */
  confirm(auth: AuthContext, input: ConfirmCardWriteInput): Promise<CardWrite> {
    return this.db.tenant(auth, async (sql) => {
      const write = await this.openWrite(sql, String(input.writeId));
      if (input.reader) await seen(sql, auth, input.reader, `write:${input.outcome}`);
      if (input.outcome === 'written') {
        if (write.state === 'written') return write;
        if (write.reversalTxnId)
          throw refused(409, 'writeId', 'billing.cardWriteReversed', { cardNo: write.cardNo });
        await cardWriteRepo.setState(sql, write.id, { state: 'written' });
        await cardWriteRepo.supersedeOlder(sql, write.cardId, write.id);
        return (await cardWriteRepo.byId(sql, write.id))!;
      }
      if (write.state === 'written' || write.state === 'superseded')
        throw refused(409, 'writeId', `billing.cardWrite.${write.state}`, {
          cardNo: write.cardNo,
        });
      const state: CardWriteState =
        input.outcome === 'abandoned' || write.state === 'failed' ? 'failed' : 'pending';
      await cardWriteRepo.setState(sql, write.id, { state, problem: input.problem ?? null });
      if (input.cardSequence !== undefined && !write.reversalTxnId) {
        const balance = write.householdId
          ? await this.ledger.householdBalance(sql, auth.tenantId, write.householdId)
          : { availableFen: write.image.balanceFen };
        await sql.query(
          `UPDATE billing_card_write SET balance_fen = $2, sequence = $3 WHERE id = $1`,
          [write.id, balance.availableFen, input.cardSequence + 1],
        );
      }
      return (await cardWriteRepo.byId(sql, write.id))!;
    });
  }

  /** The cashier gave up on a write: its ledger transaction is reversed, once. */
  reverse(auth: AuthContext, input: ReverseCardWriteInput & { idempotencyKey: string }) {
    return this.db.tenant(auth, async (sql) => {
      const write = await this.openWrite(sql, String(input.writeId));
      if (write.reversalTxnId) return write;
      if (!write.txnId) throw refused(409, 'writeId', 'billing.cardWriteNoTxn');
      if (write.state === 'written' || write.state === 'superseded')
        throw refused(409, 'writeId', `billing.cardWrite.${write.state}`, {
          cardNo: write.cardNo,
        });
      const reversal = await this.ledger.reverse(sql, {
        tenantId: auth.tenantId,
        idempotencyKey: input.idempotencyKey,
        txnId: write.txnId,
        memo: `card ${write.cardNo} could not be written`,
        cashierId: auth.userId,
        createdBy: auth.userId,
      });
      await cardWriteRepo.setState(sql, write.id, {
        state: 'failed',
        problem: write.problem,
        reversalTxnId: reversal.txnId,
      });
      return (await cardWriteRepo.byId(sql, write.id))!;
    });
  }

  writes(auth: AuthContext, filter: { state?: CardWriteState; cardNo?: string }) {
    return this.db.tenant(auth, async (sql) => {
      let cardId: string | undefined;
      if (filter.cardNo) {
        const card = await deskCardRepo.byNo(sql, filter.cardNo);
        if (!card) return [];
        cardId = card.id;
      }
      return cardWriteRepo.list(sql, {
        ...(filter.state ? { state: filter.state } : { open: true }),
        ...(cardId ? { cardId } : {}),
      });
    });
  }

  readers(auth: AuthContext): Promise<DeskReaderRow[]> {
    return this.db.tenant(auth, (sql) => deskReaderRepo.list(sql));
  }

  private async openWrite(sql: Sql, id: string): Promise<CardWrite> {
    const write = await cardWriteRepo.byId(sql, id, true);
    if (!write) throw refused(400, 'writeId', 'billing.cardWriteMissing');
    return write;
  }
}

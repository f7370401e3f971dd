import type {
  BindCardInput,
  DeskCard,
  DeskReader,
  DeskResult,
  ReclaimCardInput,
  ReplaceCardInput,
  ReportLostCardInput,
} from '@shuili/contract';
import type { Database, Sql } from '../../../db/database';
import type { AuthContext } from '../../../http/request-context';
import { cardOperationRepo, requestHash, type CardOperationKind } from './card-operation.repo';
import { cardWriteRepo } from './card-write.repo';
import { boundCard, inState, known, refused, userCard } from './desk-checks';
import { deskCardRepo, type CardRow } from './desk-card.repo';
import type { DeskLedger } from './desk-ledger';
import { deskReaderRepo } from './desk-reader.repo';

/**
 * What must happen when a card may no longer be used at controllers (lost, replaced, cancelled):
 * the controllers' module (H6, billing/sessions) pushes the tenant's blacklist to every controller
 * on its next contact. Called after the change commits; a failure is logged, not undone (the
 * controllers also ask the server about a card at each swipe).
 */
export interface CardBlacklist {
  cardBlocked(tenantId: string, cardNo: string): Promise<void>;
}

type Parsed<T> = T & { idempotencyKey: string; reader?: DeskReader };

/**
 * The card lifecycle at the service desk (issue 20 item 2): bind, report lost, replace, cancel and
 * reclaim. Each call is one transaction (the card locked first, so desks take turns on a card),
 * idempotent by its request id, and refuses with a translated error naming the field.
 */
export class CardLifecycleService {
  constructor(
    private readonly db: Database,
    private readonly ledger: DeskLedger,
    private readonly blacklist: CardBlacklist | undefined,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {}

  /** A card as the desk shows it: state, household, money, quota, writes not yet on it. */
  async deskCard(auth: AuthContext, cardNo: string, reader?: DeskReader): Promise<DeskCard> {
    return this.db.tenant(auth, async (sql) => {
      const card = known(await deskCardRepo.byNo(sql, cardNo), 'cardNo', cardNo);
      if (reader) await seen(sql, auth, reader, 'read');
      const household = card.householdId
        ? await deskCardRepo.household(sql, card.householdId)
        : undefined;
      const replaces = card.replacesCardId
        ? await deskCardRepo.byId(sql, card.replacesCardId)
        : undefined;
      const replacedBy = await deskCardRepo.replacementOf(sql, card.id);
      return {
        card: {
          id: card.id,
          cardNo: card.cardNo,
          cardType: card.cardType,
          cardState: card.cardState,
          householdId: card.householdId,
          replacesCardNo: replaces?.cardNo ?? null,
          replacedByCardNo: replacedBy?.cardNo ?? null,
        },
        household: household
          ? {
              id: household.id,
              householdName: household.householdName,
              idNumberMasked: household.idNumberMasked,
              phone: household.phone,
              village: household.village,
            }
          : null,
        balance: household
          ? await this.ledger.householdBalance(sql, auth.tenantId, household.id)
          : null,
        quota: household ? await deskCardRepo.quota(sql, auth.tenantId, household.id) : null,
        pendingWrites: await cardWriteRepo.list(sql, { cardId: card.id, open: true }),
      };
    });
  }

  /** A registered user card becomes the household's. */
  bind(auth: AuthContext, input: Parsed<BindCardInput>): Promise<DeskResult> {
    return this.operate(auth, 'bind', input, async (sql) => {
      const card = known(await deskCardRepo.byNo(sql, input.cardNo, true), 'cardNo', input.cardNo);
      userCard(card, 'cardNo');
      const householdId = String(input.householdId);
      const household = await deskCardRepo.household(sql, householdId);
      if (!household) throw refused(400, 'householdId', 'billing.householdMissing');
      if (!household.enabled) throw refused(409, 'householdId', 'billing.householdDisabled');
      if (card.householdId && card.householdId !== householdId)
        throw refused(409, 'cardNo', 'billing.cardOfAnotherHousehold', { cardNo: card.cardNo });
      inState(card, 'cardNo', card.householdId ? ['registered', 'bound'] : ['registered']);
      await deskCardRepo.setState(sql, card.id, {
        cardState: 'bound',
        householdId,
        userId: auth.userId,
      });
      return {
        card: { ...card, cardState: 'bound' },
        balance: await this.balanceOf(sql, auth.tenantId, householdId),
      };
    });
  }

  /** The card stops working: every controller refuses it on its next contact. */
  async reportLost(auth: AuthContext, input: Parsed<ReportLostCardInput>): Promise<DeskResult> {
    const result = await this.operate(auth, 'reportLost', input, async (sql) => {
      const card = known(await deskCardRepo.byNo(sql, input.cardNo, true), 'cardNo', input.cardNo);
      const bound = boundCard(card, 'cardNo');
      await deskCardRepo.setState(sql, card.id, { cardState: 'lost', userId: auth.userId });
      return {
        card: { ...card, cardState: 'lost' },
        balance: await this.balanceOf(sql, auth.tenantId, bound.householdId),
      };
    });
    await this.block(auth.tenantId, result.cardNo);
    return result;
  }

  /**
   * A new registered user card takes the lost card's place: bound to its household, carrying the
   * balance the ledger says now (sessions of the lost card uploaded late are posted against the
   * household, so they are in it; the sessions module flags them). The answer holds the image to
   * write on the new card.
   */
  async replace(auth: AuthContext, input: Parsed<ReplaceCardInput>): Promise<DeskResult> {
    const result = await this.operate(auth, 'replace', input, async (sql) => {
      if (input.lostCardNo === input.newCardNo)
        throw refused(400, 'newCardNo', 'billing.replaceSameCard');
      // Both cards locked, in card-number order, so two desks replacing crosswise cannot deadlock.
      const [first, second] = [input.lostCardNo, input.newCardNo].sort();
      const locked = new Map<string, CardRow | undefined>();
      for (const cardNo of [first!, second!])
        locked.set(cardNo, await deskCardRepo.byNo(sql, cardNo, true));
      const lost = known(locked.get(input.lostCardNo), 'lostCardNo', input.lostCardNo);
      const fresh = known(locked.get(input.newCardNo), 'newCardNo', input.newCardNo);
      userCard(lost, 'lostCardNo');
      if (lost.cardState !== 'lost')
        throw refused(409, 'lostCardNo', 'billing.cardNotLost', { cardNo: lost.cardNo });
      const householdId = lost.householdId;
      if (!householdId)
        throw refused(409, 'lostCardNo', 'billing.cardState.registered', { cardNo: lost.cardNo });
      userCard(fresh, 'newCardNo');
      if (fresh.householdId && fresh.householdId !== householdId)
        throw refused(409, 'newCardNo', 'billing.cardOfAnotherHousehold', { cardNo: fresh.cardNo });
      inState(fresh, 'newCardNo', ['registered']);
      await deskCardRepo.setState(sql, lost.id, { cardState: 'replaced', userId: auth.userId });
      await deskCardRepo.setState(sql, fresh.id, {
        cardState: 'bound',
        householdId,
        replacesCardId: lost.id,
        userId: auth.userId,
      });
      // The lost card's writes not yet on it can never be: the new card carries the balance.
      for (const open of await cardWriteRepo.list(sql, { cardId: lost.id, open: true }))
        await cardWriteRepo.setState(sql, open.id, { state: 'superseded', problem: open.problem });
      const balance = await this.ledger.householdBalance(sql, auth.tenantId, householdId);
      const write = await cardWriteRepo.add(sql, {
        tenantId: auth.tenantId,
        cardId: fresh.id,
        cardNo: fresh.cardNo,
        householdId,
        reason: 'replace',
        txnId: null,
        amountFen: null,
        balanceFen: balance.availableFen,
        sequence: (input.cardSequence ?? 0) + 1,
        userId: auth.userId,
      });
      return {
        card: { ...fresh, cardState: 'bound', householdId },
        balance,
        write,
      };
    });
    await this.block(auth.tenantId, input.lostCardNo);
    return result;
  }

  /**
   * The card is cancelled and reclaimed: what the household has available is refunded in cash
   * through the ledger, unless another card of the household is still in use (the money is the
   * household's, not the card's). Refused while a session holds part of it.
   */
  async reclaim(auth: AuthContext, input: Parsed<ReclaimCardInput>): Promise<DeskResult> {
    const result = await this.operate(auth, 'reclaim', input, async (sql) => {
      const card = known(await deskCardRepo.byNo(sql, input.cardNo, true), 'cardNo', input.cardNo);
      inState(card, 'cardNo', ['registered', 'bound', 'lost']);
      let txnId: string | null = null;
      let amountFen = 0;
      let balance = null;
      if (card.householdId && card.cardState !== 'registered') {
        balance = await this.ledger.householdBalance(sql, auth.tenantId, card.householdId);
        if (balance.heldFen > 0)
          throw refused(409, 'cardNo', 'billing.cardSessionRunning', {
            cardNo: card.cardNo,
            held: yuan(balance.heldFen),
          });
        const others = await deskCardRepo.otherLiveCards(sql, card.householdId, card.id);
        if (others === 0 && balance.availableFen > 0) {
          amountFen = balance.availableFen;
          const posted = await this.ledger.refund(sql, {
            tenantId: auth.tenantId,
            idempotencyKey: `reclaim:${input.idempotencyKey}`,
            householdId: card.householdId,
            amountFen,
            cardId: card.id,
            cashierId: auth.userId,
            createdBy: auth.userId,
            memo: `reclaim ${card.cardNo}`,
          });
          txnId = posted.txnId;
          balance = await this.ledger.householdBalance(sql, auth.tenantId, card.householdId);
        }
      }
      await deskCardRepo.setState(sql, card.id, { cardState: 'cancelled', userId: auth.userId });
      for (const open of await cardWriteRepo.list(sql, { cardId: card.id, open: true }))
        await cardWriteRepo.setState(sql, open.id, { state: 'superseded', problem: open.problem });
      return { card: { ...card, cardState: 'cancelled' }, balance, txnId, amountFen };
    });
    await this.block(auth.tenantId, result.cardNo);
    return result;
  }

  private async balanceOf(sql: Sql, tenantId: string, householdId: string) {
    return this.ledger.householdBalance(sql, tenantId, householdId);
  }

  /** One lifecycle call: its request id claimed, the work, the result stored for retries. */
  private operate(
    auth: AuthContext,
    kind: CardOperationKind,
    input: Parsed<Record<string, unknown>>,
    work: (sql: Sql) => Promise<{
      card: CardRow;
      balance: { availableFen: number; heldFen: number } | null;
      txnId?: string | null;
      amountFen?: number | null;
      write?: DeskResult['write'];
    }>,
  ): Promise<DeskResult> {
    return this.db.tenant(auth, async (sql) => {
      const earlier = await cardOperationRepo.claim(sql, {
        tenantId: auth.tenantId,
        idempotencyKey: input.idempotencyKey,
        kind,
        hash: requestHash(kind, input),
        userId: auth.userId,
      });
      if (earlier) return earlier;
      if (input.reader) await seen(sql, auth, input.reader, kind);
      const done = await work(sql);
      const result: DeskResult = {
        cardNo: done.card.cardNo,
        cardState: done.card.cardState,
        txnId: done.txnId ?? null,
        amountFen: done.amountFen ?? null,
        balance: done.balance,
        write: done.write ?? null,
        replayed: false,
      };
      await cardOperationRepo.finish(sql, {
        tenantId: auth.tenantId,
        idempotencyKey: input.idempotencyKey,
        cardId: done.card.id,
        result,
      });
      return result;
    });
  }

  private async block(tenantId: string, cardNo: string): Promise<void> {
    if (!this.blacklist) return;
    try {
      await this.blacklist.cardBlocked(tenantId, cardNo);
    } catch (error) {
      this.log.warn({ err: error, cardNo }, 'could not push the card blacklist to the controllers');
    }
  }
}

/** The reader a desk operation went through, and who used it. */
export function seen(sql: Sql, auth: AuthContext, reader: DeskReader, operation: string) {
  return deskReaderRepo.seen(sql, {
    tenantId: auth.tenantId,
    reader,
    userId: auth.userId,
    username: auth.username,
    operation,
  });
}

/** Fen as yuan with two decimals, for messages. */
export function yuan(fen: number): string {
  return (fen / 100).toFixed(2);
}

import crypto from 'node:crypto';
import type { LedgerMethod, LedgerPosted, LedgerTxnKind } from '@shuili/contract';
import type { Sql } from '../../../db/database';
import { isUniqueViolation } from '../../../db/pg-errors';
import {
  BALANCE_KINDS,
  ledgerRepo,
  type Account,
  type AccountRef,
  type NewPosting,
  type NewTxn,
  type TxnRow,
} from './ledger.repo';
import {
  alreadyReversed,
  holdEnded,
  holdMissing,
  householdMissing,
  insufficientBalance,
  keyReused,
  notReversible,
  onlineRefTaken,
  refMissing,
  txnMissing,
} from './ledger-errors';

/** What every posting carries: whose ledger, the caller's key, and who asked. */
export interface LedgerBase {
  tenantId: string;
  /** Made by the client, sent again on retries: the same key posts once. */
  idempotencyKey: string;
  memo?: string | null;
  /** The user (or none, for a controller's record) the row is recorded as created by. */
  createdBy?: string | null;
}

/** Where the money went: the card, controller and session involved, when there are. */
export interface LedgerRefs {
  cardId?: string | null;
  deviceId?: string | null;
  sessionId?: string | null;
}

export interface RechargeInput extends LedgerBase, LedgerRefs {
  householdId: string;
  amountFen: number;
  method: LedgerMethod;
  /** The online payment's reference (required online). */
  externalRef?: string | null;
  /** Whose cash drawer takes the money (required for cash). */
  cashierId?: string | null;
}

export interface RefundInput extends LedgerBase, LedgerRefs {
  householdId: string;
  amountFen: number;
  /** Whose cash drawer pays it out. */
  cashierId: string;
}

export interface HoldInput extends LedgerBase, LedgerRefs {
  householdId: string;
  amountFen: number;
}

export interface SettleInput extends LedgerBase, LedgerRefs {
  holdTxnId: string;
  /** The real charge (0: nothing was used, the hold is voided). */
  amountFen: number;
  /**
   * What the household cannot cover of a charge above the hold goes to its arrears instead of
   * being refused (a controller's record is a fact: the water was drawn).
   */
  allowArrears?: boolean;
}

export interface VoidInput extends LedgerBase, LedgerRefs {
  holdTxnId: string;
}

export interface ConsumeInput extends LedgerBase, LedgerRefs {
  householdId: string;
  amountFen: number;
  /** As for SettleInput: what the balance cannot cover goes to arrears instead of a refusal. */
  allowArrears?: boolean;
}

export interface ReverseInput extends LedgerBase {
  txnId: string;
  /** Who made the correction (their cash drawer takes or pays a reversed cash amount). */
  cashierId?: string | null;
}

/** One side of one account, before the balances are known. */
interface Leg {
  account: AccountRef;
  debitFen: number;
  creditFen: number;
}

/** A transaction to post: its row, the accounts it may touch, and its legs given the balances. */
interface Plan {
  txn: Omit<NewTxn, 'requestHash' | 'idempotencyKey'>;
  /** The input field named when the balance does not suffice. */
  amountField: string;
  accounts: AccountRef[];
  legs(balances: (ref: AccountRef) => number): Leg[];
}

const household = (id: string): AccountRef => ({ kind: 'household', ownerId: id });
const heldOf = (id: string): AccountRef => ({ kind: 'hold', ownerId: id });
const arrearsOf = (id: string): AccountRef => ({ kind: 'arrears', ownerId: id });
const cashOf = (id: string): AccountRef => ({ kind: 'cash', ownerId: id });
const REVENUE: AccountRef = { kind: 'revenue', ownerId: null };
const ONLINE: AccountRef = { kind: 'online', ownerId: null };

const debit = (account: AccountRef, fen: number): Leg => ({ account, debitFen: fen, creditFen: 0 });
const credit = (account: AccountRef, fen: number): Leg => ({
  account,
  debitFen: 0,
  creditFen: fen,
});
const keyOf = (ref: AccountRef) => `${ref.kind}:${ref.ownerId ?? ''}`;

/** A digest of what was asked, so a key sent again with another request is told apart. */
function requestHash(kind: LedgerTxnKind, input: object): string {
  const fields = Object.entries(input)
    .filter(
      ([name, value]) =>
        !['tenantId', 'idempotencyKey', 'createdBy'].includes(name) && value != null,
    )
    .sort(([a], [b]) => a.localeCompare(b));
  return crypto
    .createHash('sha256')
    .update(JSON.stringify([kind, fields]))
    .digest('hex');
}

/** The charge a household pays from its balance, the rest (if allowed) going to arrears. */
function charge(
  householdId: string,
  fen: number,
  available: number,
  allowArrears: boolean | undefined,
): Leg[] {
  if (!allowArrears || fen <= available) return [debit(household(householdId), fen)];
  const legs = [debit(arrearsOf(householdId), fen - available)];
  if (available > 0) legs.push(debit(household(householdId), available));
  return legs;
}

/**
 * The billing ledger (migration 019; DESIGN §7): double-entry, append-only, idempotent. Every
 * call runs in the caller's transaction (`sql`), so what else the caller writes (a card's state,
 * a session row) commits or vanishes with the entry. Each answers the transaction and whether
 * the key had posted it before (then nothing new is written).
 */
export class LedgerService {
  /**
   * Money paid in: from the cashier's drawer (cash) or the online account to the household,
   * paying what it owes (arrears of water drawn beyond its balance) first.
   */
  recharge(sql: Sql, input: RechargeInput): Promise<LedgerPosted> {
    const from = input.method === 'cash' ? cashOf(required(input.cashierId, 'cashierId')) : ONLINE;
    return this.post(sql, input, 'recharge', {
      txn: {
        ...this.row(input, 'recharge', input.amountFen, input.householdId),
        cashierId: input.cashierId ?? null,
        method: input.method,
        externalRef: input.externalRef ?? null,
      },
      amountField: 'amountFen',
      accounts: [from, household(input.householdId), arrearsOf(input.householdId)],
      legs: (balance) => {
        const owed = Math.max(0, -balance(arrearsOf(input.householdId)));
        const paid = Math.min(owed, input.amountFen);
        const legs = [debit(from, input.amountFen)];
        if (paid > 0) legs.push(credit(arrearsOf(input.householdId), paid));
        if (input.amountFen > paid)
          legs.push(credit(household(input.householdId), input.amountFen - paid));
        return legs;
      },
    });
  }

  /** Cash paid back, from the balance no running session holds. */
  refund(sql: Sql, input: RefundInput): Promise<LedgerPosted> {
    const to = cashOf(input.cashierId);
    return this.post(sql, input, 'refund', {
      txn: {
        ...this.row(input, 'refund', input.amountFen, input.householdId),
        cashierId: input.cashierId,
      },
      amountField: 'amountFen',
      accounts: [household(input.householdId), to],
      legs: () => [
        debit(household(input.householdId), input.amountFen),
        credit(to, input.amountFen),
      ],
    });
  }

  /** A swipe's reservation: the amount moves from the household's money to its hold. */
  hold(sql: Sql, input: HoldInput): Promise<LedgerPosted> {
    return this.post(sql, input, 'hold', {
      txn: this.row(input, 'hold', input.amountFen, input.householdId),
      amountField: 'amountFen',
      accounts: [household(input.householdId), heldOf(input.householdId)],
      legs: () => [
        debit(household(input.householdId), input.amountFen),
        credit(heldOf(input.householdId), input.amountFen),
      ],
    });
  }

  /**
   * A session's end: the whole hold is released, the real charge goes to revenue and the rest
   * back to the household; a charge above the hold is taken from the balance. At most once per
   * hold (settle or void). A charge of 0 is a void.
   */
  async settle(sql: Sql, input: SettleInput): Promise<LedgerPosted> {
    if (input.amountFen === 0) return this.end(sql, input, 'void', 0);
    return this.end(sql, input, 'settle', input.amountFen);
  }

  /** An aborted session: the whole hold goes back to the household. At most once per hold. */
  voidHold(sql: Sql, input: VoidInput): Promise<LedgerPosted> {
    return this.end(sql, input, 'void', 0);
  }

  /** A controller's late record without a hold: the household pays revenue directly. */
  consume(sql: Sql, input: ConsumeInput): Promise<LedgerPosted> {
    const owner = input.householdId;
    return this.post(sql, input, 'consumption', {
      txn: this.row(input, 'consumption', input.amountFen, owner),
      amountField: 'amountFen',
      accounts: [household(owner), arrearsOf(owner), REVENUE],
      legs: (balance) => [
        ...charge(owner, input.amountFen, balance(household(owner)), input.allowArrears),
        credit(REVENUE, input.amountFen),
      ],
    });
  }

  /**
   * A correction: the mirror of an earlier recharge, refund, consumption or settlement (a
   * settlement's hold side goes to the household, whose hold it was). At most once per txn.
   */
  async reverse(sql: Sql, input: ReverseInput): Promise<LedgerPosted> {
    const replay = await this.replayed(sql, input, 'reversal');
    if (replay) return replay;
    const original = await ledgerRepo.txnById(sql, input.tenantId, input.txnId);
    if (!original) throw txnMissing('txnId');
    if (!['recharge', 'refund', 'consumption', 'settle'].includes(original.kind))
      throw notReversible('txnId');
    if (await ledgerRepo.endedBy(sql, input.tenantId, 'reverses_txn_id', original.id))
      throw alreadyReversed('txnId');
    const net = new Map<string, { ref: AccountRef; fen: number }>();
    for (const posting of await ledgerRepo.postingsOf(sql, original.id)) {
      // A reversed cash amount moves the drawer of the cashier who reverses (the cash report
      // counts it there), not the original cashier's.
      const ref: AccountRef =
        posting.kind === 'hold'
          ? household(posting.ownerId!)
          : posting.kind === 'cash' && input.cashierId
            ? cashOf(input.cashierId)
            : { kind: posting.kind, ownerId: posting.ownerId };
      const entry = net.get(keyOf(ref)) ?? { ref, fen: 0 };
      // Mirrored: what was debited is credited, and the other way round.
      entry.fen += posting.debitFen - posting.creditFen;
      net.set(keyOf(ref), entry);
    }
    const legs = [...net.values()]
      .filter((entry) => entry.fen !== 0)
      .map((entry) =>
        entry.fen > 0 ? credit(entry.ref, entry.fen) : debit(entry.ref, -entry.fen),
      );
    return this.post(sql, input, 'reversal', {
      txn: {
        ...this.row(input, 'reversal', original.amountFen, original.householdId),
        cashierId: input.cashierId ?? null,
        reversesTxnId: original.id,
      },
      amountField: 'txnId',
      accounts: legs.map((leg) => leg.account),
      legs: () => legs,
    });
  }

  /** A household's available money and what running sessions hold of it. */
  householdBalance(
    sql: Sql,
    tenantId: string,
    householdId: string,
  ): Promise<{ availableFen: number; heldFen: number }> {
    return ledgerRepo.householdBalance(sql, tenantId, householdId);
  }

  /** Refuses (400 naming householdId) a household the tenant does not have. */
  async requireHousehold(sql: Sql, tenantId: string, householdId: string): Promise<void> {
    if (!(await ledgerRepo.householdExists(sql, tenantId, householdId)))
      throw householdMissing('householdId');
  }

  /** Settle or void of a hold. */
  private async end(
    sql: Sql,
    input: SettleInput | VoidInput,
    kind: 'settle' | 'void',
    chargeFen: number,
  ): Promise<LedgerPosted> {
    const replay = await this.replayed(sql, input, kind);
    if (replay) return replay;
    const hold = await ledgerRepo.txnById(sql, input.tenantId, input.holdTxnId);
    if (!hold || hold.kind !== 'hold') throw holdMissing('holdTxnId');
    if (await ledgerRepo.endedBy(sql, input.tenantId, 'hold_txn_id', hold.id))
      throw holdEnded('holdTxnId');
    const owner = hold.householdId!;
    const held = hold.amountFen;
    const allowArrears = 'allowArrears' in input ? input.allowArrears : false;
    return this.post(sql, input, kind, {
      txn: {
        ...this.row(input, kind, kind === 'void' ? held : chargeFen, owner),
        holdTxnId: hold.id,
      },
      amountField: 'amountFen',
      accounts: [household(owner), heldOf(owner), arrearsOf(owner), REVENUE],
      legs: (balance) => {
        if (kind === 'void') return [debit(heldOf(owner), held), credit(household(owner), held)];
        const legs = [debit(heldOf(owner), held), credit(REVENUE, chargeFen)];
        if (chargeFen < held) legs.push(credit(household(owner), held - chargeFen));
        if (chargeFen > held)
          legs.push(...charge(owner, chargeFen - held, balance(household(owner)), allowArrears));
        return legs;
      },
    });
  }

  /** The row's common part. */
  private row(
    input: LedgerBase & LedgerRefs,
    kind: LedgerTxnKind,
    amountFen: number,
    householdId: string | null,
  ): Plan['txn'] {
    return {
      kind,
      amountFen,
      householdId,
      cardId: input.cardId ?? null,
      deviceId: input.deviceId ?? null,
      sessionId: input.sessionId ?? null,
      cashierId: null,
      method: null,
      externalRef: null,
      holdTxnId: null,
      reversesTxnId: null,
      memo: input.memo ?? null,
      createdBy: input.createdBy ?? null,
    };
  }

  /** The txn the key posted before (same request), or a refusal (another request), or null. */
  private async replayed(
    sql: Sql,
    input: LedgerBase,
    kind: LedgerTxnKind,
  ): Promise<LedgerPosted | null> {
    const existing = await ledgerRepo.txnByKey(sql, input.tenantId, input.idempotencyKey);
    return existing ? this.sameOrRefused(existing, requestHash(kind, input)) : null;
  }

  private sameOrRefused(existing: TxnRow, hash: string): LedgerPosted {
    if (existing.requestHash !== hash) throw keyReused('idempotencyKey');
    return { txnId: existing.id, replayed: true };
  }

  /**
   * Posts a plan: the txn row first (a key taken, by an earlier or a concurrent request that is
   * waited for, is answered as a replay or refused; so is a household not the tenant's), then the
   * accounts locked in id order, their balances read, the legs checked to leave none below zero,
   * and the postings inserted. Settle, void and reversal look the key up before their own checks
   * (a replay must not be refused as "already ended").
   */
  private async post(
    sql: Sql,
    input: LedgerBase,
    kind: LedgerTxnKind,
    plan: Plan,
  ): Promise<LedgerPosted> {
    const hash = requestHash(kind, input);
    let txnId: string | null;
    try {
      txnId = await ledgerRepo.insertTxn(sql, input.tenantId, {
        ...plan.txn,
        idempotencyKey: input.idempotencyKey,
        requestHash: hash,
      });
    } catch (error) {
      // A concurrent settle, void or reversal of the same txn committed first.
      if (isUniqueViolation(error, 'billing_txn_hold_ended')) throw holdEnded('holdTxnId');
      if (isUniqueViolation(error, 'billing_txn_reversed')) throw alreadyReversed('txnId');
      // Another recharge of the same online payment (migration 024), under another key.
      if (isUniqueViolation(error, 'billing_txn_online_ref'))
        throw onlineRefTaken('externalRef', String(plan.txn.externalRef));
      throw error;
    }
    if (txnId === null) {
      // The key was taken (the same request again, or another), or a record it names is not
      // the tenant's.
      const existing = await ledgerRepo.txnByKey(sql, input.tenantId, input.idempotencyKey);
      if (existing) return this.sameOrRefused(existing, hash);
      const missing = await ledgerRepo.missingRef(sql, input.tenantId, plan.txn);
      if (missing === 'householdId') throw householdMissing(missing);
      throw refMissing(missing ?? 'idempotencyKey');
    }
    const accounts = await ledgerRepo.accounts(sql, input.tenantId, plan.accounts);
    const accountOf = (ref: AccountRef): Account => accounts.get(keyOf(ref))!;
    const bounded = [...accounts.values()].filter((account) => BALANCE_KINDS.has(account.kind));
    const locked = await ledgerRepo.lockBalances(
      sql,
      bounded.map((account) => account.id),
    );
    const owing = await ledgerRepo.runningBalances(
      sql,
      [...accounts.values()]
        .filter((account) => account.kind === 'arrears')
        .map((account) => account.id),
    );
    const balanceOf = (ref: AccountRef) => {
      const id = accountOf(ref).id;
      return locked.get(id)?.balanceFen ?? owing.get(id) ?? 0;
    };
    const legs = plan.legs(balanceOf);
    const postings: NewPosting[] = [];
    const after = new Map(locked);
    for (const leg of legs) {
      const account = accountOf(leg.account);
      const state = after.get(account.id);
      if (!state) {
        postings.push({ ...leg, account, accountSeq: null, balanceAfterFen: null });
        continue;
      }
      const balanceFen = state.balanceFen + leg.creditFen - leg.debitFen;
      if (balanceFen < 0)
        throw insufficientBalance(plan.amountField, leg.debitFen, state.balanceFen);
      const next = { seq: state.seq + 1, balanceFen };
      after.set(account.id, next);
      postings.push({ ...leg, account, accountSeq: next.seq, balanceAfterFen: balanceFen });
    }
    await ledgerRepo.insertPostings(sql, input.tenantId, txnId, postings);
    return { txnId, replayed: false };
  }
}

function required(value: string | null | undefined, name: string): string {
  if (!value) throw new Error(`LedgerService: ${name} is required`);
  return value;
}

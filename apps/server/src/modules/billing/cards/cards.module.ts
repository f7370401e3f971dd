import { CARD_CALLS } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database';
import { CardLifecycleService, type CardBlacklist } from './card-lifecycle.service';
import { CardMoneyService } from './card-money.service';
import { cardsRoutes } from './cards.routes';
import type { DeskLedger } from './desk-ledger';

/** Every service desk call: the cashier role's grants spread these in (H3's role declaration). */
export const DESK_CASHIER_CALLS: readonly string[] = Object.values(CARD_CALLS);

/**
 * The service desk (issue 20): the card lifecycle and money at the desk with write after commit.
 * Posts through the ledger (registerLedger's LedgerService); `blacklist` is the controllers'
 * module's push of lost cards (billing/sessions), when it is there.
 */
export async function registerCards(
  app: FastifyInstance,
  deps: { db: Database; ledger: DeskLedger; blacklist?: CardBlacklist },
): Promise<void> {
  await app.register(cardsRoutes, {
    lifecycle: new CardLifecycleService(deps.db, deps.ledger, deps.blacklist, app.log),
    money: new CardMoneyService(deps.db, deps.ledger),
  });
}

import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database';
import { ledgerRoutes } from './ledger.routes';
import { LedgerService } from './ledger.service';

/**
 * The billing ledger (issue 20): the cashier's calls, and the one LedgerService the other billing
 * modules (cards, sessions) post through. app.ts calls it once.
 */
export async function registerLedger(
  app: FastifyInstance,
  deps: { db: Database },
): Promise<LedgerService> {
  const ledger = new LedgerService();
  await app.register(ledgerRoutes, { db: deps.db, ledger });
  return ledger;
}

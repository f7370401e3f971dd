import { AUTHORIZE_SESSION_COMMAND } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import type { LedgerService } from '../ledger/ledger.service';
import { BlacklistSync } from './blacklist-sync';
import { CardSessionService, SESSION_CHECK, type CardSessionOptions } from './card-session.service';
import { sessionCheckProcessor } from './session-check.processor';
import { DbSessionPricing } from './session-pricing';
import { sessionRepo } from './session.repo';

const DEFAULT_MAX_SESSION_MS = 24 * 3_600_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** The card controllers' sessions and the blacklist push (tests drive their checks). */
    cardSessions: { sessions: CardSessionService; blacklist: BlacklistSync };
  }
}

/**
 * The card controllers' sessions (issue 20 item 5, docs/card-billing.md): listens to the IoT
 * engine's ingestion (swipes, records, acknowledgements, presence), posts through the ledger,
 * checks sessions on the scheduler core. Needs registerIot (app.telemetry, app.commands,
 * app.alarms) and registerScheduler (app.scheduler). Answers the blacklist push the service
 * desk's card lifecycle calls when a card is reported lost (registerCards' `blacklist`).
 */
export function registerCardSessions(
  app: FastifyInstance,
  deps: { db: Database; ledger: LedgerService; options?: CardSessionOptions },
): { sessions: CardSessionService; blacklist: BlacklistSync } {
  const blacklist = new BlacklistSync({ db: deps.db, commands: app.commands, log: app.log });
  const sessions = new CardSessionService(
    {
      db: deps.db,
      ledger: deps.ledger,
      commands: app.commands,
      alarms: app.alarms,
      pricing: new DbSessionPricing(),
      blacklist,
      log: app.log,
    },
    deps.options,
  );
  app.telemetry.ingest.addListener(sessions);
  // An authorization runs a pump on a hold: only the server sends it, for a session it opened.
  app.commands.guards.register('card_controller', async (ctx) => {
    if (ctx.name === AUTHORIZE_SESSION_COMMAND && ctx.userId !== null)
      throw new AppError(409, 'billing.sessionCommandOnly', { params: { command: ctx.name } });
  });
  // Tied to its session in the command's own transaction: the controller's answer, however
  // quick, finds the session by the command (a refusal voids the hold at once).
  app.commands.guards.onRecorded('card_controller', async (ctx, commandId) => {
    if (ctx.name === AUTHORIZE_SESSION_COMMAND)
      await sessionRepo.setAuthorizeCommand(ctx.sql, String(ctx.params['sessionId']), commandId);
  });
  app.scheduler.registerProcessor(
    SESSION_CHECK,
    sessionCheckProcessor({
      db: deps.db,
      sessions,
      maxSessionMs: deps.options?.maxSessionMs ?? DEFAULT_MAX_SESSION_MS,
    }),
  );
  app.decorate('cardSessions', { sessions, blacklist });
  return { sessions, blacklist };
}

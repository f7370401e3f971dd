import type { Database } from '../../../db/database';
import {
  PermanentRunFailure,
  scheduleOnce,
  type Processor,
} from '../../scheduler/scheduler.service';
import type { CardSessionService } from './card-session.service';
import { SESSION_CHECK } from './card-session.service';
import { sessionRepo } from './session.repo';

interface SessionCheckPayload {
  sessionId: string;
  /** authorize: did the controller take it? expire: did it end in time? */
  stage: 'authorize' | 'expire';
  /** How often the authorization was found still on its way (its ack awaited). */
  waits?: number;
}

/** Checks of an authorization still on its way before it counts as failed. */
const MAX_WAITS = 5;
const WAIT_MS = 30_000;

/**
 * A session's checks on the scheduler core (DESIGN §6a: they survive restarts and run once on
 * one node). After the swipe: when the controller did not carry out its authorizeSession
 * (refused, timed out, expired undelivered), the hold is voided; when it did, the session is
 * watched until `maxSessionMs` after the swipe and voided if no record ended it by then. A
 * voided session's record that comes later is charged on its own (late). Idempotent: the void
 * happens once (the ledger's key and the session's state), a second run finds it done.
 */
export function sessionCheckProcessor(deps: {
  db: Database;
  sessions: CardSessionService;
  maxSessionMs: number;
}): Processor<SessionCheckPayload> {
  return async (run) => {
    const { sessionId, stage } = run.payload;
    if (typeof sessionId !== 'string' || !/^\d{1,18}$/.test(sessionId))
      throw new PermanentRunFailure('sessionCheck: no session id');
    const decision = await deps.db.tenant(run.tenantId, async (sql) => {
      const session = await sessionRepo.lockSession(sql, sessionId);
      if (!session || session.state !== 'open') return `session ${session?.state ?? 'gone'}`;
      if (stage === 'authorize') {
        const status = session.authorize_command_id
          ? await sessionRepo.commandStatus(sql, session.authorize_command_id)
          : undefined;
        const waits = run.payload.waits ?? 0;
        if (status === 'succeeded') {
          const swiped = session.swiped_at?.getTime() ?? Date.now();
          await scheduleOnce(sql, {
            tenantId: run.tenantId,
            kind: SESSION_CHECK,
            key: `billing-session:${sessionId}:expire`,
            dueAt: new Date(Math.max(swiped + deps.maxSessionMs, Date.now())),
            payload: { sessionId, stage: 'expire' },
          });
          return 'authorized';
        }
        if ((status === 'sent' || status === 'pending') && waits < MAX_WAITS) {
          await scheduleOnce(sql, {
            tenantId: run.tenantId,
            kind: SESSION_CHECK,
            key: `billing-session:${sessionId}:authorize${waits + 1}`,
            dueAt: new Date(Date.now() + WAIT_MS),
            payload: { sessionId, stage: 'authorize', waits: waits + 1 },
          });
          return 'waiting';
        }
        await deps.sessions.voidIn(sql, run.tenantId, sessionId, `authorize${status ?? 'Missing'}`);
        return 'voided';
      }
      await deps.sessions.voidIn(sql, run.tenantId, sessionId, 'noEnd');
      return 'voided';
    });
    return { result: { decision } };
  };
}

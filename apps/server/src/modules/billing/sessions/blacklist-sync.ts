import crypto from 'node:crypto';
import {
  blacklistParam,
  COMMAND_MAX_EXPIRES_SECONDS,
  SYNC_BLACKLIST_COMMAND,
} from '@shuili/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import type { CommandService } from '../../iot/command/command.service';
import { sessionRepo } from './session.repo';

/** A sync counts as given while its command is on its way or carried out. */
const LIVE_STATES = new Set(['pending', 'sent', 'succeeded']);

const hashOf = (cardNos: readonly string[]) =>
  crypto.createHash('sha256').update(cardNos.join(',')).digest('hex').slice(0, 32);

/**
 * The blacklist at the controllers (docs/card-billing.md "Blacklist"): the card numbers no
 * controller may run (lost, replaced, cancelled), sent as `syncBlacklist` through the command
 * engine, so a controller offline now gets it when it is back (a command waits for its device).
 * Each controller's last list is remembered by its hash: `ensure` (at every contact: coming
 * online, a swipe, a record) sends only when the list changed or the last one never arrived;
 * `pushAll` (a card reported lost, or refused at one controller) sends to every controller.
 */
export class BlacklistSync {
  constructor(
    private readonly deps: { db: Database; commands: CommandService; log: FastifyBaseLogger },
  ) {}

  async ensure(tenantId: string, deviceId: string): Promise<void> {
    const due = await this.deps.db.tenant(tenantId, async (sql) => {
      if (!(await sessionRepo.isController(sql, deviceId))) return undefined;
      const cardNos = await sessionRepo.blockedCards(sql);
      const hash = hashOf(cardNos);
      const sent = await sessionRepo.sentBlacklist(sql, deviceId);
      if (sent?.hash === hash && sent.commandId) {
        const status = await sessionRepo.commandStatus(sql, sent.commandId);
        if (status && LIVE_STATES.has(status)) return undefined;
      }
      return { cardNos, hash };
    });
    if (due) await this.send(tenantId, deviceId, due.cardNos, due.hash);
  }

  /**
   * A controller answered a command: when it was its blacklist, a newer list held back by it
   * (two syncs of one controller cannot be under way at once) goes now.
   */
  async afterAck(tenantId: string, deviceId: string, commandId: string): Promise<void> {
    const ours = await this.deps.db.tenant(tenantId, async (sql) => {
      const sent = await sessionRepo.sentBlacklist(sql, deviceId);
      return sent?.commandId === commandId;
    });
    if (ours) await this.ensure(tenantId, deviceId);
  }

  /**
   * The service desk reported a card lost (or replaced, cancelled): every controller learns
   * (the card lifecycle's CardBlacklist).
   */
  cardBlocked(tenantId: string): Promise<void> {
    return this.pushAll(tenantId);
  }

  async pushAll(tenantId: string): Promise<void> {
    const controllers = await this.deps.db.tenant(tenantId, (sql) => sessionRepo.controllers(sql));
    for (const controller of controllers) await this.ensure(tenantId, controller.id);
  }

  private async send(tenantId: string, deviceId: string, cardNos: string[], hash: string) {
    try {
      const view = await this.deps.commands.sendAsServer({
        tenantId,
        deviceId,
        name: SYNC_BLACKLIST_COMMAND,
        params: { cardNos: blacklistParam(cardNos) },
        expiresInSeconds: COMMAND_MAX_EXPIRES_SECONDS,
        username: 'card billing',
      });
      await this.deps.db.tenant(tenantId, (sql) =>
        sessionRepo.markBlacklistSent(sql, tenantId, deviceId, hash, view.id),
      );
    } catch (error) {
      // An older list still on its way (a conflict): the next contact sends the new one.
      if (!(error instanceof AppError)) throw error;
      this.deps.log.debug({ err: error, deviceId }, 'blacklist not sent now');
    }
  }
}

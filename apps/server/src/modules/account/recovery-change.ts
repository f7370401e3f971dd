import { translate, type Lang } from '@shuili/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Sql } from '../../db/database';
import type { Notifier, OutgoingMessage } from '../notify/notifier';
import { sessionRepo } from '../uaa/session.repo';

/**
 * A change to how an account is recovered: where a password reset or an SMS sign-in goes, or
 * its second factor. Each takes proof (checkOwnProof), ends the user's other sessions and is told
 * to the addresses the account had before.
 */
export type RecoveryChange = 'emailChanged' | 'mobileChanged' | 'mfaOn' | 'mfaOff';

/** The addresses of an account before a change: where its notice goes. */
export interface RecoveryAddresses {
  email: string | null;
  mobile: string | null;
}

/** The signed-in user a change is made for, and the session that made it (which stays). */
interface Changer {
  userId: string;
  username: string;
  tenantCode: string;
  sessionId: string;
}

/**
 * The user's addresses; inside a write, the row stays locked until it commits (two changes
 * cannot cross).
 */
export async function readAddresses(sql: Sql, userId: string): Promise<RecoveryAddresses> {
  const { rows } = await sql.query<RecoveryAddresses>(
    'SELECT email, mobile FROM sys_user WHERE id = $1 FOR UPDATE',
    [userId],
  );
  return rows[0] ?? { email: null, mobile: null };
}

/**
 * The addresses an update would change; a field not sent changes nothing, a blank one is none,
 * and an e-mail that differs only in letter case is the same mailbox (the unique index and the
 * look-ups ignore case).
 */
export function addressChanges(
  before: RecoveryAddresses,
  sent: { email?: string | null; mobile?: string | null },
): RecoveryChange[] {
  const changes: RecoveryChange[] = [];
  const mailbox = (email: string | null | undefined) => email?.toLowerCase() || null;
  if (sent.email !== undefined && mailbox(sent.email) !== mailbox(before.email))
    changes.push('emailChanged');
  if (sent.mobile !== undefined && (sent.mobile || null) !== before.mobile)
    changes.push('mobileChanged');
  return changes;
}

/**
 * Inside the change's transaction: every other session of the user ends (one that a stolen token
 * opened among them), the one that made the change stays.
 */
export async function endOtherSessions(sql: Sql, changer: Changer): Promise<void> {
  await sessionRepo.revokeOthersOfUser(sql, changer.userId, changer.sessionId, 'recovery_changed');
}

/**
 * After the change committed: tells the owner at the addresses the account had before, in the
 * caller's language, by e-mail for every change and by SMS to the old mobile when the mobile
 * changed. The change is made, so a failed delivery is logged rather than answered.
 */
export async function noticeRecoveryChange(
  deps: { notifier: Notifier; log: FastifyBaseLogger },
  lang: Lang,
  changer: Changer,
  before: RecoveryAddresses,
  changes: RecoveryChange[],
): Promise<void> {
  if (changes.length === 0) return;
  const account = { username: changer.username, tenantCode: changer.tenantCode };
  const said = (change: RecoveryChange) => translate(lang, `notice.${change}`, account);
  const notYou = translate(lang, 'notice.notYou');
  const messages: OutgoingMessage[] = [];
  if (before.email)
    messages.push({
      channel: 'email',
      recipient: before.email,
      subject: translate(lang, 'notice.accountChangedSubject'),
      body: [...changes.map(said), notYou].join('\n\n'),
    });
  if (before.mobile && changes.includes('mobileChanged'))
    messages.push({
      channel: 'sms',
      recipient: before.mobile,
      body: `${said('mobileChanged')} ${notYou}`,
    });
  for (const message of messages) {
    try {
      await deps.notifier.send(message);
    } catch (error) {
      deps.log.error({ err: error, channel: message.channel }, 'account change notice not sent');
    }
  }
}

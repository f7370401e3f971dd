import crypto from 'node:crypto';
import { CAPTCHA, translate, type Lang } from '@shuili/contract';
import type { Database } from '../../db/database';
import { tooManyRequests } from '../../http/app-error';
import type { Notifier } from '../notify/notifier';
import { clientKey, RATE_RULES, type RateLimitService } from '../uaa/rate-limit.service';

export type CaptchaChannel = 'sms' | 'email';

export interface SendCaptcha {
  channel: CaptchaChannel;
  /** What the code is bound to: a mobile number, or tenant code and e-mail for password resets. */
  recipient: string;
  /** Where to deliver it; undefined sends nothing (an unknown address, answered like a known one). */
  deliverTo: string | undefined;
  ip: string;
  lang: Lang;
}

/**
 * One-time codes: six digits from a secure random source, valid five minutes, used once, at
 * most five guesses, one send a minute per recipient and a cap per client address.
 */
export class CaptchaService {
  constructor(
    private readonly db: Database,
    private readonly hmacKey: string,
    private readonly notifier: Notifier,
    private readonly rateLimits: RateLimitService,
  ) {}

  private hash(recipient: string, code: string): string {
    return crypto.createHmac('sha256', this.hmacKey).update(`${recipient}\n${code}`).digest('hex');
  }

  async send(request: SendCaptcha): Promise<{ expiresIn: number; resendIn: number }> {
    // Both limits count atomically before anything is sent: parallel requests cannot slip through.
    const wait = await this.rateLimits.attempt(
      `captcha-to:${request.channel}:${request.recipient}`,
      RATE_RULES.captchaSendsPerRecipient,
    );
    if (wait > 0) throw tooManyRequests(wait, 'auth.captchaTooSoon');
    const locked = await this.rateLimits.attempt(
      `captcha-ip:${clientKey(request.ip)}`,
      RATE_RULES.captchaSendsPerIp,
    );
    if (locked > 0) throw tooManyRequests(locked);

    const code = crypto
      .randomInt(0, 10 ** CAPTCHA.length)
      .toString()
      .padStart(CAPTCHA.length, '0');
    await this.db.system((sql) =>
      sql.query(
        `INSERT INTO captcha (channel, recipient, code_hash, ip, expires_at)
         VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
        [
          request.channel,
          request.recipient,
          this.hash(request.recipient, code),
          request.ip,
          CAPTCHA.ttlSeconds,
        ],
      ),
    );
    if (request.deliverTo) {
      await this.notifier.send({
        channel: request.channel,
        recipient: request.deliverTo,
        subject:
          request.channel === 'email' ? translate(request.lang, 'captcha.subject') : undefined,
        body: translate(request.lang, 'captcha.body', { code, minutes: CAPTCHA.ttlSeconds / 60 }),
      });
    }
    return { expiresIn: CAPTCHA.ttlSeconds, resendIn: CAPTCHA.resendSeconds };
  }

  /**
   * Checks a code against the newest live one for the recipient. `consume` uses it up (sign-in,
   * registration, reset); otherwise it is only marked verified (the compare step of a form).
   * `countFailures: false` leaves wrong guesses to the caller's own throttle (the password
   * sign-in's per-address one), so strangers' guesses cannot block the owner's codes for an hour.
   */
  async verify(
    channel: CaptchaChannel,
    recipient: string,
    code: string,
    consume: boolean,
    countFailures = true,
  ): Promise<boolean> {
    return (await this.verifyAny(channel, [recipient], code, consume, countFailures)) !== undefined;
  }

  /**
   * Checks a code against the newest live code of each of several recipients (a reset link asked
   * for by address alone: the code may have been sent for any tenant of the address) and answers
   * the recipient whose code it is. A miss is a wrong guess at every one of them.
   */
  async verifyAny(
    channel: CaptchaChannel,
    recipients: readonly string[],
    code: string,
    consume: boolean,
    countFailures = true,
  ): Promise<string | undefined> {
    // Wrong guesses are counted per recipient across codes: asking for a fresh code every minute
    // does not buy fresh guesses.
    const failuresKey = (recipient: string) => `captcha-fail:${channel}:${recipient}`;
    const open: string[] = [];
    for (const recipient of new Set(recipients))
      if (!countFailures || (await this.rateLimits.lockedFor([failuresKey(recipient)])) === 0)
        open.push(recipient);
    if (open.length === 0) return undefined;
    const matched = await this.db.system(async (sql) => {
      const { rows } = await sql.query<{
        id: string;
        recipient: string;
        code_hash: string;
        attempts: number;
      }>(
        `SELECT id, recipient, code_hash, attempts FROM captcha
          WHERE channel = $1 AND recipient = ANY($2) AND consumed_at IS NULL AND expires_at > now()
          ORDER BY created_at DESC, id DESC FOR UPDATE`,
        [channel, open],
      );
      // Only each recipient's newest code counts, as a resend replaces the one before.
      const newest = new Map<string, (typeof rows)[number]>();
      for (const row of rows) if (!newest.has(row.recipient)) newest.set(row.recipient, row);
      const live = [...newest.values()].filter((row) => row.attempts < CAPTCHA.maxAttempts);
      const hit = live.find((row) =>
        crypto.timingSafeEqual(
          Buffer.from(row.code_hash, 'hex'),
          Buffer.from(this.hash(row.recipient, code), 'hex'),
        ),
      );
      if (!hit) {
        if (live.length > 0)
          await sql.query('UPDATE captcha SET attempts = attempts + 1 WHERE id = ANY($1)', [
            live.map((row) => row.id),
          ]);
        return undefined;
      }
      await sql.query(
        `UPDATE captcha SET verified_at = coalesce(verified_at, now()), consumed_at = CASE WHEN $2 THEN now() END WHERE id = $1`,
        [hit.id, consume],
      );
      return hit.recipient;
    });
    if (matched === undefined && countFailures)
      for (const recipient of open)
        await this.rateLimits.attempt(
          failuresKey(recipient),
          RATE_RULES.captchaFailuresPerRecipient,
        );
    return matched;
  }
}

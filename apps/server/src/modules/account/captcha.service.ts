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
    // Wrong guesses are counted per recipient across codes: asking for a fresh code every minute
    // does not buy fresh guesses.
    const failuresKey = `captcha-fail:${channel}:${recipient}`;
    if (countFailures && (await this.rateLimits.lockedFor([failuresKey])) > 0) return false;
    const ok = await this.db.system(async (sql) => {
      const { rows } = await sql.query<{ id: string; code_hash: string; attempts: number }>(
        `SELECT id, code_hash, attempts FROM captcha
          WHERE channel = $1 AND recipient = $2 AND consumed_at IS NULL AND expires_at > now()
          ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
        [channel, recipient],
      );
      const live = rows[0];
      if (!live || live.attempts >= CAPTCHA.maxAttempts) return false;
      const expected = Buffer.from(live.code_hash, 'hex');
      const given = Buffer.from(this.hash(recipient, code), 'hex');
      if (!crypto.timingSafeEqual(expected, given)) {
        await sql.query('UPDATE captcha SET attempts = attempts + 1 WHERE id = $1', [live.id]);
        return false;
      }
      await sql.query(
        `UPDATE captcha SET verified_at = coalesce(verified_at, now()), consumed_at = CASE WHEN $2 THEN now() END WHERE id = $1`,
        [live.id, consume],
      );
      return true;
    });
    if (!ok && countFailures)
      await this.rateLimits.attempt(failuresKey, RATE_RULES.captchaFailuresPerRecipient);
    return ok;
  }
}

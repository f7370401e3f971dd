import { dictLabel, type Lang } from '@shuili/contract';
import type { Sql } from '../../../db/database';
import type { JobProcessor, JobRunContext } from '../job-processor';
import { claimEffect, releaseEffect } from './once';

const LANGS: Lang[] = ['zh', 'tw', 'en'];
/** The devices named per level in the message; the rest are counted. */
const DEVICES_SHOWN = 10;

interface DigestRow {
  level: string;
  device: string;
  n: number;
}

export interface AlarmDigest {
  total: number;
  /** Per level: its count and its devices with theirs, most alarms first. */
  levels: Array<{ level: string; n: number; devices: Array<{ device: string; n: number }> }>;
}

/** The tenant's alarms started in the last hours (open ones only when asked), per level and device. */
export async function alarmDigest(
  sql: Sql,
  hours: number,
  openOnly: boolean,
): Promise<AlarmDigest> {
  const { rows } = await sql.query<DigestRow>(
    `SELECT coalesce(a.level, '') AS level,
            coalesce(d.device_name, d.device_no, a.device_id::text, '-') AS device,
            count(*)::int AS n
       FROM iot_alarm_record a LEFT JOIN iot_device d ON d.id = a.device_id
      WHERE a.started_at >= now() - make_interval(hours => $1)
        AND ($2::boolean IS FALSE OR a.state = 'open')
      GROUP BY 1, 2 ORDER BY 1, 3 DESC, 2`,
    [hours, openOnly],
  );
  const levels = new Map<string, AlarmDigest['levels'][number]>();
  for (const row of rows) {
    const level = levels.get(row.level) ?? { level: row.level, n: 0, devices: [] };
    level.n += row.n;
    level.devices.push({ device: row.device, n: row.n });
    levels.set(row.level, level);
  }
  const sorted = [...levels.values()].sort((a, b) => b.n - a.n);
  return { total: rows.reduce((sum, row) => sum + row.n, 0), levels: sorted };
}

const TITLES: Record<Lang, (hours: number, total: number) => string> = {
  zh: (hours, total) => `告警摘要：最近 ${hours} 小时共 ${total} 条告警`,
  tw: (hours, total) => `告警摘要：最近 ${hours} 小時共 ${total} 則告警`,
  en: (hours, total) => `Alarm digest: ${total} alarms in the last ${hours} hours`,
};
const NONE: Record<Lang, string> = { zh: '无告警。', tw: '無告警。', en: 'No alarms.' };
const MORE: Record<Lang, (n: number) => string> = {
  zh: (n) => `等 ${n} 台设备`,
  tw: (n) => `等 ${n} 台設備`,
  en: (n) => `and ${n} more devices`,
};

/** The digest as lines in a language: a level, its count, its devices with theirs. */
export function digestText(digest: AlarmDigest, lang: Lang): string {
  if (digest.total === 0) return NONE[lang];
  return digest.levels
    .map(({ level, n, devices }) => {
      const shown = devices.slice(0, DEVICES_SHOWN).map((one) => `${one.device} ×${one.n}`);
      if (devices.length > DEVICES_SHOWN) shown.push(MORE[lang](devices.length - DEVICES_SHOWN));
      const name = level ? dictLabel(`dict.alarm_level.${level}`, lang) : '-';
      return `${name} (${n}): ${shown.join(', ')}`;
    })
    .join('\n');
}

const BELL = 'alarmDigest:bell';
const MAIL = 'alarmDigest:mail';

/**
 * Sends the digest's e-mails once per instance: claimed first, the claim let go when a send
 * fails so a retry sends them. Answers how many were sent by this run.
 */
async function sendOnce(
  ctx: JobRunContext,
  emails: Array<{ recipient: string; subject: string; body: string }>,
): Promise<number> {
  if (emails.length === 0) return 0;
  if (!ctx.notifier) {
    await ctx.log('no e-mail service on this node: bell notice only', 'warn');
    return 0;
  }
  if (!(await ctx.db.tenant(ctx.tenantId, (sql) => claimEffect(sql, ctx, MAIL)))) {
    await ctx.log('the e-mails of this instance were sent by an earlier run');
    return 0;
  }
  try {
    for (const mail of emails) await ctx.notifier.send({ channel: 'email', ...mail });
  } catch (error) {
    await releaseEffect(ctx, MAIL);
    throw error;
  }
  return emails.length;
}

/**
 * Sums up the tenant's alarms of the last `hours` per level and device and sends it as one
 * notice (the bell, in every language) to the job's alarm users, and by e-mail to those with an
 * address. Once per instance: the notice and its claim are one transaction; the e-mails go
 * after it, and a failed send lets the claim go so a retry sends again.
 */
export const alarmDigestProcessor: JobProcessor = {
  type: 'alarmDigest',
  async run(ctx: JobRunContext) {
    const hours = Number(ctx.params.hours);
    const openOnly = ctx.params.openOnly === true;
    const sent = await ctx.db.tenant(ctx.tenantId, async (sql) => {
      const digest = await alarmDigest(sql, hours, openOnly);
      const { rows: users } = await sql.query<{ id: string; email: string | null }>(
        `SELECT u.id::text, u.email FROM job_alarm_user l JOIN sys_user u ON u.id = l.user_id
          WHERE l.job_id = $1 AND u.status = 1 ORDER BY u.id`,
        [ctx.jobId],
      );
      if (users.length === 0) return { digest, users: 0, emails: [], again: false };
      const title = (lang: Lang) => TITLES[lang](hours, digest.total);
      const again = !(await claimEffect(sql, ctx, BELL));
      if (!again)
        await sql.query(
          `INSERT INTO notification (tenant_id, title, content, title_i18n, content_i18n, type,
                                   priority, publish_scope, publish_targets)
         VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, 'notice', $6, 'users', $7::bigint[])`,
          [
            ctx.tenantId,
            title('zh'),
            digestText(digest, 'zh'),
            JSON.stringify(Object.fromEntries(LANGS.map((lang) => [lang, title(lang)]))),
            JSON.stringify(
              Object.fromEntries(LANGS.map((lang) => [lang, digestText(digest, lang)])),
            ),
            digest.total > 0 ? 'high' : 'normal',
            users.map((user) => user.id),
          ],
        );
      const emails = users
        .filter((user) => user.email)
        .map((user) => ({
          recipient: user.email!,
          subject: `${title('zh')} / ${title('en')}`,
          body: `${digestText(digest, 'zh')}\n\n${digestText(digest, 'en')}`,
        }));
      return { digest, users: users.length, emails, again };
    });
    const { digest } = sent;
    await ctx.log(
      `${digest.total} alarms in the last ${hours} hours${openOnly ? ' (open only)' : ''}`,
    );
    if (sent.users === 0) {
      await ctx.log('the job has no alarm users: nothing sent', 'warn');
      return {
        result: `${digest.total} alarms; no alarm users, nothing sent`,
        context: { alarms: digest.total },
      };
    }
    if (sent.again) await ctx.log('the bell notice of this instance was sent by an earlier run');
    const mailed = await sendOnce(ctx, sent.emails);
    await ctx.log(`bell notice to ${sent.users} users, ${mailed} e-mails`);
    const levels = digest.levels.map((one) => `${one.level || '-'} ${one.n}`).join(', ');
    return {
      result:
        `${digest.total} alarms (${levels || 'none'}); ${sent.again ? 'already notified' : 'notified'} ` +
        `${sent.users} users, ${mailed} e-mails`,
      context: { alarms: digest.total },
    };
  },
};

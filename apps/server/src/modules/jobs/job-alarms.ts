import type { Lang } from '@shuili/contract';
import type { Sql } from '../../db/database';
import type { Notifier } from '../notify/notifier';

/** What failed, for the alarm users' bell and e-mail. */
export interface FailureNotice {
  tenantId: string;
  /** The job's or workflow's alarm users (link table job_alarm_user / workflow_alarm_user). */
  linkTable: 'job_alarm_user' | 'workflow_alarm_user';
  ownerColumn: 'job_id' | 'workflow_id';
  ownerId: string;
  kind: 'job' | 'workflow';
  name: string;
  instanceId: string;
  reason: string;
}

const TITLES: Record<Lang, (kind: string, name: string) => string> = {
  en: (kind, name) => `${kind === 'job' ? 'Job' : 'Workflow'} "${name}" failed`,
  zh: (kind, name) => `${kind === 'job' ? '任务' : '工作流'}「${name}」执行失败`,
  tw: (kind, name) => `${kind === 'job' ? '任務' : '工作流程'}「${name}」執行失敗`,
};
const CONTENTS: Record<Lang, (id: string, reason: string) => string> = {
  en: (id, reason) => `Instance ${id}: ${reason}`,
  zh: (id, reason) => `实例 ${id}：${reason}`,
  tw: (id, reason) => `實例 ${id}：${reason}`,
};

/**
 * Tells a failed job's or workflow's alarm users: a bell notice in every language, written in
 * the failure's transaction (it exists exactly when the failure does), and the e-mails to send
 * after commit. Answers the e-mails.
 */
export async function noticeFailure(
  sql: Sql,
  notice: FailureNotice,
): Promise<Array<{ recipient: string; subject: string; body: string }>> {
  const { rows: users } = await sql.query<{ id: string; email: string | null }>(
    `SELECT u.id::text, u.email FROM ${notice.linkTable} l JOIN sys_user u ON u.id = l.user_id
      WHERE l.${notice.ownerColumn} = $1 AND u.status = 1 ORDER BY u.id`,
    [notice.ownerId],
  );
  if (users.length === 0) return [];
  const reason = notice.reason.slice(0, 500);
  const title = (lang: Lang) => TITLES[lang](notice.kind, notice.name);
  const content = (lang: Lang) => CONTENTS[lang](notice.instanceId, reason);
  const langs: Lang[] = ['zh', 'tw', 'en'];
  await sql.query(
    `INSERT INTO notification (tenant_id, title, content, title_i18n, content_i18n, type, priority,
                               publish_scope, publish_targets)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, 'notice', 'high', 'users', $6::bigint[])`,
    [
      notice.tenantId,
      title('zh'),
      content('zh'),
      JSON.stringify(Object.fromEntries(langs.map((lang) => [lang, title(lang)]))),
      JSON.stringify(Object.fromEntries(langs.map((lang) => [lang, content(lang)]))),
      users.map((user) => user.id),
    ],
  );
  return users
    .filter((user) => user.email)
    .map((user) => ({
      recipient: user.email!,
      subject: `${title('zh')} / ${title('en')}`,
      body: `${content('zh')}\n${content('en')}`,
    }));
}

/** Sends the e-mails of failures after their transaction committed; a mail error is logged. */
export async function sendFailureMails(
  notifier: Notifier,
  mails: Array<{ recipient: string; subject: string; body: string }>,
  onError: (error: unknown) => void,
): Promise<void> {
  for (const mail of mails) await notifier.send({ channel: 'email', ...mail }).catch(onError);
}

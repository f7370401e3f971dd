import type { AlarmLevel, Lang, NotificationItem, NotificationType } from '@shuili/contract';
import type { Sql } from '../../db/database';

interface NotificationRow {
  id: string;
  type: NotificationType;
  title: string;
  content: string;
  priority: string;
  publisher: string | null;
  created_at: Date;
  read: boolean;
  /** The texts in every interface language (alarm notices), else null. */
  title_i18n: Partial<Record<Lang, string>> | null;
  content_i18n: Partial<Record<Lang, string>> | null;
  /** The alarm of an alarm notice, when the reader may see it (the alarms' device scope). */
  alarm_id: string | null;
  alarm_device_id: string | null;
  alarm_level: AlarmLevel | null;
}

/**
 * The notifications a user receives: published to everyone, or to one of their roles, their
 * organisation or themselves, inside their period. $1 is the user's id. Runs in tenant context.
 */
const VISIBLE = `
  FROM notification n
  LEFT JOIN notification_read r ON r.notification_id = n.id AND r.user_id = $1
  LEFT JOIN sys_user p ON p.id = n.publisher_id
  LEFT JOIN iot_alarm_record a ON a.id = n.alarm_id
 WHERE (n.start_time IS NULL OR n.start_time <= now())
   AND (n.end_time IS NULL OR n.end_time > now())
   AND (n.publish_scope = 'all'
        OR (n.publish_scope = 'users' AND $1::bigint = ANY (n.publish_targets))
        OR (n.publish_scope = 'orgs' AND (SELECT u.org_id FROM sys_user u WHERE u.id = $1) = ANY (n.publish_targets))
        OR (n.publish_scope = 'roles' AND EXISTS (
              SELECT 1 FROM sys_user_role ur WHERE ur.user_id = $1 AND ur.role_id = ANY (n.publish_targets))))`;

/**
 * A stored notice (spec §3 Notification: notice or message) is a `notification` item to its
 * readers (spec §3 Notification item: notification or message).
 */
const ITEM_TYPE = `CASE n.type WHEN 'notice' THEN 'notification' ELSE n.type END`;
const storedType = (type: NotificationType) => (type === 'notification' ? 'notice' : type);

const COLUMNS = `n.id, ${ITEM_TYPE} AS type, n.title, n.content, n.priority, p.nickname AS publisher, n.created_at,
                 (r.read_at IS NOT NULL) AS read, n.title_i18n, n.content_i18n,
                 a.id::text AS alarm_id, a.device_id::text AS alarm_device_id, a.level AS alarm_level`;

/**
 * An alarm's notice stays on the bell until the alarm is acknowledged (by anyone), read or not;
 * it is not counted among the unread notices. The join above finds only the alarms the reader
 * may see now (device scope), so one moved out of their zones leaves their bell.
 */
const OPEN_ALARM = `AND a.id IS NOT NULL AND a.acknowledged_at IS NULL`;
const NOT_ALARM = `AND n.alarm_id IS NULL`;

const ENTITIES: Record<string, string> = {
  '&nbsp;': ' ',
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/** Rich-text content as one line of plain text for lists and the bell. */
export function plainText(html: string, max = 200): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(nbsp|amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The item in the reader's language (the notice's own text when it has none in it). */
function toItem(row: NotificationRow, lang: Lang): NotificationItem {
  const content = row.content_i18n?.[lang] ?? row.content;
  return {
    id: row.id,
    type: row.type,
    title: row.title_i18n?.[lang] ?? row.title,
    description: plainText(content),
    content,
    priority: row.priority,
    publisher: row.publisher,
    datetime: row.created_at.toISOString(),
    read: row.read,
    ...(row.alarm_id && row.alarm_level
      ? { alarm: { id: row.alarm_id, deviceId: row.alarm_device_id, level: row.alarm_level } }
      : {}),
  };
}

export const notificationRepo = {
  async unreadCounts(sql: Sql, userId: string): Promise<Record<NotificationType, number>> {
    const { rows } = await sql.query<{ type: NotificationType; n: number }>(
      `SELECT ${ITEM_TYPE} AS type, count(*)::int AS n ${VISIBLE} AND r.read_at IS NULL ${NOT_ALARM}
        GROUP BY n.type`,
      [userId],
    );
    const counts = { notification: 0, message: 0 };
    for (const row of rows) counts[row.type] = row.n;
    return counts;
  },

  /**
   * The user's notifications, newest first. `alarms`: 'open' only the bell's alarm entries,
   * 'exclude' none of the alarm notices (the bell's other tabs); absent: every one.
   */
  async page(
    sql: Sql,
    userId: string,
    lang: Lang,
    filter: {
      type?: NotificationType;
      read?: boolean;
      alarms?: 'open' | 'exclude';
      limit: number;
      offset: number;
    },
  ): Promise<{ list: NotificationItem[]; total: number }> {
    const conditions = [
      filter.type ? `AND n.type = $2` : `AND $2::text IS NULL`,
      filter.read === undefined ? `AND $3::boolean IS NULL` : `AND (r.read_at IS NOT NULL) = $3`,
      filter.alarms === 'open' ? OPEN_ALARM : filter.alarms === 'exclude' ? NOT_ALARM : '',
    ].join(' ');
    const params = [userId, filter.type ? storedType(filter.type) : null, filter.read ?? null];
    const total = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n ${VISIBLE} ${conditions}`,
      params,
    );
    const { rows } = await sql.query<NotificationRow>(
      `SELECT ${COLUMNS} ${VISIBLE} ${conditions} ORDER BY n.created_at DESC, n.id DESC LIMIT $4 OFFSET $5`,
      [...params, filter.limit, filter.offset],
    );
    return { list: rows.map((row) => toItem(row, lang)), total: total.rows[0]!.n };
  },

  /** Marks the given (or all unread, of a type) visible notifications read; answers how many. */
  async markRead(
    sql: Sql,
    tenantId: string,
    userId: string,
    ids: string[] | undefined,
    type: NotificationType | undefined,
  ) {
    const { rows } = await sql.query(
      `INSERT INTO notification_read (tenant_id, notification_id, user_id)
       SELECT $4, n.id, $1 ${VISIBLE} AND r.read_at IS NULL
          AND ($2::bigint[] IS NULL OR n.id = ANY ($2::bigint[]))
          AND ($3::text IS NULL OR n.type = $3)
       ON CONFLICT DO NOTHING RETURNING notification_id`,
      [userId, ids ?? null, type ? storedType(type) : null, tenantId],
    );
    return rows.length;
  },
};

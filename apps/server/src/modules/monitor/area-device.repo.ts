import { ALARM_LEVELS } from '@shuili/contract';
import type { Sql } from '../../db/database';
import { likePattern, Params } from '../../entity/entity-sql';

/** What narrows an area's device list (the area's device kinds always do). */
export interface AreaDeviceFilter {
  kinds: readonly string[];
  zoneId?: string;
  projectId?: string;
  health?: 'normal' | 'fault';
  online?: boolean;
  text?: string;
}

export interface AreaDeviceDbRow {
  id: string;
  device_no: string;
  device_name: string;
  product_id: string;
  project_id: string | null;
  project_name: string | null;
  zone_id: string | null;
  zone_name: string | null;
  lat: number | null;
  lng: number | null;
  status: number;
  online: boolean;
  last_seen: string | null;
  alarm_level: string | null;
  total: string;
  online_count: string;
  fault_count: string;
  alarm_count: string | null;
}

export interface LatestDbRow {
  device_id: string;
  key: string;
  ts: string;
  value: number | null;
  text_value: string | null;
}

export interface ProductDbRow {
  id: string;
  product_name: string;
  thing_model: unknown;
}

const iso = (ref: string) => `to_char(${ref} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * An alarm wanting attention: open, or cleared but not acknowledged (the device entity's
 * alarmLevel). Written exactly as the partial index's predicate (ensureIndexes), so both
 * lookups below read only such alarms, however long the history of acknowledged ones.
 */
const WANTS_ATTENTION = `(a.state = 'open' OR a.acknowledged_at IS NULL)`;
/** Whether the device `d` has such an alarm: the alarms are read once and hashed. */
const HAS_ALARM = `d.id IN (SELECT a.device_id FROM iot_alarm_record a WHERE ${WANTS_ATTENTION})`;
/** The highest level among those alarms, for one page's rows. */
const ALARM_LEVEL = `(SELECT a.level FROM iot_alarm_record a
  WHERE a.device_id = page.id AND ${WANTS_ATTENTION}
  ORDER BY array_position(ARRAY['${ALARM_LEVELS.join("','")}'], a.level) DESC NULLS LAST LIMIT 1)`;

/** The WHERE conditions of a filter over `iot_device d JOIN iot_product p`. */
function conditions(filter: AreaDeviceFilter, params: Params): string[] {
  const where = [`p.device_kind = ANY(${params.add(filter.kinds)}::text[])`];
  if (filter.zoneId) {
    // The zone and every zone below it (the tree is small; the devices use their zone index).
    where.push(`d.zone_id IN (
      WITH RECURSIVE below(id) AS (
        SELECT id FROM sys_zone WHERE id = ${params.add(filter.zoneId)}::bigint
        UNION SELECT z.id FROM sys_zone z JOIN below ON z.zone_parent = below.id)
      SELECT id FROM below)`);
  }
  if (filter.projectId) where.push(`d.project_id = ${params.add(filter.projectId)}::bigint`);
  if (filter.health) where.push(filter.health === 'normal' ? 'd.status = 0' : 'd.status <> 0');
  if (filter.online !== undefined) where.push(`d.online = ${params.add(filter.online)}`);
  if (filter.text) {
    const pattern = params.add(likePattern(filter.text));
    where.push(`(d.device_no ILIKE ${pattern} OR d.device_name ILIKE ${pattern})`);
  }
  return where;
}

/**
 * The SQL of the area device list. Runs in the caller's tenant transaction: row-level security
 * keeps the tenant's devices, and of them those of the caller's zones and projects.
 */
export const areaDeviceRepo = {
  /**
   * The alarms wanting attention, by device: the list's alarm level and count read only these
   * (alarm records are an entity's table, created after the migrations: made at start).
   */
  async ensureIndexes(sql: Sql): Promise<void> {
    await sql.query(
      `CREATE INDEX IF NOT EXISTS iot_alarm_record_attention_idx ON iot_alarm_record (device_id)
        WHERE ${WANTS_ATTENTION.replaceAll('a.', '')}`,
    );
  },

  /**
   * One page of the filtered devices in number order, each row carrying the filtered set's
   * total and counts (window aggregates: one statement, the set is read once). The page's rows
   * then get their zone, project and alarm level.
   */
  async page(
    sql: Sql,
    filter: AreaDeviceFilter,
    paging: { limit: number; offset: number },
    withAlarms: boolean,
  ): Promise<AreaDeviceDbRow[]> {
    const params = new Params();
    const where = conditions(filter, params).join(' AND ');
    const alarmCount = withAlarms ? `count(*) FILTER (WHERE ${HAS_ALARM}) OVER ()` : 'NULL::bigint';
    const { rows } = await sql.query<AreaDeviceDbRow>(
      `SELECT page.id::text, page.device_no, page.device_name, page.product_id::text,
              page.project_id::text, pj.project_name, page.zone_id::text, z.zone_name,
              page.lat, page.lng, page.status, page.online, ${iso('page.last_seen')} AS last_seen,
              ${withAlarms ? ALARM_LEVEL : 'NULL::text'} AS alarm_level,
              page.total::text, page.online_count::text, page.fault_count::text,
              page.alarm_count::text
         FROM (SELECT d.id, d.device_no, d.device_name, d.product_id, d.project_id, d.zone_id,
                      d.lat, d.lng, d.status, d.online, d.last_seen,
                      count(*) OVER () AS total,
                      count(*) FILTER (WHERE d.online) OVER () AS online_count,
                      count(*) FILTER (WHERE d.status <> 0) OVER () AS fault_count,
                      ${alarmCount} AS alarm_count
                 FROM iot_device d JOIN iot_product p ON p.id = d.product_id
                WHERE ${where}
                ORDER BY d.device_no, d.id
                LIMIT ${params.add(paging.limit)} OFFSET ${params.add(paging.offset)}) page
         LEFT JOIN sys_zone z ON z.id = page.zone_id
         LEFT JOIN iot_project pj ON pj.id = page.project_id
        ORDER BY page.device_no, page.id`,
      params.values,
    );
    return rows;
  },

  /** The total and counts alone, for a page past the end (it has no row to carry them). */
  async counts(
    sql: Sql,
    filter: AreaDeviceFilter,
    withAlarms: boolean,
  ): Promise<Pick<AreaDeviceDbRow, 'total' | 'online_count' | 'fault_count' | 'alarm_count'>> {
    const params = new Params();
    const where = conditions(filter, params).join(' AND ');
    const alarmCount = withAlarms ? `count(*) FILTER (WHERE ${HAS_ALARM})` : 'NULL::bigint';
    const { rows } = await sql.query<AreaDeviceDbRow>(
      `SELECT count(*)::text AS total, count(*) FILTER (WHERE d.online)::text AS online_count,
              count(*) FILTER (WHERE d.status <> 0)::text AS fault_count,
              (${alarmCount})::text AS alarm_count
         FROM iot_device d JOIN iot_product p ON p.id = d.product_id
        WHERE ${where}`,
      params.values,
    );
    return rows[0]!;
  },

  /** The latest readings of the given devices (primary key: tenant, device, key). */
  async latest(sql: Sql, tenantId: string, deviceIds: string[]): Promise<LatestDbRow[]> {
    if (deviceIds.length === 0) return [];
    const { rows } = await sql.query<LatestDbRow>(
      `SELECT device_id::text, key, ${iso('ts')} AS ts, value, text_value
         FROM iot_telemetry_latest
        WHERE tenant_id = $1 AND device_id = ANY($2::bigint[])`,
      [tenantId, deviceIds],
    );
    return rows;
  },

  async products(sql: Sql, productIds: string[]): Promise<ProductDbRow[]> {
    if (productIds.length === 0) return [];
    const { rows } = await sql.query<ProductDbRow>(
      `SELECT id::text, product_name, thing_model FROM iot_product WHERE id = ANY($1::bigint[])`,
      [productIds],
    );
    return rows;
  },
};

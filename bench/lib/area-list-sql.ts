// The area device list's peer: what a bare handler would run for the same page, written as
// plain SQL of its own (not the server's repository), in the same tenant transaction (RLS):
// the filtered set's counts, one page of devices in number order with their zone, project and
// alarm level, the latest values of the page's devices, and the page's products.
import { ALARM_LEVELS, areaOf } from '@shuili/contract';
import type { Database } from '../../apps/server/src/db/database';

/** An alarm `a` of device `device` wanting attention: open, or cleared but not acknowledged. */
const attention = (device: string) =>
  `a.device_id = ${device} AND (a.state = 'open' OR a.acknowledged_at IS NULL)`;

const COUNTS = `
  SELECT count(*)::int AS total,
         count(*) FILTER (WHERE d.online)::int AS online,
         count(*) FILTER (WHERE d.status <> 0)::int AS fault,
         count(*) FILTER (WHERE EXISTS (SELECT 1 FROM iot_alarm_record a WHERE ${attention('d.id')}))::int AS alarm
    FROM iot_device d JOIN iot_product p ON p.id = d.product_id
   WHERE p.device_kind = ANY($1::text[])`;

// The page is cut first and only its rows get their labels (joining them to all 5,000 devices
// before the sort took 4 times as long).
const PAGE = `
  SELECT d.id::text AS id, d.device_no AS "deviceNo", d.device_name AS "deviceName",
         d.product_id::text AS "productId", d.project_id::text AS "projectId",
         pj.project_name AS "projectName", d.zone_id::text AS "zoneId", z.zone_name AS "zoneName",
         d.lat, d.lng, d.status, coalesce(d.online, false) AS online,
         to_char(d.last_seen AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "lastSeen",
         (SELECT a.level FROM iot_alarm_record a WHERE ${attention('d.id')}
           ORDER BY array_position(ARRAY['${ALARM_LEVELS.join("','")}'], a.level) DESC NULLS LAST
           LIMIT 1) AS "alarmLevel"
    FROM (SELECT d.* FROM iot_device d JOIN iot_product p ON p.id = d.product_id
           WHERE p.device_kind = ANY($1::text[])
           ORDER BY d.device_no, d.id
           LIMIT $2 OFFSET $3) d
    LEFT JOIN sys_zone z ON z.id = d.zone_id
    LEFT JOIN iot_project pj ON pj.id = d.project_id
   ORDER BY d.device_no, d.id`;

const LATEST = `
  SELECT device_id::text AS device, key, value, text_value,
         to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ts
    FROM iot_telemetry_latest WHERE device_id = ANY($1::bigint[])`;

const PRODUCTS = `
  SELECT id::text AS id, product_name AS "productName", thing_model AS "thingModel"
    FROM iot_product WHERE id = ANY($1::bigint[]) ORDER BY id`;

interface PeerRow {
  id: string;
  productId: string;
  values?: Record<string, number | string | null>;
  valueTimes?: Record<string, string>;
  [field: string]: unknown;
}

/** The page of `GET …/queryAreaDevice?area=&currentPage=&pageSize=`, in the server's envelope. */
export async function areaListPage(
  db: Database,
  tenantId: string,
  search: URLSearchParams,
): Promise<unknown> {
  const area = areaOf(search.get('area') ?? '');
  if (!area) throw new Error(`no area ${search.get('area')}`);
  const currentPage = Number(search.get('currentPage') ?? 1);
  const pageSize = Number(search.get('pageSize') ?? 50);
  const data = await db.tenant(tenantId, async (sql) => {
    const counts = await sql.query<{ total: number; online: number; fault: number; alarm: number }>(
      COUNTS,
      [area.kinds],
    );
    const page = await sql.query<PeerRow>(PAGE, [
      area.kinds,
      pageSize,
      (currentPage - 1) * pageSize,
    ]);
    const ids = page.rows.map((row) => row.id);
    const latest = await sql.query<{
      device: string;
      key: string;
      value: number | null;
      text_value: string | null;
      ts: string;
    }>(LATEST, [ids]);
    const byId = new Map(page.rows.map((row) => [row.id, row]));
    for (const row of page.rows) {
      row.values = {};
      row.valueTimes = {};
    }
    for (const reading of latest.rows) {
      const row = byId.get(reading.device)!;
      row.values![reading.key] = reading.value ?? reading.text_value;
      row.valueTimes![reading.key] = reading.ts;
    }
    const products = await sql.query(PRODUCTS, [
      [...new Set(ids.map((id) => byId.get(id)!.productId))],
    ]);
    const { total, online, fault, alarm } = counts.rows[0]!;
    return {
      list: page.rows,
      total,
      currentPage,
      pageSize,
      counts: { online, offline: total - online, fault, alarm },
      products: products.rows,
    };
  });
  return { code: 200, message: 'success', data };
}

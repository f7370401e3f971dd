import type { AreaRegion } from '@shuili/contract';
import type { Sql } from '../../../db/database';

/** Reads of regional management; every call runs in the caller's tenant context (RLS). */
export const areaRegionRepo = {
  /** The devices of the area's kinds the caller sees (device scope policies), by number. */
  async devices(sql: Sql, kinds: readonly string[]): Promise<AreaRegion['devices']> {
    const { rows } = await sql.query<AreaRegion['devices'][number]>(
      `SELECT d.id::text AS id, d.device_no AS "deviceNo", d.device_name AS "deviceName",
              d.zone_id::text AS "zoneId", d.online, d.status, p.product_name AS "productName",
              p.device_kind AS "deviceKind",
              to_char(d.last_seen AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "lastSeen"
         FROM iot_device d JOIN iot_product p ON p.id = d.product_id
        WHERE p.device_kind = ANY($1::text[])
        ORDER BY d.device_no`,
      [kinds],
    );
    return rows;
  },

  /** Every enabled zone of the tenant, in the zone tree's order. */
  async zones(sql: Sql): Promise<AreaRegion['zones']> {
    const { rows } = await sql.query<AreaRegion['zones'][number]>(
      `SELECT id::text AS id, zone_parent::text AS "parentId", zone_name AS "zoneName",
              zone_code AS "zoneCode"
         FROM sys_zone WHERE status = 1 ORDER BY zone_sequence, id`,
    );
    return rows;
  },
};

import type { Sql } from '../../../db/database';

/** Reads of the threshold screen; every call runs in the caller's tenant context (RLS). */

export interface AreaProductRow {
  id: string;
  product_name: string;
  serial_no: string;
  device_kind: string | null;
  thing_model: unknown;
}

export interface ThresholdRuleRow {
  id: string;
  property_key: string;
  kind: string;
  low: number | null;
  high: number | null;
  hysteresis: number | null;
  no_data_minutes: number | null;
  level: string;
  status: number;
}

export const areaThresholdRepo = {
  /** The products of the area's device kinds, oldest first. */
  async products(sql: Sql, kinds: readonly string[]): Promise<AreaProductRow[]> {
    const { rows } = await sql.query<AreaProductRow>(
      `SELECT id::text AS id, product_name, serial_no, device_kind, thing_model
         FROM iot_product WHERE device_kind = ANY($1::text[]) ORDER BY id`,
      [kinds],
    );
    return rows;
  },

  /** A device the caller sees, with its product. */
  async device(sql: Sql, id: string): Promise<{ id: string; product_id: string } | undefined> {
    const { rows } = await sql.query<{ id: string; product_id: string }>(
      'SELECT id::text AS id, product_id::text AS product_id FROM iot_device WHERE id = $1',
      [id],
    );
    return rows[0];
  },

  /**
   * The rules of one scope: a device's own (deviceId), or its product's that name no device. In
   * id order, so the first of several rules of one level is the one the screen edits.
   */
  async rules(
    sql: Sql,
    scope: { productId: string; deviceId: string | null },
    key?: string,
  ): Promise<ThresholdRuleRow[]> {
    const { rows } = await sql.query<ThresholdRuleRow>(
      `SELECT id::text AS id, property_key, kind, low, high, hysteresis, no_data_minutes, level,
              status
         FROM iot_alarm_rule
        WHERE ${scope.deviceId ? 'device_id = $1' : 'product_id = $1 AND device_id IS NULL'}
          AND ($2::text IS NULL OR property_key = $2)
        ORDER BY id`,
      [scope.deviceId ?? scope.productId, key ?? null],
    );
    return rows;
  },
};

import type { ThingModel } from '@shuili/contract';
import type { Sql } from '../../../db/database';

export interface ProductRow {
  id: string;
  serialNo: string;
  productName: string;
  deviceKind: string;
  protocol: string;
  thingModel: unknown;
}

const COLUMNS = `id::text AS id, serial_no AS "serialNo", product_name AS "productName",
  device_kind AS "deviceKind", protocol, thing_model AS "thingModel"`;

/** Products' thing models (the generic entity calls never touch that column). */
export const productRepo = {
  async bySerialNo(sql: Sql, serialNo: string): Promise<ProductRow | undefined> {
    const { rows } = await sql.query<ProductRow>(
      `SELECT ${COLUMNS} FROM iot_product WHERE serial_no = $1`,
      [serialNo],
    );
    return rows[0];
  },

  async updateThingModel(
    sql: Sql,
    serialNo: string,
    thingModel: ThingModel,
    userId: string,
  ): Promise<ProductRow | undefined> {
    const { rows } = await sql.query<ProductRow>(
      `UPDATE iot_product SET thing_model = $2::jsonb, updated_at = now(), updated_by = $3
        WHERE serial_no = $1 RETURNING ${COLUMNS}`,
      [serialNo, JSON.stringify(thingModel), userId],
    );
    return rows[0];
  },
};

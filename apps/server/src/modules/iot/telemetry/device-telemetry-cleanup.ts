import type { Sql } from '../../../db/database';

/**
 * Removes deleted devices' telemetry, latest values and counters (no foreign keys reach
 * iot_device from these tables). Called from the device delete hook, in its transaction (tenant
 * context: RLS confines it to the caller's devices).
 */
export async function deleteDeviceTelemetry(sql: Sql, deviceIds: string[]): Promise<void> {
  for (const table of ['iot_telemetry', 'iot_telemetry_latest', 'iot_ingest_stat'])
    await sql.query(`DELETE FROM ${table} WHERE device_id = ANY($1::bigint[])`, [deviceIds]);
}

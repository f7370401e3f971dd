import type { Sql } from '../../../db/database';

/**
 * Removes deleted devices' telemetry, latest values, counters and meter increases (no foreign
 * keys reach iot_device from these tables). Called from the device delete hook, in its
 * transaction (tenant context: RLS confines it to the caller's devices).
 */
export async function deleteDeviceTelemetry(sql: Sql, deviceIds: string[]): Promise<void> {
  for (const table of [
    'iot_telemetry',
    'iot_telemetry_latest',
    'iot_ingest_stat',
    'iot_meter_daily',
    'iot_meter_monthly',
    'iot_meter_last',
    // Its area settings (a pump station's dry-run level): nothing else reads them.
    'monitor_area_setting',
  ])
    await sql.query(`DELETE FROM ${table} WHERE device_id = ANY($1::bigint[])`, [deviceIds]);
  // A flood station's own rain thresholds (migration 018: keyed station_id, see there).
  await sql.query(`DELETE FROM monitor_flood_threshold WHERE station_id = ANY($1::bigint[])`, [
    deviceIds,
  ]);
}

import { PRODUCTS, type DeviceKind } from '@shuili/contract';
import type { Database } from '../../../db/database';
import type { TestDevice } from '../../iot/telemetry/telemetry-test-fixtures';
import { createKindDevice, createZone } from '../report/report-test-fixtures';

/** The seeded product's thing model of a kind (the real valve, soil and weather models). */
export function productModel(kind: DeviceKind) {
  const product = PRODUCTS.find((one) => one.kind === kind);
  if (!product) throw new Error(`no product of kind ${kind}`);
  return product.thingModel;
}

/** A demo device of a kind with its real thing model, in a zone, at a place. */
export async function irrigationDevice(
  db: Database,
  kind: DeviceKind,
  options: { zoneId?: string; lat?: number; lng?: number; name?: string } = {},
): Promise<TestDevice> {
  const device = await createKindDevice(db, 'demo', kind, {
    thingModel: productModel(kind),
    namePrefix: options.name ?? kind,
    ...(options.zoneId ? { zoneId: options.zoneId } : {}),
  });
  if (options.lat !== undefined)
    await db.system((sql) =>
      sql.query('UPDATE iot_device SET lat = $2, lng = $3 WHERE id = $1', [
        device.deviceId,
        options.lat,
        options.lng,
      ]),
    );
  return device;
}

export { createZone };

/**
 * Moves a waiting trigger's time to now, as if its time had come (a valve's minutes, a
 * rotation's start time): the tests do not wait real minutes. Answers the time it was due.
 */
export async function bringDue(db: Database, key: string): Promise<Date> {
  const { rows } = await db.systemStatement<{ due_at: Date }>(
    `UPDATE scheduler_trigger t SET due_at = now(), fire_at = now()
       FROM (SELECT id, due_at FROM scheduler_trigger WHERE key = $1 AND state = 'waiting'
              FOR UPDATE) old
      WHERE t.id = old.id RETURNING old.due_at`,
    [key],
  );
  if (!rows[0]) throw new Error(`no waiting trigger ${key}`);
  return rows[0].due_at;
}

/** Every command recorded for a device, oldest first. */
export async function commandsOf(
  db: Database,
  deviceId: string,
): Promise<
  Array<{
    id: string;
    name: string;
    params: Record<string, unknown>;
    status: string;
    username: string;
  }>
> {
  const { rows } = await db.systemStatement<{
    id: string;
    name: string;
    params: string;
    status: string;
    username: string;
  }>(
    `SELECT c.id::text, c.name, c.params, c.status, c.username FROM iot_command c
      WHERE c.device_id = $1 ORDER BY c.id`,
    [deviceId],
  );
  return rows.map((row) => ({ ...row, params: JSON.parse(row.params) as Record<string, unknown> }));
}

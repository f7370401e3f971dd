import type { Sql } from '../../../db/database';
import type { FieldProblem } from '../../../http/app-error';

/** A problem on `field` when the device exists and is not a card-swipe well controller. */
export async function cardControllerProblem(
  sql: Sql,
  deviceId: unknown,
  field = 'deviceId',
): Promise<FieldProblem | undefined> {
  if (deviceId === undefined || deviceId === null) return undefined;
  const { rows } = await sql.query<{ kind: string }>(
    `SELECT p.device_kind AS kind FROM iot_device d JOIN iot_product p ON p.id = d.product_id
      WHERE d.id = $1`,
    [String(deviceId)],
  );
  // A missing device is the foreign key's 400 (validation.refMissing).
  return rows[0] && rows[0].kind !== 'card_controller'
    ? { field, key: 'billing.notCardController' }
    : undefined;
}

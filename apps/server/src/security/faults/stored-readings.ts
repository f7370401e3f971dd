import { openTarget, type Target } from '@shuili/test-support/database-target';
import { readingKey } from './tracked-devices';

/**
 * Every stored reading of the tracked devices (readingKey), read with the server stopped: PGlite
 * belongs to one process, and a stopped server has nothing left in flight.
 */
export async function storedReadings(target: Target): Promise<Set<string>> {
  const db = await openTarget(target, 1);
  try {
    const { rows } = await db.system((sql) =>
      sql.query<{ device_no: string; ms: string }>(
        `SELECT d.device_no, (extract(epoch FROM t.ts) * 1000)::bigint::text AS ms
           FROM iot_telemetry t JOIN iot_device d ON d.id = t.device_id
          WHERE t.key = 'waterLevel'`,
      ),
    );
    return new Set(rows.map((row) => readingKey(row.device_no, Number(row.ms))));
  } finally {
    await db.close();
  }
}

/** Acknowledged readings that are not stored (readingKey). */
export function lostReadings(acknowledged: Set<string>, stored: Set<string>): string[] {
  return [...acknowledged].filter((key) => !stored.has(key));
}

/** What a fault test reports: acknowledged readings, how many of them are stored, and the rest. */
export function ledger(acknowledged: Set<string>, published: Set<string>, stored: Set<string>) {
  const lost = lostReadings(acknowledged, stored);
  const unacknowledgedStored = [...published].filter(
    (key) => !acknowledged.has(key) && stored.has(key),
  ).length;
  return {
    published: published.size,
    acknowledged: acknowledged.size,
    acknowledgedStored: acknowledged.size - lost.length,
    lost: lost.length,
    /** Published, never acknowledged, stored anyway (the PUBACK was lost with the server). */
    unacknowledgedStored,
    firstLost: lost.slice(0, 5),
  };
}

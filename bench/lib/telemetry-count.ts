import { openTarget, type Target } from '@shuili/test-support/database-target';

/** Readings stored (one row per value), counted with the server stopped (PGlite: one process). */
export async function countStoredPoints(target: Target): Promise<number> {
  const db = await openTarget(target, 1);
  try {
    const { rows } = await db.system((sql) =>
      sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM iot_telemetry`),
    );
    return Number(rows[0]!.n);
  } finally {
    await db.close();
  }
}

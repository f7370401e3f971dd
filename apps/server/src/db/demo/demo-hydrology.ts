import type { Sql } from '../database';

const DAY = `interval '1 day'`;

/**
 * The demo bayonet stations' rating curves: each section surveyed twice, the older curve valid
 * until the re-survey two months ago and the current one open-ended, so the computed flow shows
 * on the device list and in the data report, and the configuration page lists a station's
 * history. The current curve is the simulated sections' own (packages/sim sediment-station.ts).
 */
export async function seedDemoRatingCurves(
  sql: Sql,
  tenantId: string,
  device: ReadonlyMap<string, string>,
  adminId: string | undefined,
): Promise<void> {
  for (const [n, deviceNo] of ['BAYONET-1-01', 'BAYONET-1-02', 'BAYONET-1-03'].entries()) {
    const deviceId = device.get(deviceNo);
    if (!deviceId) continue;
    await sql.query(
      `INSERT INTO monitor_rating_curve (tenant_id, created_by, device_id, a, h0, b, valid_from,
                                         valid_to, remark)
       VALUES ($1, $2, $3, $4, 0.32, 1.62, date_trunc('day', now()) - 400 * ${DAY},
               date_trunc('day', now()) - 60 * ${DAY}, '2024年汛前实测断面率定'),
              ($1, $2, $3, 6, 0.3, 1.6, date_trunc('day', now()) - 60 * ${DAY}, NULL,
               '汛后断面复测，重新率定')`,
      [tenantId, adminId ?? null, deviceId, 5.4 + n * 0.1],
    );
  }
}

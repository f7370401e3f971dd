import { BENCH_TENANT } from '@shuili/test-support/iot-server';
import { openTarget, type Target } from '@shuili/test-support/database-target';

/** Messages a statement checks at once (two arrays of this length as parameters). */
const CHUNK = 10_000;

/** What the database holds of the readings the broker acknowledged. */
export interface ReadingCheck {
  /** Messages acknowledged to the devices (warm-up included). */
  acknowledgedMessages: number;
  /** Acknowledged messages whose reading is in the table. */
  storedOfAcknowledged: number;
  /**
   * Acknowledged and not stored: the only loss. With the embedded broker an acknowledgement
   * means stored, so this must be 0; with an external broker it is also what the broker still
   * queues for the nodes when the count is made (see `queuedAtEnd` of the external steps).
   */
  acknowledgedNotStored: number;
  /** Rows of one reading stored twice (device, key and instant). */
  duplicateRows: number;
}

/**
 * Keeps the `ts` of every acknowledged message per device, then looks each one up in the
 * database: exact where subtracting counts is not (a message stored whose acknowledgement never
 * reached its device, as on a connection the broker closed, would hide one acknowledged and lost).
 * One key per message is looked up: a message's three values are written by one statement.
 */
export function acknowledgedReadings(deviceNos: string[]) {
  const byDevice = deviceNos.map(() => [] as number[]);
  let count = 0;
  return {
    /** publishStep's `onAcknowledged`. */
    record(device: number, payload: string) {
      const ts = /"ts":(\d+)/.exec(payload)?.[1];
      if (ts === undefined) return;
      byDevice[device]!.push(Number(ts));
      count += 1;
    },
    get count() {
      return count;
    },
    /** Looks the acknowledged readings up (with the server stopped on PGlite: one process). */
    async check(target: Target): Promise<ReadingCheck> {
      const db = await openTarget(target, 1);
      try {
        let stored = 0;
        let nos: string[] = [];
        let stamps: number[] = [];
        const flush = async () => {
          if (nos.length === 0) return;
          const { rows } = await db.system(async (sql) => {
            // The server's statement timeout is for requests; a machine under load needs longer.
            await sql.query('SET LOCAL statement_timeout = 0');
            return sql.query<{ n: string }>(
              `SELECT count(*)::text AS n
                 FROM unnest($1::text[], $2::bigint[]) AS a(device_no, ms)
                 JOIN tenant te ON te.tenant_code = $3
                 JOIN iot_device d ON d.tenant_id = te.id AND d.device_no = a.device_no
                 JOIN iot_telemetry t ON t.tenant_id = d.tenant_id AND t.device_id = d.id
                  AND t.key = 'waterLevel'
                  AND t.ts = timestamptz 'epoch' + a.ms * interval '1 millisecond'`,
              [nos, stamps, BENCH_TENANT],
            );
          });
          stored += Number(rows[0]!.n);
          nos = [];
          stamps = [];
        };
        for (let device = 0; device < byDevice.length; device += 1) {
          for (const ts of byDevice[device]!) {
            nos.push(deviceNos[device]!);
            stamps.push(ts);
            if (nos.length >= CHUNK) await flush();
          }
        }
        await flush();
        // Two rows of one device, key and instant: the primary key forbids them (a resend of a
        // stored reading is absorbed by ON CONFLICT DO NOTHING); counted so the result says so.
        const duplicates = await db.system(async (sql) => {
          await sql.query('SET LOCAL statement_timeout = 0');
          return sql.query<{ n: string }>(
            `SELECT (count(*) - count(DISTINCT (tenant_id, device_id, key, ts)))::text AS n
               FROM iot_telemetry`,
          );
        });
        return {
          duplicateRows: Number(duplicates.rows[0]!.n),
          acknowledgedMessages: count,
          storedOfAcknowledged: stored,
          acknowledgedNotStored: count - stored,
        };
      } finally {
        await db.close();
      }
    },
  };
}

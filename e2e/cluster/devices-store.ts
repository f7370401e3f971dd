import type { Database } from '@shuili/server/db/database';
import { openTarget } from '@shuili/test-support/database-target';

/**
 * What the rig's PostgreSQL holds of the bench devices' readings (their `waterLevel` rows), read
 * while the nodes run: every node writes the one database, so a count is the cluster's.
 */
export class StoredReadings {
  /** (when, stored rows) every `everyMs` while sampling: the rows stored per second. */
  readonly samples: Array<{ at: number; stored: number }> = [];
  private sampler: NodeJS.Timeout | undefined;
  private sampling: Promise<void> | undefined;

  private constructor(private readonly db: Database) {}

  static async open(databaseUrl: string): Promise<StoredReadings> {
    return new StoredReadings(await openTarget({ kind: 'postgres', url: databaseUrl }, 2));
  }

  /** Stored readings of the bench devices stamped at or after `sinceMs`. */
  async count(sinceMs = 0): Promise<number> {
    const { rows } = await this.db.system((sql) =>
      sql.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM iot_telemetry t JOIN iot_device d ON d.id = t.device_id
          WHERE t.key = 'waterLevel' AND d.device_no LIKE 'B%' AND t.ts >= $1`,
        [new Date(sinceMs)],
      ),
    );
    return Number(rows[0]!.n);
  }

  /** Whether the device's reading at `ts` is stored. */
  async has(deviceNo: string, ts: number): Promise<boolean> {
    const { rows } = await this.db.system((sql) =>
      sql.query(
        `SELECT 1 FROM iot_telemetry t JOIN iot_device d ON d.id = t.device_id
          WHERE d.device_no = $1 AND t.key = 'waterLevel' AND t.ts = $2`,
        [deviceNo, new Date(ts)],
      ),
    );
    return rows.length > 0;
  }

  /** A bench device's id (the device page's address). */
  async deviceId(deviceNo: string): Promise<string | undefined> {
    const { rows } = await this.db.system((sql) =>
      sql.query<{ id: string }>(`SELECT id::text FROM iot_device WHERE device_no = $1`, [deviceNo]),
    );
    return rows[0]?.id;
  }

  /** Counts the readings stamped at or after `sinceMs` every `everyMs` until stopSampling. */
  startSampling(sinceMs: number, everyMs = 500): void {
    this.samples.length = 0;
    const take = async () => {
      const stored = await this.count(sinceMs).catch(() => undefined);
      if (stored !== undefined) this.samples.push({ at: Date.now(), stored });
    };
    this.sampler = setInterval(() => {
      // One count at a time: a slow one on a loaded database is not stacked upon.
      this.sampling ??= take().finally(() => (this.sampling = undefined));
    }, everyMs);
  }

  async stopSampling(): Promise<void> {
    clearInterval(this.sampler);
    await this.sampling;
  }

  /**
   * Rows stored between the last sample at or before `from` and the last one at or before `to`,
   * and over how many seconds those two samples lie apart.
   */
  storedBetween(from: number, to: number): { rows: number; seconds: number } {
    const before = (at: number) => this.samples.filter((sample) => sample.at <= at).at(-1);
    const first = before(from) ?? this.samples[0];
    const last = before(to);
    if (!first || !last) return { rows: 0, seconds: 0 };
    return { rows: last.stored - first.stored, seconds: (last.at - first.at) / 1000 };
  }

  /** Rows stored in each whole second from `from` to `to`, from the samples (for the log). */
  perSecond(from: number, to: number): number[] {
    const rates: number[] = [];
    for (let at = from; at + 1000 <= to; at += 1000)
      rates.push(this.storedBetween(at, at + 1000).rows);
    return rates;
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

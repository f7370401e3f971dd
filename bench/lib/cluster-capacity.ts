// From the measured bytes per reading and rates to what one PostgreSQL holds at N devices
// (docs/scaling.md "What one PostgreSQL holds"): readings a day, the month partition and its
// index, the rollup, a year's retention, and how that compares with the disk and the insert rate.
import fs from 'node:fs/promises';
import pg from 'pg';
import { round } from './stats';

export interface Measured {
  /** Month partition, heap and primary key index, per reading (after VACUUM). */
  partitionHeap: number;
  partitionIndex: number;
  /** The hourly rollup's bytes per row (one per device, key and hour). */
  hourlyRow: number;
  /** The server's writer alone and the bare multi-row insert, readings a second. */
  writerPerSecond: number;
  bulkInsertPerSecond: number;
  /** Free bytes where PostgreSQL keeps its data. */
  freeDiskBytes: number;
}

const GB = 1e9;
const DEFAULT_RETENTION_DAYS = 365; // telemetry-settings.ts

/** One scenario: `devices` each reporting `keys` values every minute (R = 1). */
export function project(measured: Measured, devices: number, keys: number, perMinute = 1) {
  const readingsPerDay = devices * keys * perMinute * 1440;
  const partitionPerDay = readingsPerDay * (measured.partitionHeap + measured.partitionIndex);
  const hourlyPerDay = devices * keys * 24 * measured.hourlyRow;
  const perDay = partitionPerDay + hourlyPerDay;
  const perSecond = readingsPerDay / 86_400;
  return {
    devices,
    keys,
    perMinute,
    readingsPerSecond: round(perSecond),
    readingsPerDay,
    partitionGBPerDay: round(partitionPerDay / GB, 3),
    partitionIndexGBPerDay: round((readingsPerDay * measured.partitionIndex) / GB, 3),
    monthPartitionGB: round((partitionPerDay * 30) / GB, 1),
    hourlyGBPerDay: round(hourlyPerDay / GB, 4),
    retainedGB: round((perDay * DEFAULT_RETENTION_DAYS) / GB, 1),
    /** Days of readings the free disk takes at this rate. */
    daysToFillFreeDisk: Math.floor(measured.freeDiskBytes / perDay),
    /** The share of the writer's and of the bare insert's rate this load takes. */
    ofWriterRate: round(perSecond / measured.writerPerSecond, 3),
    ofBulkInsertRate: round(perSecond / measured.bulkInsertPerSecond, 3),
  };
}

/** Free bytes on the file system of PostgreSQL's data directory (or of / when it is not here). */
export async function freeDiskBytes(adminUrl: string): Promise<{ path: string; bytes: number }> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  let dataDirectory = '/';
  try {
    const { rows } = await client.query<{ data_directory: string }>('SHOW data_directory');
    dataDirectory = rows[0]?.data_directory ?? '/';
  } catch {
    // Not a superuser: the data directory is not shown; the root file system stands in.
  } finally {
    await client.end();
  }
  const stats = await fs.statfs(dataDirectory).catch(() => fs.statfs('/'));
  return { path: dataDirectory, bytes: stats.bavail * stats.bsize };
}

import path from 'node:path';
import type { Config } from '../../config';
import type { Database, Sql } from '../../db/database';
import { DatabaseFileStorage } from './database-file-storage';
import { DiskFallbackStorage } from './disk-fallback-storage';
import { LocalDiskStorage, type FileStorage } from './file-storage';

/** Where the disk storage keeps files: its own folder of DATA_DIR. */
export function diskFilesRoot(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'files');
}

/**
 * The storage FILE_STORAGE names (docs/scaling.md "What each node keeps to itself"): the
 * database, which every node shares (still reading what this node kept on its disk before, until
 * it is copied), or this node's disk. The one place that makes a storage, so every upload and
 * every download of the server uses the same one.
 */
export function configuredFileStorage(
  config: Pick<Config, 'dataDir' | 'fileStorage'>,
  db: Database,
): FileStorage {
  const disk = new LocalDiskStorage(diskFilesRoot(config));
  return config.fileStorage === 'database'
    ? new DiskFallbackStorage(DatabaseFileStorage.over(db), disk)
    : disk;
}

/** The same storage for writes inside a transaction of the schema owner (the seed's). */
export function configuredFileStorageWithin(
  config: Pick<Config, 'dataDir' | 'fileStorage'>,
  sql: Sql,
): FileStorage {
  return config.fileStorage === 'database'
    ? DatabaseFileStorage.within(sql)
    : new LocalDiskStorage(diskFilesRoot(config));
}

import path from 'node:path';
import type { Config } from '../config';
import type { Database } from './database';
import { openPgliteDatabase } from './pglite-database';
import { openPostgresDatabase } from './postgres-database';

/** PostgreSQL when DATABASE_URL is set, else the embedded PGlite under DATA_DIR. */
export function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  return config.databaseUrl
    ? openPostgresDatabase(config.databaseUrl)
    : openPgliteDatabase(path.join(config.dataDir, 'pglite'));
}

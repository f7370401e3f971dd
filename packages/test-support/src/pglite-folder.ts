import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { openPgliteDatabase } from '@shuili/server/db/pglite-database';

/** The lock file openPgliteDatabase keeps in a folder while it is open. */
const LOCK_FILE = 'shuili.lock';

/**
 * Which PGlite made a cluster: its installed files (a new version may lay out a new cluster
 * differently, so it gets a template of its own).
 */
export async function pgliteKey(): Promise<string> {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const stat = await fs.stat(entry);
  return crypto
    .createHash('sha256')
    .update(`${entry}:${stat.size}:${stat.mtimeMs}`)
    .digest('hex')
    .slice(0, 16);
}

let template: Promise<string> | undefined;

/**
 * An empty initialised cluster of this PGlite, made once per machine and version: its initdb is
 * most of what a fresh PGlite folder costs (2 to 3 s of a test server's 4), a copy a tenth of it.
 * Made in a folder of its own and renamed into place, so parallel test workers never see half a
 * cluster; the loser of a race drops its own.
 */
function emptyCluster(): Promise<string> {
  template ??= (async () => {
    const folder = path.join(os.tmpdir(), `shuili-pglite-empty-${await pgliteKey()}`);
    const ready = await fs.stat(path.join(folder, 'PG_VERSION')).then(
      () => true,
      () => false,
    );
    if (ready) return folder;
    const making = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-pglite-making-'));
    await (await openPgliteDatabase(making)).close();
    await fs.rm(path.join(making, LOCK_FILE), { force: true });
    await fs.rename(making, folder).catch(async (error: NodeJS.ErrnoException) => {
      await fs.rm(making, { recursive: true, force: true });
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
    return folder;
  })();
  return template;
}

/**
 * A new temporary folder holding an empty initialised PGlite cluster, ready for migrate(): what
 * a test server opens instead of a bare folder.
 */
export async function freshPgliteFolder(): Promise<string> {
  const source = await emptyCluster();
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-test-'));
  await fs.cp(source, folder, { recursive: true });
  return folder;
}

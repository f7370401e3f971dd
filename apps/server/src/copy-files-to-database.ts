import { loadConfig } from './config';
import { migrate } from './db/migrate';
import { openDatabase } from './db/open-database';
import { diskFilesRoot } from './modules/files/configured-file-storage';
import { copyDiskFiles } from './modules/files/copy-disk-files';
import { DatabaseFileStorage } from './modules/files/database-file-storage';
import { LocalDiskStorage } from './modules/files/file-storage';

/**
 * One-shot command (`npm run files:to-database`): copies the files this node kept under
 * DATA_DIR/files into the database named by DATABASE_URL (docs/scaling.md). Run it on every
 * node that stored files on its disk, with the same settings as the server; it can run again.
 */
async function main() {
  const config = loadConfig();
  const root = diskFilesRoot(config);
  const db = await openDatabase(config);
  try {
    await migrate(db);
    const { copied, present } = await copyDiskFiles(
      new LocalDiskStorage(root),
      DatabaseFileStorage.over(db),
    );
    console.log(
      `${root}: ${copied} file(s) copied into the database, ${present} already there.` +
        (config.fileStorage === 'database'
          ? ''
          : ' FILE_STORAGE is "disk" here: set it to "database" (or DATABASE_URL) for the server to read them.'),
    );
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error('The files could not be copied:', error);
  process.exit(1);
});

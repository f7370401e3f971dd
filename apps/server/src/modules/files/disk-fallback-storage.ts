import type { Readable } from 'node:stream';
import type { FileMeta, FileStorage } from './file-storage';

/**
 * The database storage over what a node kept on its disk before (FILE_STORAGE=database on a
 * deployment that stored files under DATA_DIR/files): new files go to the database; a key the
 * database does not hold is looked for on this node's disk, so an upgrade serves the old files
 * at once from the node that has them, until `npm run files:to-database` has copied them for
 * every node. Removal removes both.
 */
export class DiskFallbackStorage implements FileStorage {
  constructor(
    private readonly primary: FileStorage,
    private readonly disk: FileStorage,
  ) {}

  put(content: Buffer | Readable, meta: FileMeta): Promise<string> {
    return this.primary.put(content, meta);
  }

  async get(key: string): Promise<Readable | undefined> {
    return (await this.primary.get(key)) ?? this.disk.get(key);
  }

  async remove(key: string): Promise<void> {
    await this.primary.remove(key);
    await this.disk.remove(key);
  }
}

import type { DatabaseFileStorage } from './database-file-storage';
import type { LocalDiskStorage } from './file-storage';
import { HEAD_BYTES } from './upload-policy';
import { imageTypeOf } from './image-type';

/**
 * Copies every file of a node's disk storage into the database storage under the same key, so
 * the rows that hold those keys find their bytes after FILE_STORAGE becomes `database` (docs/
 * scaling.md). Files already there are left alone: it can run again, and on every node that kept
 * files of its own. The disk files stay (remove DATA_DIR/files once every node has copied).
 */
export async function copyDiskFiles(
  disk: LocalDiskStorage,
  database: DatabaseFileStorage,
): Promise<{ copied: number; present: number }> {
  let copied = 0;
  let present = 0;
  for await (const key of disk.keys()) {
    if (await database.has(key)) {
      present += 1;
      continue;
    }
    // The disk keeps no type: an image's comes from its bytes, anything else is plain bytes
    // (nothing serves the stored type: each row that holds a key has its own).
    const head = await firstBytes(disk, key);
    if (head === undefined) continue; // removed meanwhile
    const contentType = imageTypeOf(head) ?? 'application/octet-stream';
    const stream = await disk.get(key);
    if (!stream) continue;
    await database.putAt(key, stream, { contentType });
    copied += 1;
  }
  return { copied, present };
}

async function firstBytes(disk: LocalDiskStorage, key: string): Promise<Buffer | undefined> {
  const stream = await disk.get(key);
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    length += (chunk as Buffer).length;
    if (length >= HEAD_BYTES) break;
  }
  stream.destroy();
  return Buffer.concat(chunks).subarray(0, HEAD_BYTES);
}

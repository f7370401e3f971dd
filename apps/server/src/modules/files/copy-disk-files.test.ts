import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedPgliteFolder } from '@shuili/test-support/migrated-template';
import type { Database } from '../../db/database';
import { openPgliteDatabase } from '../../db/pglite-database';
import { configuredFileStorage, diskFilesRoot } from './configured-file-storage';
import { copyDiskFiles } from './copy-disk-files';
import { CHUNK_BYTES, DatabaseFileStorage } from './database-file-storage';
import { LocalDiskStorage } from './file-storage';

async function bytesOf(stream: Readable | undefined): Promise<Buffer | undefined> {
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** 1×1 PNG: the copy takes an image's type from its bytes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

describe('copying a node’s disk files into the database', () => {
  let dir: string;
  let root: string;
  let db: Database;

  beforeAll(async () => {
    dir = await migratedPgliteFolder();
    db = await openPgliteDatabase(dir);
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-copy-files-'));
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rm(root, { recursive: true, force: true });
  });

  it('copies every file under its own key once, leaves half-written ones, and can run again', async () => {
    const disk = new LocalDiskStorage(root);
    const big = Buffer.alloc(2 * CHUNK_BYTES + 7, 'b');
    const image = await disk.put(PNG, { contentType: 'image/png' });
    const document = await disk.put(big, { contentType: 'application/pdf' });
    // A put cut short on disk: never copied (its name is no key).
    await fs.mkdir(path.join(root, 'ab'), { recursive: true });
    await fs.writeFile(path.join(root, 'ab', `${'0'.repeat(32)}.part`), 'half');
    const database = DatabaseFileStorage.over(db);
    expect(await copyDiskFiles(disk, database)).toEqual({ copied: 2, present: 0 });
    expect((await bytesOf(await database.get(image)))!.equals(PNG)).toBe(true);
    expect((await bytesOf(await database.get(document)))!.equals(big)).toBe(true);
    const types = await db.systemStatement<{ key: string; content_type: string }>(
      'SELECT key, content_type FROM file_blob WHERE key = ANY($1) ORDER BY key',
      [[image, document]],
    );
    expect(Object.fromEntries(types.rows.map((row) => [row.key, row.content_type]))).toEqual({
      [image]: 'image/png',
      [document]: 'application/octet-stream',
    });
    expect(await copyDiskFiles(disk, database)).toEqual({ copied: 0, present: 2 });
  });
});

describe('the database storage over a node’s old disk files', () => {
  let dir: string;
  let dataDir: string;
  let db: Database;

  beforeAll(async () => {
    dir = await migratedPgliteFolder();
    db = await openPgliteDatabase(dir);
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shuili-fallback-files-'));
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('serves a file kept on disk before, stores new ones in the database, removes both', async () => {
    const disk = new LocalDiskStorage(diskFilesRoot({ dataDir }));
    const old = await disk.put(PNG, { contentType: 'image/png' });
    const storage = configuredFileStorage({ dataDir, fileStorage: 'database' }, db);
    expect((await bytesOf(await storage.get(old)))!.equals(PNG)).toBe(true);
    const fresh = await storage.put(Buffer.from('new'), { contentType: 'text/plain' });
    expect(await disk.get(fresh)).toBeUndefined();
    expect(await DatabaseFileStorage.over(db).has(fresh)).toBe(true);
    expect((await bytesOf(await storage.get(fresh)))!.toString()).toBe('new');
    await storage.remove(old);
    await storage.remove(fresh);
    expect(await storage.get(old)).toBeUndefined();
    expect(await disk.get(old)).toBeUndefined();
    expect(await storage.get(fresh)).toBeUndefined();
  });
});

import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedPgliteFolder } from '@shuili/test-support/migrated-template';
import { BACKENDS, createTestPostgresDatabase } from '@shuili/test-support/test-server';
import type { Database } from '../../db/database';
import { openPgliteDatabase } from '../../db/pglite-database';
import { openPostgresDatabase } from '../../db/postgres-database';
import { CHUNK_BYTES, DatabaseFileStorage } from './database-file-storage';

async function bytesOf(stream: Readable | undefined): Promise<Buffer | undefined> {
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** A source that sends `bytes` in uneven pieces (as a network upload arrives), then fails. */
function piecesOf(bytes: Buffer, failAfter?: number): Readable {
  let at = 0;
  return new Readable({
    read() {
      if (failAfter !== undefined && at >= failAfter) {
        this.destroy(new Error('connection reset'));
        return;
      }
      if (at >= bytes.length) {
        this.push(null);
        return;
      }
      const piece = bytes.subarray(at, at + 1000 + (at % 70_001));
      at += piece.length;
      this.push(piece);
    },
  });
}

describe.each(BACKENDS)('DatabaseFileStorage on $backend', ({ backend, available }) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  let storage: DatabaseFileStorage;

  const count = async (table: 'file_blob' | 'file_chunk', key: string) =>
    (
      await db.systemStatement<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${table} WHERE key = $1`,
        [key],
      )
    ).rows[0]!.n;

  beforeAll(async () => {
    if (!available) return;
    if (backend === 'postgres') {
      const created = await createTestPostgresDatabase({ migrated: true });
      db = await openPostgresDatabase(created.url, 3);
      cleanup = created.drop;
    } else {
      const dir = await migratedPgliteFolder();
      db = await openPgliteDatabase(dir);
      cleanup = () => fs.rm(dir, { recursive: true, force: true });
    }
    storage = DatabaseFileStorage.over(db);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await cleanup?.();
  });

  it.skipIf(!available)(
    'stores buffers and streams under generated keys, reads and removes them',
    async () => {
      const a = await storage.put(Buffer.from('canal level log'), { contentType: 'text/plain' });
      const b = await storage.put(Readable.from([Buffer.from('gate '), Buffer.from('manual')]), {
        contentType: 'application/pdf',
      });
      const empty = await storage.put(Buffer.alloc(0), { contentType: 'text/plain' });
      expect(a).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{32}$/);
      expect(b).not.toBe(a);
      expect((await bytesOf(await storage.get(a)))!.toString()).toBe('canal level log');
      expect((await bytesOf(await storage.get(b)))!.toString()).toBe('gate manual');
      expect((await bytesOf(await storage.get(empty)))!.length).toBe(0);
      await storage.remove(a);
      expect(await storage.get(a)).toBeUndefined();
      expect(await count('file_chunk', a)).toBe(0);
      await storage.remove(a); // idempotent
      expect((await bytesOf(await storage.get(b)))!.toString()).toBe('gate manual');
    },
  );

  it.skipIf(!available)(
    'keeps a big file in chunk rows and streams it back a chunk at a time',
    async () => {
      const big = crypto.randomBytes(5 * CHUNK_BYTES + 12_345);
      const key = await storage.put(piecesOf(big), { contentType: 'application/zip' });
      expect(await count('file_chunk', key)).toBe(6);
      const longest = await db.systemStatement<{ n: number }>(
        'SELECT max(length(bytes))::int AS n FROM file_chunk WHERE key = $1',
        [key],
      );
      expect(longest.rows[0]!.n).toBe(CHUNK_BYTES);
      const stream = (await storage.get(key))!;
      const pieces: number[] = [];
      const chunks: Buffer[] = [];
      for await (const chunk of stream) {
        pieces.push((chunk as Buffer).length);
        chunks.push(chunk as Buffer);
      }
      expect(pieces.length).toBeGreaterThan(1);
      expect(Math.max(...pieces)).toBeLessThanOrEqual(CHUNK_BYTES);
      expect(Buffer.concat(chunks).equals(big)).toBe(true);
      await storage.remove(key);
    },
  );

  it.skipIf(!available)('a put whose source fails midway leaves no row behind', async () => {
    const before = (
      await db.systemStatement<{ n: number }>('SELECT count(*)::int AS n FROM file_blob')
    ).rows[0]!.n;
    const source = piecesOf(crypto.randomBytes(4 * CHUNK_BYTES), 2 * CHUNK_BYTES + 5);
    await expect(storage.put(source, { contentType: 'text/plain' })).rejects.toThrow(
      'connection reset',
    );
    const after = await db.systemStatement<{ blobs: number; chunks: number }>(
      `SELECT (SELECT count(*)::int FROM file_blob) AS blobs,
              (SELECT count(*)::int FROM file_chunk c WHERE NOT EXISTS
                 (SELECT 1 FROM file_blob b WHERE b.key = c.key AND b.size IS NOT NULL)) AS chunks`,
    );
    expect(after.rows[0]).toEqual({ blobs: before, chunks: 0 });
  });

  it.skipIf(!available)(
    'refuses what is not a key it made, and never serves an unfinished file',
    async () => {
      for (const key of [
        '../secret.txt',
        '/etc/passwd',
        "ab/' OR '1'='1",
        '',
        'AB/' + 'F'.repeat(32),
      ])
        expect(await storage.get(key)).toBeUndefined();
      await expect(
        storage.putAt('../x', Buffer.from('x'), { contentType: 'text/plain' }),
      ).rejects.toThrow();
      await storage.remove('../secret.txt');
      // A writer that died after its first chunk: the header is there, its size is not.
      const key = 'ab/' + 'ab'.repeat(16);
      await db.systemStatement(
        `INSERT INTO file_blob (key, content_type, created_at) VALUES ($1, 'text/plain', now() - interval '2 days')`,
        [key],
      );
      await db.systemStatement(`INSERT INTO file_chunk (key, seq, bytes) VALUES ($1, 0, '\\x00')`, [
        key,
      ]);
      expect(await storage.get(key)).toBeUndefined();
      expect(await storage.has(key)).toBe(false);
      // The next put of a fresh storage sweeps it.
      await DatabaseFileStorage.over(db).put(Buffer.from('x'), { contentType: 'text/plain' });
      expect(await count('file_blob', key)).toBe(0);
      expect(await count('file_chunk', key)).toBe(0);
    },
  );

  it.skipIf(!available)(
    'a file removed while it is read ends its stream with an error, not short',
    async () => {
      const key = await storage.put(crypto.randomBytes(3 * CHUNK_BYTES), {
        contentType: 'text/plain',
      });
      const stream = (await storage.get(key))!;
      const reader = stream[Symbol.asyncIterator]();
      expect((await reader.next()).done).toBe(false);
      await storage.remove(key);
      const read = async () => {
        for (;;) if ((await reader.next()).done) return;
      };
      await expect(read()).rejects.toThrow('removed while being read');
    },
  );

  it.skipIf(!available)(
    'the application role cannot read stored bytes (only the system connection)',
    async () => {
      const key = await storage.put(Buffer.from('secret'), { contentType: 'text/plain' });
      const tenant = await db.systemStatement<{ id: string }>(
        'SELECT id::text FROM tenant LIMIT 1',
      );
      const tenantId = tenant.rows[0]?.id ?? '1';
      await expect(
        db.tenant(tenantId, (sql) => sql.query('SELECT * FROM file_blob')),
      ).rejects.toThrow(/permission denied/);
      await expect(
        db.tenant(tenantId, (sql) => sql.query('SELECT * FROM file_chunk')),
      ).rejects.toThrow(/permission denied/);
      await storage.remove(key);
    },
  );
});

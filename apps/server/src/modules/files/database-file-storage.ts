import { Readable } from 'node:stream';
import type { Database, QueryResult, Sql } from '../../db/database';
import { isFileKey, newFileKey, type FileMeta, type FileStorage } from './file-storage';

/** One statement on the database, as the schema owner (file_blob has no tenant: see 030). */
type Statement = <R>(text: string, params?: unknown[]) => Promise<QueryResult<R>>;

/** Bytes per chunk row: a big file is many rows, never one value read or written whole. */
export const CHUNK_BYTES = 256 * 1024;

/** A file whose writer died mid-put (its size never set) is swept this long after it began. */
const UNFINISHED_KEPT = '1 day';
/** How often a storage sweeps those (at a put, at most this often). */
const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * Files in PostgreSQL (or PGlite) tables file_blob and file_chunk (migration 030), which every
 * node of a deployment shares. Each chunk is its own short statement, so a slow upload or
 * download never holds a connection (nor PGlite's only one) for its length; a file is served
 * only once its last chunk is in and its size set, and a put that fails removes what it wrote.
 */
export class DatabaseFileStorage implements FileStorage {
  private lastSweep = 0;

  private constructor(private readonly statement: Statement) {}

  /** Over the database's own connections (the server's storage). */
  static over(db: Database): DatabaseFileStorage {
    return new DatabaseFileStorage((text, params) => db.systemStatement(text, params));
  }

  /** Inside a transaction of the schema owner (the seed writes files beside its rows). */
  static within(sql: Sql): DatabaseFileStorage {
    return new DatabaseFileStorage((text, params) => sql.query(text, params));
  }

  put(content: Buffer | Readable, meta: FileMeta): Promise<string> {
    return this.putAt(newFileKey(), content, meta);
  }

  /** Stores bytes under a key given (copying files from disk keeps their keys). */
  async putAt(key: string, content: Buffer | Readable, meta: FileMeta): Promise<string> {
    if (!isFileKey(key)) throw new Error('not a file key');
    await this.sweep();
    await this.statement('INSERT INTO file_blob (key, content_type) VALUES ($1, $2)', [
      key,
      meta.contentType,
    ]);
    try {
      let seq = 0;
      let size = 0;
      for await (const chunk of chunksOf(content)) {
        await this.statement('INSERT INTO file_chunk (key, seq, bytes) VALUES ($1, $2, $3)', [
          key,
          seq,
          chunk,
        ]);
        seq += 1;
        size += chunk.length;
      }
      await this.statement('UPDATE file_blob SET size = $2 WHERE key = $1', [key, size]);
    } catch (error) {
      await this.remove(key).catch(() => undefined);
      throw error;
    }
    return key;
  }

  async get(key: string): Promise<Readable | undefined> {
    if (!isFileKey(key)) return undefined;
    const { rows } = await this.statement<{ size: string | number }>(
      'SELECT size FROM file_blob WHERE key = $1 AND size IS NOT NULL',
      [key],
    );
    if (!rows[0]) return undefined;
    const size = Number(rows[0].size);
    const statement = this.statement;
    let seq = 0;
    let sent = 0;
    // One chunk per read: a download holds one chunk in memory, and no connection between reads.
    return new Readable({
      async read() {
        if (sent >= size) {
          this.push(null);
          return;
        }
        try {
          const chunk = await statement<{ bytes: Uint8Array }>(
            'SELECT bytes FROM file_chunk WHERE key = $1 AND seq = $2',
            [key, seq],
          );
          const bytes = chunk.rows[0]?.bytes;
          // Removed while being read: a cut download must not look like a whole one.
          if (!bytes) throw new Error(`file ${key} was removed while being read`);
          seq += 1;
          sent += bytes.length;
          this.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        } catch (error) {
          this.destroy(error as Error);
        }
      },
    });
  }

  async remove(key: string): Promise<void> {
    if (!isFileKey(key)) return;
    // The chunks go with it (ON DELETE CASCADE).
    await this.statement('DELETE FROM file_blob WHERE key = $1', [key]);
  }

  /** Whether a finished file is stored under a key (the copy from disk skips those). */
  async has(key: string): Promise<boolean> {
    if (!isFileKey(key)) return false;
    const { rows } = await this.statement(
      'SELECT 1 FROM file_blob WHERE key = $1 AND size IS NOT NULL',
      [key],
    );
    return rows.length > 0;
  }

  /** Drops files whose writer died mid-put (a failed put removes its own at once). */
  private async sweep(): Promise<void> {
    if (Date.now() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = Date.now();
    await this.statement(
      `DELETE FROM file_blob WHERE size IS NULL AND created_at < now() - interval '${UNFINISHED_KEPT}'`,
    );
  }
}

/** The content cut into chunks of CHUNK_BYTES (the last one shorter), whatever it came in. */
async function* chunksOf(content: Buffer | Readable): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const source: AsyncIterable<unknown> = Buffer.isBuffer(content)
    ? Readable.from([content])
    : content;
  for await (const piece of source) {
    let bytes = typeof piece === 'string' ? Buffer.from(piece) : Buffer.from(piece as Uint8Array);
    while (pendingBytes + bytes.length >= CHUNK_BYTES) {
      const take = CHUNK_BYTES - pendingBytes;
      yield Buffer.concat([...pending, bytes.subarray(0, take)]);
      bytes = bytes.subarray(take);
      pending = [];
      pendingBytes = 0;
    }
    if (bytes.length > 0) {
      pending.push(bytes);
      pendingBytes += bytes.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}

import { TRACE_PHOTOS_MAX, type TracePhoto } from '@shuili/contract';
import type { Readable } from 'node:stream';
import type { Database } from '../../../db/database';
import type { AuthContext } from '../../../http/request-context';
import { fieldError, type ReceivedFile } from '../../files/device-file-receive';
import type { FileStorage } from '../../files/file-storage';

/** Whose photos: a base (farm) or a growth record, by their table's column in trace_photo. */
export type PhotoOwner = 'base' | 'growthRecord';

const OWNERS: Record<PhotoOwner, { table: string; column: string }> = {
  base: { table: 'trace_base', column: 'base_id' },
  growthRecord: { table: 'trace_growth_record', column: 'growth_record_id' },
};

interface PhotoRow {
  id: string;
  file_name: string;
  size_kb: number;
  created_at: Date;
}

const photoOf = (row: PhotoRow): TracePhoto => ({
  id: row.id,
  fileName: row.file_name,
  sizeKb: row.size_kb,
  createdAt: row.created_at.toISOString(),
});

/**
 * Photos of bases and growth records (migration 026, docs/traceability.md "Photos"): the bytes in
 * the file storage, the key on the trace_photo row (never sent out), every read and write in the
 * caller's tenant transaction, so another tenant's photo is simply not there.
 */
export class TracePhotos {
  constructor(
    private readonly db: Database,
    private readonly storage: FileStorage,
  ) {}

  /** Whether the owner exists and may take another photo: the refusal otherwise. */
  async refusal(auth: AuthContext, owner: PhotoOwner, id: string) {
    const { table, column } = OWNERS[owner];
    const { rows } = await this.db.tenant(auth, (sql) =>
      sql.query<{ photos: number }>(
        `SELECT (SELECT count(*)::int FROM trace_photo p WHERE p.${column} = o.id) AS photos
           FROM ${table} o WHERE o.id = $1`,
        [id],
      ),
    );
    if (!rows[0]) return fieldError('id', 'validation.refMissing');
    if (rows[0].photos >= TRACE_PHOTOS_MAX)
      return fieldError('id', 'trace.photo.tooMany', { max: TRACE_PHOTOS_MAX });
    return undefined;
  }

  /** Records stored bytes as a photo of the owner; throws (the caller drops the bytes) when gone. */
  async attach(
    auth: AuthContext,
    owner: PhotoOwner,
    id: string,
    file: ReceivedFile,
  ): Promise<TracePhoto> {
    const { table, column } = OWNERS[owner];
    const rows = await this.db.tenant(auth, async (sql) => {
      // Locks the owner: two uploads at once never pass the count together.
      const { rows: owners } = await sql.query<{ photos: number }>(
        `SELECT (SELECT count(*)::int FROM trace_photo p WHERE p.${column} = o.id) AS photos
           FROM ${table} o WHERE o.id = $1 FOR UPDATE`,
        [id],
      );
      if (!owners[0]) throw fieldError('id', 'validation.refMissing');
      if (owners[0].photos >= TRACE_PHOTOS_MAX)
        throw fieldError('id', 'trace.photo.tooMany', { max: TRACE_PHOTOS_MAX });
      const inserted = await sql.query<PhotoRow>(
        `INSERT INTO trace_photo (tenant_id, ${column}, file_name, content_type, size_kb,
                                  storage_key, created_by)
         SELECT o.tenant_id, o.id, $2, $3, $4, $5, $6 FROM ${table} o WHERE o.id = $1
         RETURNING id::text, file_name, size_kb, created_at`,
        [id, file.fileName, file.contentType, file.sizeKb, file.storageKey, auth.userId],
      );
      return inserted.rows;
    });
    return photoOf(rows[0]!);
  }

  async list(auth: AuthContext, owner: PhotoOwner, id: string): Promise<TracePhoto[]> {
    const { table, column } = OWNERS[owner];
    const { rows } = await this.db.tenant(auth, async (sql) => {
      const exists = await sql.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id]);
      if (exists.rows.length === 0) throw fieldError('id', 'validation.refMissing');
      return sql.query<PhotoRow>(
        `SELECT id::text, file_name, size_kb, created_at FROM trace_photo
          WHERE ${column} = $1 ORDER BY created_at, id`,
        [id],
      );
    });
    return rows.map(photoOf);
  }

  async read(
    auth: AuthContext,
    id: string,
  ): Promise<{ stream: Readable; contentType: string } | undefined> {
    const { rows } = await this.db.tenant(auth, (sql) =>
      sql.query<{ storage_key: string; content_type: string }>(
        'SELECT storage_key, content_type FROM trace_photo WHERE id = $1',
        [id],
      ),
    );
    const row = rows[0];
    if (!row) return undefined;
    const stream = await this.storage.get(row.storage_key);
    return stream ? { stream, contentType: row.content_type } : undefined;
  }

  /** Removes a photo and then its bytes; false when there is no such photo (for this tenant). */
  async remove(auth: AuthContext, id: string): Promise<boolean> {
    const { rows } = await this.db.tenant(auth, (sql) =>
      sql.query<{ storage_key: string }>(
        'DELETE FROM trace_photo WHERE id = $1 RETURNING storage_key',
        [id],
      ),
    );
    if (!rows[0]) return false;
    await this.storage.remove(rows[0].storage_key);
    return true;
  }
}

import type { Readable } from 'node:stream';
import type { Database } from '../../../db/database';
import type { AuthContext } from '../../../http/request-context';
import type { ReceivedFile } from '../../files/device-file-receive';
import type { FileStorage } from '../../files/file-storage';

/**
 * A species' picture: its bytes in the file storage, the key on the species row (never sent
 * out). A new picture replaces the old one, whose bytes go once the row points at the new.
 */
export class SpeciesPictures {
  constructor(
    private readonly db: Database,
    private readonly storage: FileStorage,
  ) {}

  async exists(auth: AuthContext, id: string): Promise<boolean> {
    const { rows } = await this.db.tenant(auth, (sql) =>
      sql.query('SELECT 1 FROM monitor_insect_species WHERE id = $1', [id]),
    );
    return rows.length > 0;
  }

  /** Points the species at stored bytes; answers false when it is gone (the caller drops them). */
  async attach(auth: AuthContext, id: string, file: ReceivedFile): Promise<boolean> {
    const previous = await this.db.tenant(auth, async (sql) => {
      const { rows } = await sql.query<{ old: string | null }>(
        `UPDATE monitor_insect_species s SET picture_key = $2, picture_at = now(),
                updated_by = $3, updated_at = now()
           FROM (SELECT id, picture_key AS old FROM monitor_insect_species WHERE id = $1 FOR UPDATE) o
          WHERE s.id = o.id RETURNING o.old`,
        [id, file.storageKey, auth.userId],
      );
      return rows[0];
    });
    if (!previous) return false;
    if (previous.old) await this.storage.remove(previous.old);
    return true;
  }

  async read(auth: AuthContext, id: string): Promise<Readable | undefined> {
    const { rows } = await this.db.tenant(auth, (sql) =>
      sql.query<{ picture_key: string | null }>(
        'SELECT picture_key FROM monitor_insect_species WHERE id = $1',
        [id],
      ),
    );
    const key = rows[0]?.picture_key;
    return key ? this.storage.get(key) : undefined;
  }
}

import type { DeskReader, DeskReaderRow } from '@shuili/contract';
import type { Sql } from '../../../db/database';

/** The card readers service desks used (migration 021), as each desk operation reports them. */
export const deskReaderRepo = {
  async seen(
    sql: Sql,
    input: {
      tenantId: string;
      reader: DeskReader;
      userId: string;
      username: string;
      operation: string;
    },
  ): Promise<void> {
    await sql.query(
      `INSERT INTO billing_desk_reader (tenant_id, serial, backend, user_id, username, last_operation)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (tenant_id, serial, backend, user_id) DO UPDATE
         SET last_operation = EXCLUDED.last_operation, username = EXCLUDED.username,
             operations = billing_desk_reader.operations + 1, last_seen_at = now()`,
      [
        input.tenantId,
        input.reader.serial,
        input.reader.backend,
        input.userId,
        input.username,
        input.operation,
      ],
    );
  },

  async list(sql: Sql): Promise<DeskReaderRow[]> {
    const { rows } = await sql.query<DeskReaderRow>(
      `SELECT serial, backend, user_id::text AS "userId", username,
              last_operation AS "lastOperation", operations::int AS operations,
              to_char(first_seen_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "firstSeenAt",
              to_char(last_seen_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "lastSeenAt"
         FROM billing_desk_reader ORDER BY last_seen_at DESC LIMIT 500`,
    );
    return rows;
  },
};

import type { TracePreviewCode } from '@shuili/contract';
import type { Sql } from '../../../db/database';
import type { PageSettingRow } from '../public/public-trace.repo';

/** The tenant's own row of trace_page_setting and the package batches a preview may use. */

export interface StoredSettingRow extends PageSettingRow {
  updated_at: Date;
}

const TENANT = `nullif(current_setting('app.tenant_id', true), '')::bigint`;

export const pageSettingRepo = {
  async get(sql: Sql): Promise<StoredSettingRow | undefined> {
    const { rows } = await sql.query<StoredSettingRow>(
      `SELECT title, color, logo, contact, sections, updated_at FROM trace_page_setting
        WHERE tenant_id = ${TENANT}`,
    );
    return rows[0];
  },

  async save(sql: Sql, setting: PageSettingRow, userId: string): Promise<void> {
    await sql.query(
      `INSERT INTO trace_page_setting (tenant_id, title, color, logo, contact, sections, updated_by)
       VALUES (${TENANT}, $1, $2, $3, $4, $5::jsonb, $6)
       ON CONFLICT (tenant_id) DO UPDATE
          SET title = EXCLUDED.title, color = EXCLUDED.color, logo = EXCLUDED.logo,
              contact = EXCLUDED.contact, sections = EXCLUDED.sections,
              updated_by = EXCLUDED.updated_by, updated_at = now()`,
      [
        setting.title,
        setting.color,
        setting.logo,
        setting.contact,
        JSON.stringify(setting.sections ?? {}),
        userId,
      ],
    );
  },

  async reset(sql: Sql): Promise<void> {
    await sql.query(`DELETE FROM trace_page_setting WHERE tenant_id = ${TENANT}`);
  },

  /** The tenant's newest package batches (row-level security keeps it to them). */
  async previewCodes(sql: Sql, limit = 20): Promise<TracePreviewCode[]> {
    const { rows } = await sql.query<{
      code: string;
      crop_name: string | null;
      lot: string | null;
      packed_at: Date;
    }>(
      `SELECT p.trace_code AS code, pt.crop_name, p.lot, p.packed_at
         FROM trace_package p
         LEFT JOIN trace_harvest h ON h.id = coalesce(p.harvest_id,
           (SELECT i.harvest_id FROM trace_process_input i WHERE i.process_id = p.process_id
             ORDER BY i.id LIMIT 1))
         LEFT JOIN trace_planting pl ON pl.id = h.planting_id
         LEFT JOIN trace_plant pt ON pt.id = pl.plant_id
        ORDER BY p.packed_at DESC, p.id DESC LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({
      code: row.code,
      cropName: row.crop_name,
      lot: row.lot,
      packedAt: row.packed_at.toISOString(),
    }));
  },

  /** A package batch of the tenant by its code, or its newest when no code is given. */
  async packageId(sql: Sql, code: string | undefined): Promise<string | undefined> {
    const { rows } = await sql.query<{ id: string }>(
      code
        ? `SELECT id::text FROM trace_package WHERE trace_code = $1`
        : `SELECT id::text FROM trace_package ORDER BY packed_at DESC, id DESC LIMIT 1`,
      code ? [code] : [],
    );
    return rows[0]?.id;
  },
};

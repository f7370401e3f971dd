import type { TraceBatch, TraceChainKind } from '@shuili/contract';
import type { Sql } from '../../../db/database';

/**
 * The resume's own reads (the chain's nodes themselves are ../trace-reads.ts, shared with the
 * public page): which batch a number names, the batches before and after it, growth records,
 * and the batches the search box offers. All in the caller's tenant transaction.
 */

export interface ChainStart {
  kind: TraceChainKind;
  id: string;
}

/** The ids of one batch's chain: what it comes from and what was made of it. */
export interface ChainIds {
  harvestIds: string[];
  processIds: string[];
  packageIds: string[];
}

export interface GrowthRow {
  id: string;
  planting_id: string;
  recorded_at: Date;
  stage: string;
  note: string | null;
}

const TABLES: Record<TraceChainKind, string> = {
  harvest: 'trace_harvest',
  process: 'trace_process',
  package: 'trace_package',
};

const ids = async (sql: Sql, text: string, params: unknown[]) =>
  (await sql.query<{ id: string }>(text, params)).rows.map((row) => row.id);

export const chainRepo = {
  /** Whether the batch exists in the tenant (row-level security hides every other's). */
  async exists(sql: Sql, start: ChainStart): Promise<boolean> {
    const { rows } = await sql.query(`SELECT 1 FROM ${TABLES[start.kind]} WHERE id = $1`, [
      start.id,
    ]);
    return rows.length > 0;
  },

  async packageByCode(sql: Sql, code: string): Promise<string | undefined> {
    return (await ids(sql, `SELECT id::text FROM trace_package WHERE trace_code = $1`, [code]))[0];
  },

  /** A harvest batch number or a process number, as typed (any letter case). */
  async byNumber(sql: Sql, number: string): Promise<ChainStart | undefined> {
    const { rows } = await sql.query<ChainStart>(
      `SELECT 'harvest' AS kind, id::text FROM trace_harvest WHERE upper(batch_no) = upper($1)
       UNION ALL
       SELECT 'process', id::text FROM trace_process WHERE upper(process_no) = upper($1)
       LIMIT 1`,
      [number],
    );
    return rows[0];
  },

  /**
   * The chain's batches: backwards to the harvests it comes from, forwards to the processes
   * and package batches made of it (a harvest's processes and what they packed, too).
   */
  async chainIds(sql: Sql, start: ChainStart): Promise<ChainIds> {
    if (start.kind === 'package') {
      const { rows } = await sql.query<{ harvest_id: string | null; process_id: string | null }>(
        `SELECT harvest_id::text, process_id::text FROM trace_package WHERE id = $1`,
        [start.id],
      );
      const pkg = rows[0];
      const processIds = pkg?.process_id ? [pkg.process_id] : [];
      const harvestIds = pkg?.harvest_id
        ? [pkg.harvest_id]
        : await ids(
            sql,
            `SELECT DISTINCT harvest_id::text AS id FROM trace_process_input
              WHERE process_id = ANY($1::bigint[])`,
            [processIds],
          );
      return { harvestIds, processIds, packageIds: [start.id] };
    }
    const processIds =
      start.kind === 'process'
        ? [start.id]
        : await ids(
            sql,
            `SELECT DISTINCT process_id::text AS id FROM trace_process_input WHERE harvest_id = $1`,
            [start.id],
          );
    const harvestIds =
      start.kind === 'harvest'
        ? [start.id]
        : await ids(
            sql,
            `SELECT DISTINCT harvest_id::text AS id FROM trace_process_input WHERE process_id = $1`,
            [start.id],
          );
    const packageIds = await ids(
      sql,
      `SELECT id::text FROM trace_package
        WHERE ($1::text = 'harvest' AND harvest_id = ANY($2::bigint[]))
           OR process_id = ANY($3::bigint[])`,
      [start.kind, harvestIds, processIds],
    );
    return { harvestIds, processIds, packageIds };
  },

  /** The inputs of the processes: which harvest batch, how much. */
  async processInputs(sql: Sql, processIds: string[]) {
    const { rows } = await sql.query<{ process_id: string; harvest_id: string; quantity: number }>(
      `SELECT process_id::text, harvest_id::text, quantity FROM trace_process_input
        WHERE process_id = ANY($1::bigint[]) ORDER BY process_id, id`,
      [processIds],
    );
    return rows;
  },

  async growthRecords(sql: Sql, plantingIds: string[]): Promise<GrowthRow[]> {
    const { rows } = await sql.query<GrowthRow>(
      `SELECT id::text, planting_id::text, recorded_at, stage, note FROM trace_growth_record
        WHERE planting_id = ANY($1::bigint[]) ORDER BY recorded_at, id`,
      [plantingIds],
    );
    return rows;
  },

  /**
   * The batches whose number (batch, process, trace code) or lot starts with `q`, any letter
   * case; the newest of every kind when `q` is blank.
   */
  async batches(sql: Sql, q: string, limit: number): Promise<TraceBatch[]> {
    const like = (text: string) => `${text.toUpperCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // A trace code is read as printed too: in groups of four, with dashes or spaces.
    const code = /^[0-9A-Za-z -]+$/.test(q) ? q.replace(/[ -]/g, '') : q;
    const { rows } = await sql.query<{
      kind: TraceChainKind;
      id: string;
      number: string;
      lot: string | null;
      product: string | null;
      at: Date;
      recalled: boolean;
    }>(
      `WITH found AS (
         SELECT 'harvest' AS kind, h.id, h.batch_no AS number, NULL::text AS lot, h.planting_id,
                h.harvested_at AS at, trace_harvest_recalled(h.id) AS recalled
           FROM trace_harvest h
          WHERE h.batch_no IS NOT NULL AND upper(h.batch_no) LIKE $1
         UNION ALL
         SELECT 'process', p.id, p.process_no, NULL,
                (SELECT pl.id FROM trace_process_input i
                   JOIN trace_harvest h ON h.id = i.harvest_id
                   JOIN trace_planting pl ON pl.id = h.planting_id
                  WHERE i.process_id = p.id ORDER BY i.id LIMIT 1),
                coalesce(p.ended_at, p.started_at), trace_process_recalled(p.id)
           FROM trace_process p
          WHERE p.process_no IS NOT NULL AND upper(p.process_no) LIKE $1
         UNION ALL
         SELECT 'package', k.id, k.trace_code, k.lot,
                coalesce(
                  (SELECT h.planting_id FROM trace_harvest h WHERE h.id = k.harvest_id),
                  (SELECT h.planting_id FROM trace_process_input i
                     JOIN trace_harvest h ON h.id = i.harvest_id
                    WHERE i.process_id = k.process_id ORDER BY i.id LIMIT 1)),
                k.packed_at, trace_package_recalled(k.id)
           FROM trace_package k
          WHERE k.trace_code LIKE $3 OR upper(coalesce(k.lot, '')) LIKE $1
       )
       SELECT f.kind, f.id::text, f.number, f.lot,
              pt.crop_name || ' · ' || pt.variety AS product, f.at, f.recalled
         FROM found f
         LEFT JOIN trace_planting pl ON pl.id = f.planting_id
         LEFT JOIN trace_plant pt ON pt.id = pl.plant_id
        ORDER BY f.at DESC, f.kind, f.id DESC
        LIMIT $2`,
      [like(q), limit, like(code)],
    );
    return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
  },
};

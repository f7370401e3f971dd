import { ledPagesSchema, type LedPage, type ThingModel } from '@shuili/contract';
import type { Sql } from '../../../db/database';
import { thingModelOf } from '../../iot/command/command-params';

export interface LedProgramRow {
  id: string;
  programNo: string;
  programName: string;
  width: number;
  height: number;
  pages: LedPage[];
}

/** A screen as a send needs it: its kind, whether it is there, the resolution it reported. */
export interface LedScreenRow {
  id: string;
  deviceNo: string;
  deviceName: string;
  kind: string | null;
  online: boolean;
  width: number | null;
  height: number | null;
}

/** A program's pages as stored; a row written before its first save (or broken) has none. */
export function storedPages(content: unknown): LedPage[] {
  const parsed = ledPagesSchema.safeParse(content);
  return parsed.success ? parsed.data : [];
}

/** One page with nothing on it: what a new program starts with. */
export const EMPTY_PAGES: LedPage[] = [
  { durationSeconds: 10, background: '#000000', elements: [] },
];

const PROGRAM_COLUMNS = `id::text, program_no AS "programNo", program_name AS "programName",
  width, height, content`;

/** The LED area's reads and writes (row-level security confines them to the caller's scope). */
export const ledProgramRepo = {
  async program(sql: Sql, id: string): Promise<LedProgramRow | undefined> {
    const { rows } = await sql.query<Omit<LedProgramRow, 'pages'> & { content: unknown }>(
      `SELECT ${PROGRAM_COLUMNS} FROM monitor_led_program WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) return undefined;
    const { content, ...rest } = row;
    return { ...rest, pages: storedPages(content) };
  },

  /** The programs of these codes (what screens report showing). */
  async byCodes(sql: Sql, codes: readonly string[]): Promise<LedProgramRow[]> {
    if (codes.length === 0) return [];
    const { rows } = await sql.query<Omit<LedProgramRow, 'pages'> & { content: unknown }>(
      `SELECT ${PROGRAM_COLUMNS} FROM monitor_led_program WHERE program_no = ANY ($1::text[])`,
      [codes],
    );
    return rows.map(({ content, ...rest }) => ({ ...rest, pages: storedPages(content) }));
  },

  async saveContent(
    sql: Sql,
    input: { id: string; width: number; height: number; pages: LedPage[]; userId: string | null },
  ): Promise<boolean> {
    const { rows } = await sql.query(
      `UPDATE monitor_led_program
          SET width = $2, height = $3, content = $4::jsonb, updated_at = now(), updated_by = $5
        WHERE id = $1 RETURNING id`,
      [input.id, input.width, input.height, JSON.stringify(input.pages), input.userId],
    );
    return rows.length > 0;
  },

  /** A copy under a free code (`<code>-2`, `-3` ...) and the name with its suffix; its id. */
  async copy(
    sql: Sql,
    input: { id: string; tenantId: string; nameSuffix: string; userId: string | null },
  ): Promise<string | undefined> {
    const { rows } = await sql.query<{ id: string }>(
      `WITH source AS (SELECT * FROM monitor_led_program WHERE id = $1),
            code AS (
              SELECT left(s.program_no, 28) || '-' || n AS program_no
                FROM source s, generate_series(2, 999) n
               WHERE NOT EXISTS (SELECT 1 FROM monitor_led_program o
                                  WHERE o.tenant_id = $2 AND o.program_no = left(s.program_no, 28) || '-' || n)
               ORDER BY n LIMIT 1)
       INSERT INTO monitor_led_program (tenant_id, program_no, program_name, width, height, content,
                                        remark, status, created_by, updated_by)
       SELECT $2, code.program_no, left(s.program_name || $3, 64), s.width, s.height, s.content,
              s.remark, s.status, $4, $4
         FROM source s, code
       RETURNING id::text`,
      [input.id, input.tenantId, input.nameSuffix, input.userId],
    );
    return rows[0]?.id;
  },

  /** The devices live values are bound to, with their thing models (those the caller sees). */
  async devices(
    sql: Sql,
    ids: readonly string[],
  ): Promise<Map<string, { deviceName: string; thingModel: ThingModel }>> {
    if (ids.length === 0) return new Map();
    const { rows } = await sql.query<{ id: string; device_name: string; thing_model: unknown }>(
      `SELECT d.id::text, d.device_name, p.thing_model
         FROM iot_device d LEFT JOIN iot_product p ON p.id = d.product_id
        WHERE d.id = ANY ($1::bigint[])`,
      [ids],
    );
    return new Map(
      rows.map((row) => [
        row.id,
        { deviceName: row.device_name, thingModel: thingModelOf(row.thing_model) },
      ]),
    );
  },

  /** Which of these device files are images the caller may see. */
  async images(sql: Sql, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { rows } = await sql.query<{ id: string }>(
      `SELECT id::text FROM iot_device_file
        WHERE id = ANY ($1::bigint[]) AND content_type LIKE 'image/%'`,
      [ids],
    );
    return new Set(rows.map((row) => row.id));
  },

  async screens(sql: Sql, ids: readonly string[]): Promise<LedScreenRow[]> {
    const { rows } = await sql.query<LedScreenRow>(
      `SELECT d.id::text, d.device_no AS "deviceNo", d.device_name AS "deviceName",
              p.device_kind AS kind, coalesce(d.online, false) AS online,
              (SELECT l.value FROM iot_telemetry_latest l
                WHERE l.tenant_id = d.tenant_id AND l.device_id = d.id AND l.key = 'width') AS width,
              (SELECT l.value FROM iot_telemetry_latest l
                WHERE l.tenant_id = d.tenant_id AND l.device_id = d.id AND l.key = 'height') AS height
         FROM iot_device d LEFT JOIN iot_product p ON p.id = d.product_id
        WHERE d.id = ANY ($1::bigint[])`,
      [ids],
    );
    return rows;
  },

  /** The latest numeric values of `<deviceId>.<property>` keys (those with a reading). */
  async latest(sql: Sql, keys: readonly string[]): Promise<Record<string, number>> {
    if (keys.length === 0) return {};
    const pairs = keys.map((key) => {
      const dot = key.indexOf('.');
      return [key.slice(0, dot), key.slice(dot + 1)] as const;
    });
    const { rows } = await sql.query<{ device_id: string; key: string; value: number }>(
      `SELECT l.device_id::text, l.key, l.value
         FROM iot_telemetry_latest l
         JOIN unnest($1::bigint[], $2::text[]) AS w(device_id, key)
           ON l.device_id = w.device_id AND l.key = w.key
        WHERE l.value IS NOT NULL`,
      [pairs.map((pair) => pair[0]), pairs.map((pair) => pair[1])],
    );
    return Object.fromEntries(rows.map((row) => [`${row.device_id}.${row.key}`, row.value]));
  },
};

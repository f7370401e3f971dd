import type { Sql } from '../../db/database';
import { loadChinaRegions, type ChinaRegionType } from './china-regions';

const LEVELS: ChinaRegionType[] = ['province', 'city', 'county'];

// One statement per level keeps parents committed to the table before their children arrive,
// and thousands of rows travel as five array parameters instead of thousands of statements.
// ON CONFLICT lets a node that raced past the emptiness check add nothing instead of failing.
const INSERT_LEVEL = `
  WITH inserted AS (
    INSERT INTO sys_region (region_code, region_name, region_type, region_parent, region_sequence)
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[])
    ON CONFLICT (region_code) DO NOTHING
    RETURNING 1
  )
  SELECT count(*)::int AS n FROM inserted`;

/**
 * Fills sys_region with China's provinces, cities and counties unless it already holds a
 * province (a seeded or hand-kept table is left alone); answers how many rows it inserted.
 */
export async function seedRegions(sql: Sql): Promise<number> {
  const seeded = await sql.query(`SELECT 1 FROM sys_region WHERE region_type = 'province' LIMIT 1`);
  if (seeded.rows.length > 0) return 0;

  const regions = loadChinaRegions();
  let inserted = 0;
  for (const level of LEVELS) {
    const batch = regions.filter((region) => region.type === level);
    const result = await sql.query<{ n: number }>(INSERT_LEVEL, [
      batch.map((region) => region.code),
      batch.map((region) => region.name),
      batch.map((region) => region.type),
      batch.map((region) => region.parentCode),
      batch.map((region) => region.sequence),
    ]);
    inserted += result.rows[0]?.n ?? 0;
  }
  return inserted;
}

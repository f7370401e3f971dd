import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../db/database';
import { openPostgresDatabase } from '../../db/postgres-database';
import { createTestPostgresDatabase, TEST_DATABASE_URL } from '@shuili/test-support/test-server';
import { loadChinaRegions } from './china-regions';
import { seedRegions } from './region-seed';

// The table as the region migration creates it; copied so this module is tested on its own.
const DDL = `
  CREATE TABLE sys_region (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    region_code text NOT NULL UNIQUE,
    region_name text NOT NULL,
    region_type text NOT NULL,
    region_parent text REFERENCES sys_region(region_code) ON DELETE RESTRICT,
    region_sequence integer NOT NULL DEFAULT 0,
    status smallint NOT NULL DEFAULT 1,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`;

const expected = loadChinaRegions();

async function countsByType(sql: Sql): Promise<Record<string, number>> {
  const result = await sql.query<{ region_type: string; n: number }>(
    'SELECT region_type, count(*)::int AS n FROM sys_region GROUP BY region_type',
  );
  return Object.fromEntries(result.rows.map((row) => [row.region_type, row.n]));
}

function expectedCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const region of expected) counts[region.type] = (counts[region.type] ?? 0) + 1;
  return counts;
}

describe('seedRegions on PGlite', () => {
  let pglite: PGlite;
  let sql: Sql;

  beforeAll(async () => {
    pglite = new PGlite();
    await pglite.exec(DDL);
    sql = {
      query: (text, params) => pglite.query(text, params),
      exec: async (script) => {
        await pglite.exec(script);
      },
    };
  });

  afterAll(async () => {
    await pglite.close();
  });

  it('inserts every region once, in well under two seconds', async () => {
    const started = performance.now();
    const inserted = await seedRegions(sql);
    const elapsed = performance.now() - started;
    console.info(`seeded ${inserted} regions on PGlite in ${Math.round(elapsed)} ms`);

    expect(inserted).toBe(expected.length);
    expect(elapsed).toBeLessThan(2000);
    expect(await countsByType(sql)).toEqual(expectedCounts());
    const nanshan = await sql.query<{ region_name: string; region_parent: string }>(
      `SELECT region_name, region_parent FROM sys_region WHERE region_code = '440305'`,
    );
    expect(nanshan.rows).toEqual([{ region_name: '南山区', region_parent: '440300' }]);
    const provinces = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sys_region WHERE region_type = 'province' AND region_parent IS NULL`,
    );
    expect(provinces.rows[0]?.n).toBe(34);
  });

  it('inserts nothing the second time', async () => {
    expect(await seedRegions(sql)).toBe(0);
    expect(await countsByType(sql)).toEqual(expectedCounts());
  });
});

describe('seedRegions on PostgreSQL', () => {
  it.skipIf(!TEST_DATABASE_URL)(
    'inserts every region once, even when two nodes seed at the same time',
    async () => {
      const created = await createTestPostgresDatabase();
      const db = await openPostgresDatabase(created.url, 4);
      try {
        await db.system((sql) => sql.exec(DDL));
        // Both transactions find the table empty; the unique code makes the later one add nothing.
        const inserted = await Promise.all([db.system(seedRegions), db.system(seedRegions)]);
        expect(inserted[0]! + inserted[1]!).toBe(expected.length);
        expect(await db.system(countsByType)).toEqual(expectedCounts());
        expect(await db.system(seedRegions)).toBe(0);
      } finally {
        await db.close();
        await created.drop();
      }
    },
  );
});

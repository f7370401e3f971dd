import { paintPng, type Rgb } from '@shuili/sim';
import type { FileStorage } from '../../modules/files/file-storage';
import type { Sql } from '../database';

const SKY: Rgb = [150, 200, 235];
const SOIL: Rgb = [128, 96, 64];
const GREEN: Rgb = [72, 150, 60];
const DARK_GREEN: Rgb = [40, 110, 45];
const FILM: Rgb = [225, 232, 236];
const FRAME: Rgb = [150, 156, 160];

/** A base seen from its edge: sky, rows of crop on soil, a greenhouse's film roof on the right. */
function basePhoto(greenhouses: boolean): Buffer {
  return paintPng(120, 80, (x, y) => {
    if (greenhouses && x > 60 && y > 26 && y < 58) {
      // The arched roof: film over steel hoops every 12 px.
      const roof = 26 + Math.round(((x - 90) / 30) ** 2 * 8);
      if (y >= roof) return (x - 60) % 12 === 0 ? FRAME : FILM;
    }
    if (y < 30) return SKY;
    return (y + Math.floor(x / 6)) % 8 < 4 ? GREEN : SOIL;
  });
}

/** A crop close up at a stage: seedlings in rows, plants in leaf, flowers or fruit among them. */
function cropPhoto(stage: string): Buffer {
  const accent: Rgb | undefined =
    stage === 'flowering' ? [245, 210, 40] : stage === 'fruiting' ? [60, 130, 50] : undefined;
  const height = stage === 'seedling' ? 10 : 40;
  return paintPng(96, 72, (x, y) => {
    const stem = x % 16 === 8;
    const top = 72 - height;
    if (y < top - 6) return SKY;
    if (y >= 64) return SOIL;
    const leaf = Math.abs((x % 16) - 8) < 3 + ((y + x) % 5);
    if (accent && leaf && (x * 7 + y * 3) % 23 === 0) return accent;
    if (stem || (leaf && y >= top)) return (x + y) % 3 === 0 ? DARK_GREEN : GREEN;
    return y >= top ? SOIL : SKY;
  });
}

/**
 * Photos of the demo's bases and of some of its growth records (the first of each planting's
 * stages shown here), stored through the file storage as an upload would be, drawn in code
 * like the devices' photos (demo-png.ts). Runs after seedDemoTrace.
 */
export async function seedDemoTracePhotos(
  sql: Sql,
  tenantId: string,
  storage: FileStorage,
  userId: string | undefined,
): Promise<void> {
  const store = async (
    column: 'base_id' | 'growth_record_id',
    ownerId: string,
    fileName: string,
    bytes: Buffer,
  ) => {
    const key = await storage.put(bytes, { contentType: 'image/png' });
    await sql.query(
      `INSERT INTO trace_photo (tenant_id, ${column}, file_name, content_type, size_kb,
                                storage_key, created_by)
       VALUES ($1, $2, $3, 'image/png', $4, $5, $6)`,
      [tenantId, ownerId, fileName, Math.ceil(bytes.length / 1024), key, userId ?? null],
    );
  };
  const { rows: bases } = await sql.query<{ id: string; base_name: string }>(
    'SELECT id::text, base_name FROM trace_base WHERE tenant_id = $1 ORDER BY id',
    [tenantId],
  );
  for (const [index, base] of bases.entries()) {
    await store('base_id', base.id, `${base.base_name}全景.png`, basePhoto(index > 0));
  }
  const { rows: records } = await sql.query<{ id: string; stage: string; crop_name: string }>(
    `SELECT g.id::text, g.stage, pt.crop_name
       FROM trace_growth_record g
       JOIN trace_planting pl ON pl.id = g.planting_id
       JOIN trace_plant pt ON pt.id = pl.plant_id
      WHERE g.tenant_id = $1 AND g.stage IN ('seedling', 'flowering', 'fruiting')
      ORDER BY g.recorded_at DESC, g.id DESC LIMIT 4`,
    [tenantId],
  );
  const STAGE_NAMES: Record<string, string> = {
    seedling: '苗期',
    flowering: '花期',
    fruiting: '结果期',
  };
  for (const record of records)
    await store(
      'growth_record_id',
      record.id,
      `${record.crop_name}${STAGE_NAMES[record.stage] ?? ''}.png`,
      cropPhoto(record.stage),
    );
}

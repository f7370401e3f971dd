import { createRandom, drawCatchPhoto, drawSpeciesPortrait } from '@shuili/sim';
import type { FileStorage } from '../../modules/files/file-storage';
import type { Sql } from '../database';
import { DEMO_SPECIES } from './demo-insect-species';

const HOUR_MS = 3_600_000;
/** The nights of photos the first trap starts with, and the hours (local) it photographed. */
const NIGHTS = 4;
const NIGHT_HOURS = [21, 0, 3];
/** Photos of the first trap labelled by an operator: the newest few nights' first photos. */
const LABELLED_NIGHTS = 3;
/** The demo district's local time (Asia/Shanghai, the tenants' default time zone). */
const LOCAL_OFFSET_MS = 8 * HOUR_MS;

async function seedSpecies(
  sql: Sql,
  tenantId: string,
  storage: FileStorage,
  userId: string | null,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const species of DEMO_SPECIES) {
    const key = await storage.put(drawSpeciesPortrait(species.look), { contentType: 'image/png' });
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO monitor_insect_species (tenant_id, name_zh, name_latin, name_en, insect_order,
              host_crops, hints_zh, hints_tw, hints_en, advice_zh, advice_tw, advice_en,
              picture_key, picture_at, status, created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now(), 1, $14, $14)
       RETURNING id::text`,
      [
        tenantId,
        species.nameZh,
        species.nameLatin,
        species.nameEn,
        species.order,
        species.hosts,
        species.hints.zh,
        species.hints.tw,
        species.hints.en,
        species.advice.zh,
        species.advice.tw,
        species.advice.en,
        key,
        userId,
      ],
    );
    ids.set(species.look, rows[0]!.id);
  }
  return ids;
}

/** The instants of a trap's night photos over the last `nights` nights, oldest first. */
function photoTimes(nights: number, now: number): number[] {
  const localMidnight = Math.floor((now + LOCAL_OFFSET_MS) / (24 * HOUR_MS)) * 24 * HOUR_MS;
  const times: number[] = [];
  for (let night = nights; night >= 1; night--)
    for (const hour of NIGHT_HOURS) {
      // Evening hours belong to the night's first day, the small hours to the next.
      const day = localMidnight - (hour >= 12 ? night : night - 1) * 24 * HOUR_MS;
      const time = day + hour * HOUR_MS - LOCAL_OFFSET_MS;
      if (time < now) times.push(time);
    }
  return times.sort((a, b) => a - b);
}

/**
 * The insect area's demo: the species catalogue with its pictures, and the demo traps' tray
 * photos of the past nights (drawn by the simulator's camera, so they look like what the running
 * traps upload), the first trap's recent ones labelled with the species counts they show. The
 * first trap has a few nights; the others last night's photos (the seed stays quick).
 */
export async function seedDemoInsects(
  sql: Sql,
  tenantId: string,
  storage: FileStorage,
  userId: string | undefined,
): Promise<void> {
  const species = await seedSpecies(sql, tenantId, storage, userId ?? null);
  const { rows: traps } = await sql.query<{ id: string; device_no: string }>(
    `SELECT d.id::text, d.device_no FROM iot_device d JOIN iot_product p ON p.id = d.product_id
      WHERE d.tenant_id = $1 AND p.device_kind = 'insect_trap' ORDER BY d.device_no`,
    [tenantId],
  );
  const random = createRandom(19);
  const now = Date.now();
  for (const [index, trap] of traps.entries()) {
    const times = photoTimes(index === 0 ? NIGHTS : 1, now);
    const labelFrom = times.length - LABELLED_NIGHTS * NIGHT_HOURS.length;
    for (const [n, time] of times.entries()) {
      // Warmer evenings catch more than the small hours.
      const hour = new Date(time + LOCAL_OFFSET_MS).getUTCHours();
      const photo = drawCatchPhoto(random, random.between(8, hour >= 12 ? 45 : 20));
      const key = await storage.put(photo.png, { contentType: 'image/png' });
      const stamp = new Date(time)
        .toISOString()
        .slice(0, 16)
        .replace(/[-:]/g, '')
        .replace('T', '-');
      const { rows } = await sql.query<{ id: string }>(
        `INSERT INTO iot_device_file (tenant_id, device_id, file_kind, original_name, content_type,
                                      size_kb, storage_key, created_at, updated_at)
         VALUES ($1, $2, 'image', $3, 'image/png', $4, $5, $6, $6) RETURNING id::text`,
        [
          tenantId,
          trap.id,
          `${trap.device_no}-${stamp}.png`,
          Math.ceil(photo.png.length / 1024),
          key,
          new Date(time),
        ],
      );
      // The midnight photo of each recent night: today has one labelled too.
      const labelled = index === 0 && n >= labelFrom && (n - labelFrom) % NIGHT_HOURS.length === 1;
      if (!labelled) continue;
      for (const [look, count] of Object.entries(photo.counts))
        await sql.query(
          `INSERT INTO monitor_insect_photo_label (tenant_id, file_id, device_id, species_id,
                                                  insect_count, created_by, updated_by)
           VALUES ($1, $2, $3, $4, $5, $6, $6)`,
          [tenantId, rows[0]!.id, trap.id, species.get(look), count, userId ?? null],
        );
    }
  }
}

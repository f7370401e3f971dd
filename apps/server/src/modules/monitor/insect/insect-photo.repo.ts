import type {
  LatestTrapPhoto,
  PhotoLabel,
  SpeciesTotal,
  TrapPhoto,
  TrapPhotoDay,
} from '@shuili/contract';
import type { Sql } from '../../../db/database';

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** A trap's photos are its images; only insect traps have a gallery. Run inside db.tenant (RLS). */
export const insectPhotoRepo = {
  async isTrap(sql: Sql, deviceId: string): Promise<boolean> {
    const { rows } = await sql.query(
      `SELECT 1 FROM iot_device d JOIN iot_product p ON p.id = d.product_id
        WHERE d.id = $1 AND p.device_kind = 'insect_trap'`,
      [deviceId],
    );
    return rows.length > 0;
  },

  /** The photos of [start, end) of one trap, oldest first, with their labels. */
  async photos(sql: Sql, deviceId: string, start: Date, end: Date): Promise<TrapPhoto[]> {
    const { rows } = await sql.query<Omit<TrapPhoto, 'labels'>>(
      `SELECT id::text AS id, original_name AS "fileName", size_kb AS "sizeKb",
              to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS "takenAt"
         FROM iot_device_file
        WHERE device_id = $1 AND file_kind = 'image' AND created_at >= $2 AND created_at < $3
        ORDER BY created_at, id`,
      [deviceId, start, end],
    );
    const labels = await this.labels(
      sql,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({ ...row, labels: labels.get(row.id) ?? [] }));
  },

  async labels(sql: Sql, fileIds: string[]): Promise<Map<string, PhotoLabel[]>> {
    const byFile = new Map<string, PhotoLabel[]>();
    if (fileIds.length === 0) return byFile;
    const { rows } = await sql.query<PhotoLabel & { fileId: string }>(
      `SELECT l.id::text AS id, l.file_id::text AS "fileId", l.species_id::text AS "speciesId",
              s.name_zh AS "nameZh", s.name_latin AS "nameLatin", l.insect_count AS "insectCount"
         FROM monitor_insect_photo_label l
         JOIN monitor_insect_species s ON s.id = l.species_id
        WHERE l.file_id = ANY($1::bigint[])
        ORDER BY l.insect_count DESC, s.name_zh`,
      [fileIds],
    );
    for (const { fileId, ...label } of rows)
      byFile.set(fileId, [...(byFile.get(fileId) ?? []), label]);
    return byFile;
  },

  /** The labelled counts of the photos of [start, end) summed per species, most first. */
  async speciesTotals(sql: Sql, deviceId: string, start: Date, end: Date): Promise<SpeciesTotal[]> {
    const { rows } = await sql.query<SpeciesTotal>(
      `SELECT s.id::text AS "speciesId", s.name_zh AS "nameZh", s.name_latin AS "nameLatin",
              sum(l.insect_count)::int AS "insectCount"
         FROM monitor_insect_photo_label l
         JOIN iot_device_file f ON f.id = l.file_id
         JOIN monitor_insect_species s ON s.id = l.species_id
        WHERE f.device_id = $1 AND f.created_at >= $2 AND f.created_at < $3
        GROUP BY s.id, s.name_zh, s.name_latin
        ORDER BY 4 DESC, s.name_zh`,
      [deviceId, start, end],
    );
    return rows;
  },

  /** The days of the time zone a trap has photos on, newest first (the last 366 at most). */
  async days(sql: Sql, deviceId: string, timeZone: string): Promise<TrapPhotoDay[]> {
    const { rows } = await sql.query<TrapPhotoDay>(
      `SELECT to_char(created_at AT TIME ZONE $2, 'YYYY-MM-DD') AS day, count(*)::int AS photos
         FROM iot_device_file
        WHERE device_id = $1 AND file_kind = 'image'
        GROUP BY 1 ORDER BY 1 DESC LIMIT 366`,
      [deviceId, timeZone],
    );
    return rows;
  },

  /** The newest photo of each trap among some devices (the ones the caller may see). */
  async latest(sql: Sql, deviceIds: string[]): Promise<LatestTrapPhoto[]> {
    const { rows } = await sql.query<LatestTrapPhoto>(
      `SELECT d.id::text AS "deviceId", f.id::text AS id,
              to_char(f.created_at AT TIME ZONE 'UTC', ${ISO}) AS "takenAt"
         FROM iot_device d
         CROSS JOIN LATERAL (
           SELECT id, created_at FROM iot_device_file
            WHERE device_id = d.id AND file_kind = 'image'
            ORDER BY created_at DESC, id DESC LIMIT 1) f
        WHERE d.id = ANY($1::bigint[])`,
      [deviceIds],
    );
    return rows;
  },

  /** A photo the caller may see, with whether its device is an insect trap. */
  async photoOf(
    sql: Sql,
    fileId: string,
  ): Promise<{ deviceId: string; trapImage: boolean } | undefined> {
    const { rows } = await sql.query<{ deviceId: string; trapImage: boolean }>(
      `SELECT f.device_id::text AS "deviceId",
              (f.file_kind = 'image' AND p.device_kind = 'insect_trap') AS "trapImage"
         FROM iot_device_file f
         JOIN iot_device d ON d.id = f.device_id
         JOIN iot_product p ON p.id = d.product_id
        WHERE f.id = $1`,
      [fileId],
    );
    return rows[0];
  },
};

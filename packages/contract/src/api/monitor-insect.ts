import { z } from 'zod';
import { INSECT_PATH } from '../entities/monitor/insect-targets';

/** The insect area's calls besides its species' and labels' generic ones. */
export const INSECT_CALLS = {
  /** GET: a trap's photos of one day with their species counts, and the day's sums. */
  photos: `${INSECT_PATH}/queryTrapPhotos`,
  /** GET: the days a trap has photos on, newest first (the gallery's day picker). */
  photoDays: `${INSECT_PATH}/queryTrapPhotoDays`,
  /** GET: the newest photo of each of some traps (their cards). */
  latestPhotos: `${INSECT_PATH}/queryLatestTrapPhotos`,
  /** GET: a species' picture (bytes). */
  speciesPicture: `${INSECT_PATH}/downloadSpeciesPicture`,
  /** POST: a species' picture, raw bytes as application/octet-stream. */
  uploadSpeciesPicture: `${INSECT_PATH}/uploadSpeciesPicture`,
} as const;

const invalid = { error: 'validation.invalid' };
const id = z.string().regex(/^\d{1,18}$/, invalid);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, invalid);

/** GET queryTrapPhotos: one day of the tenant's time zone (today by default). */
export const trapPhotosQuerySchema = z.object({ deviceId: id, day: day.optional() });

export const photoLabelSchema = z.object({
  id: z.string(),
  speciesId: z.string(),
  nameZh: z.string(),
  nameLatin: z.string(),
  insectCount: z.number(),
});
export type PhotoLabel = z.infer<typeof photoLabelSchema>;

export const trapPhotoSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  sizeKb: z.number(),
  takenAt: z.string(),
  labels: z.array(photoLabelSchema),
});
export type TrapPhoto = z.infer<typeof trapPhotoSchema>;

export const speciesTotalSchema = z.object({
  speciesId: z.string(),
  nameZh: z.string(),
  nameLatin: z.string(),
  insectCount: z.number(),
});
export type SpeciesTotal = z.infer<typeof speciesTotalSchema>;

export const trapPhotosSchema = z.object({
  day: z.string(),
  timeZone: z.string(),
  photos: z.array(trapPhotoSchema),
  /** The labelled counts of the day summed per species, most first. */
  speciesTotals: z.array(speciesTotalSchema),
});
export type TrapPhotos = z.infer<typeof trapPhotosSchema>;

/** GET queryTrapPhotoDays. */
export const trapPhotoDaysQuerySchema = z.object({ deviceId: id });
export const trapPhotoDaySchema = z.object({ day: z.string(), photos: z.number() });
export type TrapPhotoDay = z.infer<typeof trapPhotoDaySchema>;

/** GET queryLatestTrapPhotos?deviceIds=1,2,3 (at most a page of cards). */
export const latestTrapPhotosQuerySchema = z.object({
  deviceIds: z
    .string()
    .max(2000)
    .transform((text) => text.split(',').filter(Boolean))
    .pipe(z.array(id).min(1, invalid).max(100, invalid)),
});
export const latestTrapPhotoSchema = z.object({
  deviceId: z.string(),
  id: z.string(),
  takenAt: z.string(),
});
export type LatestTrapPhoto = z.infer<typeof latestTrapPhotoSchema>;

/** GET downloadSpeciesPicture?id= ; POST uploadSpeciesPicture?id=&fileName= (raw bytes). */
export const speciesPictureQuerySchema = z.object({ id });
export const speciesPictureUploadSchema = z.object({
  id,
  fileName: z.string().trim().min(1, { error: 'validation.required' }).max(255),
});

import type { LatestTrapPhoto, TrapPhotoDay, TrapPhotos } from '@shuili/contract';
import type { Database, Sql } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import type { AuthContext } from '../../../http/request-context';
import { tenantTimeZone } from '../../iot/telemetry/telemetry-settings';
import { insectPhotoRepo } from './insect-photo.repo';

/** The date (YYYY-MM-DD) of an instant in a time zone. */
export function dayIn(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
}

/** The instant a day of a time zone starts at (midnight there; DST-safe to the minute). */
export function dayStart(day: string, timeZone: string): Date {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  // The zone's offset at that moment, read back from how it writes the time.
  const offsetAt = (instant: number) => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    }).formatToParts(instant);
    const part = (type: string) => Number(parts.find((one) => one.type === type)!.value);
    const local = Date.UTC(
      part('year'),
      part('month') - 1,
      part('day'),
      part('hour'),
      part('minute'),
    );
    return local - Math.floor(instant / 60_000) * 60_000;
  };
  const guess = utcMidnight - offsetAt(utcMidnight);
  return new Date(utcMidnight - offsetAt(guess));
}

const DAY_MS = 86_400_000;

/** A trap's gallery: its photos per day of the tenant's time zone, labelled by species. */
export class TrapGallery {
  constructor(private readonly db: Database) {}

  private async trap<T>(
    auth: AuthContext,
    deviceId: string,
    work: (sql: Sql, timeZone: string) => Promise<T>,
  ): Promise<T> {
    return this.db.tenant(auth, async (sql) => {
      if (!(await insectPhotoRepo.isTrap(sql, deviceId)))
        throw new AppError(400, 'iot.deviceNotFound', {
          fields: [{ field: 'deviceId', key: 'iot.deviceNotFound' }],
        });
      return work(sql, await tenantTimeZone(sql));
    });
  }

  photos(auth: AuthContext, deviceId: string, day: string | undefined): Promise<TrapPhotos> {
    return this.trap(auth, deviceId, async (sql, timeZone) => {
      const date = day ?? dayIn(new Date(), timeZone);
      if (Number.isNaN(Date.parse(`${date}T00:00:00Z`)))
        throw new AppError(400, 'validation.invalid', {
          fields: [{ field: 'day', key: 'validation.invalid' }],
        });
      const start = dayStart(date, timeZone);
      const next = dayIn(new Date(start.getTime() + DAY_MS + 3 * 3_600_000), timeZone);
      const end = dayStart(next, timeZone);
      return {
        day: date,
        timeZone,
        photos: await insectPhotoRepo.photos(sql, deviceId, start, end),
        speciesTotals: await insectPhotoRepo.speciesTotals(sql, deviceId, start, end),
      };
    });
  }

  days(auth: AuthContext, deviceId: string): Promise<TrapPhotoDay[]> {
    return this.trap(auth, deviceId, (sql, timeZone) =>
      insectPhotoRepo.days(sql, deviceId, timeZone),
    );
  }

  latest(auth: AuthContext, deviceIds: string[]): Promise<LatestTrapPhoto[]> {
    return this.db.tenant(auth, (sql) => insectPhotoRepo.latest(sql, deviceIds));
  }
}

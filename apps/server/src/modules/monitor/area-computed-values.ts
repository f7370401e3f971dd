import { RAIN_WINDOWS, rainSumKey, rainWindowKey } from '@shuili/contract';
import type { Sql } from '../../db/database';
import { floodStatusAt } from './flood/flood-status';

/** Values the server computes for a page of an area's devices: key → value, by device id. */
export type ComputedValues = (
  sql: Sql,
  deviceIds: string[],
  at: Date,
) => Promise<Map<string, Record<string, number>>>;

/**
 * Values of an area's lists the devices do not report but the server computes from their
 * stored readings at the time of reading (tenant context), by area code: a flood station's
 * rolling rain over each window. They take the place of anything stored under those keys.
 */
export const AREA_COMPUTED_VALUES: Partial<Record<string, ComputedValues>> = {
  floodMonitor: async (sql, deviceIds, at) =>
    new Map(
      (await floodStatusAt(sql, deviceIds, at)).map((status) => [
        status.deviceId,
        Object.fromEntries(
          RAIN_WINDOWS.map((hours) => [rainSumKey(hours), status.sums[rainWindowKey(hours)]]),
        ),
      ]),
    ),
};

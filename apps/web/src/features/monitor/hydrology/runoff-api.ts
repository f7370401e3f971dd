import { runoffEventEntity, type AreaReport } from '@shuili/contract';
import { resourceApi } from '../../../resource/resource-api';
import { reportApi } from '../report/report-api';

/** A runoff event as the server lists it (entities/monitor/runoff-event.entity.ts). */
export interface RunoffEventRow {
  id: string;
  deviceId: string;
  startAt: string;
  endAt: string | null;
  ongoing: boolean;
  rainfall: number | null;
  runoffVolume: number | null;
  runoffDepth: number | null;
  runoffCoefficient: number | null;
  sedimentYield: number | null;
  peakFlow: number | null;
}

/** A plot's events, newest first. */
export async function plotEvents(deviceId: string, pageSize: number, signal?: AbortSignal) {
  const page = await resourceApi(runoffEventEntity).query(
    { deviceId, currentPage: '1', pageSize: String(pageSize), sort: 'startAt', order: 'descend' },
    signal,
  );
  return page.list as unknown as RunoffEventRow[];
}

/** A device's readings (raw) of some keys over a range, through the area's data report. */
export function rawReadings(
  area: string,
  deviceId: string,
  keys: readonly string[],
  start: number,
  end: number,
  signal?: AbortSignal,
): Promise<AreaReport> {
  return reportApi.report(
    {
      area,
      deviceIds: deviceId,
      keys: keys.join(','),
      start: new Date(start).toISOString(),
      end: new Date(end).toISOString(),
      bucket: 'raw',
    },
    signal,
  );
}

import {
  entityCalls,
  iotDeviceEntity,
  MONITOR_REGION_CALLS,
  parseValveMember,
  valveGroupEntity,
  type AreaRegion,
  type PageResult,
} from '@shuili/contract';
import { http } from '../../../lib/http';

/** A valve group as regional management shows it: its zone and member channels. */
export interface RegionValveGroup {
  id: string;
  groupName: string;
  zoneId: string | null;
  status: number;
  members: Array<{ deviceId: string; channel: number }>;
}

/** Groups read at once: a district has tens to hundreds. */
const GROUPS_PAGE = 1000;

export const regionApi = {
  region: (area: string, signal?: AbortSignal) =>
    http.get<AreaRegion>(MONITOR_REGION_CALLS.query, { params: { area }, signal }),
  /**
   * The tenant's valve groups (scheduler's ValveGroup entity), or none for a role that may not
   * read them: the zones and devices are shown all the same.
   */
  async valveGroups(signal?: AbortSignal): Promise<RegionValveGroup[]> {
    const page = await http
      .get<PageResult<Record<string, unknown>>>(entityCalls(valveGroupEntity).query, {
        params: { currentPage: 1, pageSize: GROUPS_PAGE },
        signal,
        silent: true,
      })
      .catch(() => undefined);
    return (page?.list ?? []).map((row) => ({
      id: String(row.id),
      groupName: String(row.groupName ?? ''),
      zoneId: row.zoneId ? String(row.zoneId as string) : null,
      status: Number(row.status ?? 1),
      members: (Array.isArray(row.members) ? (row.members as string[]) : []).flatMap(
        (value) => parseValveMember(value) ?? [],
      ),
    }));
  },
  /** Moves a device to another zone: an update of its zoneId (the device list's own call). */
  moveDevice: (id: string, zoneId: string | null) =>
    http.put<unknown>(entityCalls(iotDeviceEntity).update, { data: { id, zoneId } }),
};

import { areaOf, type AreaRegion } from '@shuili/contract';
import { confinesDevices, type Database, type TenantScope } from '../../../db/database';
import { areaRegionRepo } from './area-region.repo';

/**
 * Regional management: the zones the area's devices serve and the devices in them. A caller
 * who sees the whole tenant gets every enabled zone (a new zone waits for its devices); a
 * confined one the zones of their scope and of the devices they see, with the ancestors that
 * hold them (so the tree stays whole), never another zone's name.
 */
export class AreaRegionService {
  constructor(private readonly db: Database) {}

  region(scope: TenantScope, areaCode: string): Promise<AreaRegion> {
    const area = areaOf(areaCode)!;
    return this.db.tenant(scope, async (sql) => {
      const devices = await areaRegionRepo.devices(sql, area.kinds);
      const zones = await areaRegionRepo.zones(sql);
      if (!confinesDevices(scope)) return { zones, devices };
      const byId = new Map(zones.map((zone) => [zone.id, zone]));
      const keep = new Set<string>();
      const own = [...(scope.zoneIds ?? []), ...devices.map((device) => device.zoneId)];
      for (const id of own) {
        let at = id ? byId.get(id) : undefined;
        while (at && !keep.has(at.id)) {
          keep.add(at.id);
          at = at.parentId ? byId.get(at.parentId) : undefined;
        }
      }
      return { zones: zones.filter((zone) => keep.has(zone.id)), devices };
    });
  }
}

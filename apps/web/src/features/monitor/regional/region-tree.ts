import type { AreaRegion } from '@shuili/contract';

export type RegionDevice = AreaRegion['devices'][number];

/** Devices by state: online (connected), offline, and in fault (status other than 0). */
export interface StateCounts {
  total: number;
  online: number;
  offline: number;
  fault: number;
}

/** A zone of the tree with the area's devices in it and in every zone below it. */
export interface RegionNode {
  id: string;
  zoneName: string;
  counts: StateCounts;
  children: RegionNode[];
}

/** The key of the devices in no zone (a node of its own, after the zones). */
export const NO_ZONE = 'none';

const none = (): StateCounts => ({ total: 0, online: 0, offline: 0, fault: 0 });

export function countsOf(devices: readonly RegionDevice[]): StateCounts {
  const counts = none();
  for (const device of devices) add(counts, device);
  return counts;
}

function add(counts: StateCounts, device: RegionDevice): void {
  counts.total += 1;
  if (device.online) counts.online += 1;
  else counts.offline += 1;
  if (device.status !== 0) counts.fault += 1;
}

/**
 * The zones as a tree, each with the counts of the area's devices in it and below it; zones
 * whose parent is not in the answer are roots. Zones without a device anywhere below them are
 * kept (an empty zone is worth seeing on a regional screen).
 */
export function regionTree(region: AreaRegion): RegionNode[] {
  const nodes = new Map<string, RegionNode>();
  for (const zone of region.zones)
    nodes.set(zone.id, { id: zone.id, zoneName: zone.zoneName, counts: none(), children: [] });
  const roots: RegionNode[] = [];
  const parents = new Map<string, string | null>();
  for (const zone of region.zones) {
    const node = nodes.get(zone.id)!;
    const parent = zone.parentId ? nodes.get(zone.parentId) : undefined;
    parents.set(zone.id, parent ? zone.parentId : null);
    (parent ? parent.children : roots).push(node);
  }
  for (const device of region.devices) {
    // The device's zone and every zone above it count it (once each, whatever cycles the data has).
    const seen = new Set<string>();
    for (
      let at = device.zoneId ?? null;
      at && nodes.has(at) && !seen.has(at);
      at = parents.get(at) ?? null
    ) {
      seen.add(at);
      add(nodes.get(at)!.counts, device);
    }
  }
  return roots;
}

/** A zone's id and every zone's below it (the devices a selected zone shows). */
export function subtreeIds(node: RegionNode): Set<string> {
  const ids = new Set<string>();
  const walk = (at: RegionNode) => {
    ids.add(at.id);
    at.children.forEach(walk);
  };
  walk(node);
  return ids;
}

/** A node by id anywhere in the tree. */
export function findNode(roots: readonly RegionNode[], id: string): RegionNode | undefined {
  for (const node of roots) {
    if (node.id === id) return node;
    const below = findNode(node.children, id);
    if (below) return below;
  }
  return undefined;
}

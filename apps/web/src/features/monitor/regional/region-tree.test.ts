import type { AreaRegion } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { countsOf, findNode, regionTree, subtreeIds } from './region-tree';

const device = (id: string, zoneId: string | null, online: boolean, status = 0) => ({
  id,
  deviceNo: id,
  deviceName: id,
  zoneId,
  online,
  status,
  productName: 'P',
  deviceKind: 'irrigation_valve',
  lastSeen: null,
});

const region: AreaRegion = {
  zones: [
    { id: '1', parentId: null, zoneName: 'District', zoneCode: 'D' },
    { id: '2', parentId: '1', zoneName: 'North', zoneCode: 'N' },
    { id: '3', parentId: '1', zoneName: 'South', zoneCode: 'S' },
    { id: '4', parentId: '99', zoneName: 'Orphan', zoneCode: 'O' },
  ],
  devices: [
    device('a', '2', true),
    device('b', '2', false, 7),
    device('c', '1', true),
    device('d', null, false),
  ],
};

describe('regionTree', () => {
  it('counts each zone with the zones below it, and keeps empty zones', () => {
    const roots = regionTree(region);
    expect(roots.map((node) => node.zoneName)).toEqual(['District', 'Orphan']);
    const district = roots[0]!;
    expect(district.counts).toEqual({ total: 3, online: 2, offline: 1, fault: 1 });
    expect(findNode(roots, '2')!.counts).toEqual({ total: 2, online: 1, offline: 1, fault: 1 });
    expect(findNode(roots, '3')!.counts.total).toBe(0);
    expect([...subtreeIds(district)].sort()).toEqual(['1', '2', '3']);
  });

  it('counts a list of devices by state', () => {
    expect(countsOf(region.devices)).toEqual({ total: 4, online: 2, offline: 2, fault: 1 });
  });
});

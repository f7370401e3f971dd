import { describe, expect, it } from 'vitest';
import { allZoneIds, buildZoneTree, toggleZone, type ZoneRow } from './zone-tree';

const row = (id: string, zoneParent: string | null, zoneSequence = 0): ZoneRow => ({
  id,
  zoneName: `Zone ${id}`,
  zoneParent,
  zoneSequence,
});

describe('zone assignment tree', () => {
  const rows = [row('3', '1', 2), row('2', '1', 1), row('1', null), row('4', '3'), row('9', '77')];
  const tree = buildZoneTree(rows);

  it('nests zones under their parents, siblings by sequence, orphans at the top', () => {
    expect(tree.map((node) => node.id)).toEqual(['1', '9']);
    expect(tree[0]!.children.map((node) => node.id)).toEqual(['2', '3']);
    expect(tree[0]!.children[1]!.children.map((node) => node.id)).toEqual(['4']);
    expect(allZoneIds(tree).sort()).toEqual(['1', '2', '3', '4', '9']);
  });

  it('does not lose zones in a loop of parents', () => {
    const loop = buildZoneTree([row('1', '2'), row('2', '1'), row('3', '3')]);
    expect(allZoneIds(loop).sort()).toEqual(['1', '2', '3']);
  });

  it('checks a zone alone or with everything below it', () => {
    expect(toggleZone([], tree, '3', true, false)).toEqual(['3']);
    expect(toggleZone(['2'], tree, '3', true, true)).toEqual(['2', '3', '4']);
    expect(toggleZone(['1', '3', '4'], tree, '3', false, true)).toEqual(['1']);
    expect(toggleZone(['1', '3', '4'], tree, '3', false, false)).toEqual(['1', '4']);
  });
});

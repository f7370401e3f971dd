import type { ZoneNode } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { zoneIdsOf, zoneListOf } from './zone-list';

const zone = (id: string, children: ZoneNode[] = []): ZoneNode => ({
  id,
  zoneName: `Zone ${id}`,
  zoneCode: `Z${id}`,
  children,
});

const tree = [zone('1', [zone('2'), zone('3', [zone('4')])]), zone('5'), zone('6')];

describe('zone state', () => {
  it('joins every zone id, parents before children', () => {
    expect(zoneIdsOf(tree)).toBe('1,2,3,4,5,6');
    expect(zoneIdsOf([])).toBe('');
  });

  it('reverses the top level and disables zones that hold others', () => {
    const list = zoneListOf(tree);
    expect(list.map((node) => node.id)).toEqual(['6', '5', '1']);
    expect(list.map((node) => node.disabled)).toEqual([false, false, true]);
    const [two, three] = list[2]!.children;
    expect([two!.id, two!.disabled, three!.id, three!.disabled]).toEqual(['2', false, '3', true]);
    expect(three!.children[0]).toMatchObject({ id: '4', disabled: false, zoneName: 'Zone 4' });
  });

  it('leaves the tree it was given as it was', () => {
    const copy = structuredClone(tree);
    zoneListOf(tree);
    expect(tree).toEqual(copy);
  });
});

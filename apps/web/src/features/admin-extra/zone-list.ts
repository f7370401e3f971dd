import type { ZoneNode } from '@shuili/contract';

/** A zone as the zone pickers show it: only leaves may be chosen. */
export interface ZoneOption extends ZoneNode {
  /** Zones holding other zones are groups, not choices. */
  disabled: boolean;
  children: ZoneOption[];
}

/** Spec §3 zone state zoneIds: every zone id of the tree, depth first, joined by commas. */
export function zoneIdsOf(nodes: readonly ZoneNode[]): string {
  const ids: string[] = [];
  const walk = (list: readonly ZoneNode[]) => {
    for (const node of list) {
      ids.push(node.id);
      walk(node.children ?? []);
    }
  };
  walk(nodes);
  return ids.join(',');
}

function toOption(node: ZoneNode): ZoneOption {
  const children = (node.children ?? []).map(toOption);
  return { ...node, children, disabled: children.length > 0 };
}

/**
 * Spec §3 zone state zoneList: the tree with its top level reversed and every zone holding others
 * disabled. Unlike an in-place reverse, the tree it was given is left as it was.
 */
export function zoneListOf(nodes: readonly ZoneNode[]): ZoneOption[] {
  return nodes.map(toOption).reverse();
}

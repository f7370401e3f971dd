/** A zone as queryZone lists it (the fields the assignment tree needs). */
export interface ZoneRow {
  id: string;
  zoneName: string;
  zoneCode?: string | null;
  zoneParent?: string | null;
  zoneSequence?: number | null;
  status?: number | null;
}

/** A zone of the assignment tree. */
export interface ZoneTreeNode {
  id: string;
  row: ZoneRow;
  children: ZoneTreeNode[];
}

const bySequence = (a: ZoneRow, b: ZoneRow) =>
  (a.zoneSequence ?? 0) - (b.zoneSequence ?? 0) ||
  a.id.localeCompare(b.id, undefined, { numeric: true });

/**
 * The zones of a flat list as a tree by zoneParent, siblings by sequence. A zone whose parent is
 * not in the list (or that sits in a loop of parents) is shown at the top rather than lost.
 */
export function buildZoneTree(rows: readonly ZoneRow[]): ZoneTreeNode[] {
  const ids = new Set(rows.map((row) => row.id));
  const children = new Map<string, ZoneRow[]>();
  const roots: ZoneRow[] = [];
  for (const row of [...rows].sort(bySequence)) {
    const parent = row.zoneParent;
    if (parent && parent !== row.id && ids.has(parent)) {
      const list = children.get(parent) ?? [];
      list.push(row);
      children.set(parent, list);
    } else {
      roots.push(row);
    }
  }
  const placed = new Set<string>();
  const build = (row: ZoneRow): ZoneTreeNode => {
    placed.add(row.id);
    return {
      id: row.id,
      row,
      children: (children.get(row.id) ?? []).filter((child) => !placed.has(child.id)).map(build),
    };
  };
  const tree = roots.map(build);
  // Zones in a loop of parents are reached from no root: list them at the top.
  for (const row of [...rows].sort(bySequence)) if (!placed.has(row.id)) tree.push(build(row));
  return tree;
}

/** The ids of a node and everything below it. */
export function subtreeIds(node: ZoneTreeNode): string[] {
  return [node.id, ...node.children.flatMap(subtreeIds)];
}

/** Every id of the tree. */
export function allZoneIds(nodes: readonly ZoneTreeNode[]): string[] {
  return nodes.flatMap(subtreeIds);
}

/** Finds a node by id. */
export function findZone(nodes: readonly ZoneTreeNode[], id: string): ZoneTreeNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = findZone(node.children, id);
    if (found) return found;
  }
  return undefined;
}

/**
 * The checked zones after one is checked or unchecked. Zones are granted one by one (a parent
 * zone does not include its children), so `withChildren` carries the change down on request.
 */
export function toggleZone(
  checked: readonly string[],
  nodes: readonly ZoneTreeNode[],
  id: string,
  on: boolean,
  withChildren: boolean,
): string[] {
  const node = findZone(nodes, id);
  const ids = node && withChildren ? subtreeIds(node) : [id];
  if (on) return [...new Set([...checked, ...ids])];
  const off = new Set(ids);
  return checked.filter((key) => !off.has(key));
}

import type { OrgUserNode } from '@shuili/contract';

/** Every node of the tree, parents before their children. */
export function flattenOrgUsers(nodes: readonly OrgUserNode[]): OrgUserNode[] {
  return nodes.flatMap((node) => [node, ...flattenOrgUsers(node.children)]);
}

/** The keys of the user nodes: only users are granted a role, organisations merely hold them. */
export function userKeys(nodes: readonly OrgUserNode[]): string[] {
  return flattenOrgUsers(nodes)
    .filter((node) => node.kind === 'user')
    .map((node) => node.key);
}

/** The keys of the users who hold the role now. */
export function assignedUserKeys(nodes: readonly OrgUserNode[]): string[] {
  return flattenOrgUsers(nodes)
    .filter((node) => node.kind === 'user' && node.assigned)
    .map((node) => node.key);
}

/** The user ids behind checked keys; checked organisations are left out. */
export function userIdsOf(nodes: readonly OrgUserNode[], keys: Iterable<string>): string[] {
  const wanted = new Set(keys);
  return [
    ...new Set(
      flattenOrgUsers(nodes)
        .filter((node) => node.kind === 'user' && wanted.has(node.key))
        .map((node) => node.id),
    ),
  ];
}

/** Whether a node is a user or holds one somewhere below: an empty organisation has nothing to check. */
export function holdsUsers(node: OrgUserNode): boolean {
  return node.kind === 'user' || node.children.some(holdsUsers);
}

/**
 * The part of the tree matching a text (case-insensitive): a matching organisation keeps all it
 * holds, others stay when something below them matches.
 */
export function filterOrgUserTree(nodes: readonly OrgUserNode[], text: string): OrgUserNode[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return [...nodes];
  const kept: OrgUserNode[] = [];
  for (const node of nodes) {
    if (node.title.toLowerCase().includes(needle)) {
      kept.push(node);
      continue;
    }
    const children = filterOrgUserTree(node.children, needle);
    if (children.length > 0) kept.push({ ...node, children });
  }
  return kept;
}

/**
 * The checked users after a check in a filtered tree: the tree reports only what it shows, so
 * users hidden by the filter keep their state, and shown ones take what the tree says.
 */
export function mergeCheckedUsers(
  previous: readonly string[],
  shown: readonly OrgUserNode[],
  checkedShown: readonly string[],
): string[] {
  const shownUsers = new Set(userKeys(shown));
  const kept = previous.filter((key) => !shownUsers.has(key));
  const added = checkedShown.filter((key) => shownUsers.has(key));
  return [...new Set([...kept, ...added])];
}

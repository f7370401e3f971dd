import type { OrgUserNode } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import {
  assignedUserKeys,
  filterOrgUserTree,
  holdsUsers,
  mergeCheckedUsers,
  userIdsOf,
  userKeys,
} from './org-user-tree';

const user = (id: string, title: string, assigned = false): OrgUserNode => ({
  key: `user-${id}`,
  title,
  kind: 'user',
  id,
  assigned,
  children: [],
});
const org = (id: string, title: string, children: OrgUserNode[]): OrgUserNode => ({
  key: `org-${id}`,
  title,
  kind: 'org',
  id,
  children,
});

// Org ids and user ids overlap on purpose: the server's keys tell them apart.
const tree = [
  org('1', 'District', [
    user('1', 'Admin (admin)', true),
    org('2', 'North canal', [user('2', 'Li Wei (liwei)'), user('3', 'Wang Fang (wfang)', true)]),
    org('3', 'Empty office', []),
  ]),
  user('4', 'Loner (loner)'),
];

describe('organisation/user tree', () => {
  it('counts only user nodes', () => {
    expect(userKeys(tree)).toEqual(['user-1', 'user-2', 'user-3', 'user-4']);
    expect(assignedUserKeys(tree)).toEqual(['user-1', 'user-3']);
  });

  it('turns checked keys into user ids, leaving organisations out', () => {
    expect(userIdsOf(tree, ['org-1', 'org-2', 'user-2', 'user-3'])).toEqual(['2', '3']);
    expect(userIdsOf(tree, ['org-1'])).toEqual([]);
  });

  it('knows organisations without users', () => {
    expect(holdsUsers(tree[0]!)).toBe(true);
    expect(holdsUsers(tree[0]!.children[2]!)).toBe(false);
  });

  it('filters by title, keeping the organisations on the way and all of a matching one', () => {
    const byUser = filterOrgUserTree(tree, 'wang');
    expect(userKeys(byUser)).toEqual(['user-3']);
    expect(byUser[0]!.key).toBe('org-1');
    expect(userKeys(filterOrgUserTree(tree, 'north'))).toEqual(['user-2', 'user-3']);
    expect(filterOrgUserTree(tree, '')).toHaveLength(2);
    expect(filterOrgUserTree(tree, 'nobody')).toEqual([]);
  });

  it('keeps the state of users a filter hides when the shown ones are checked', () => {
    const shown = filterOrgUserTree(tree, 'north');
    // user-1 and user-3 were checked; in the filtered tree the user unchecks 3 and checks 2.
    expect(mergeCheckedUsers(['user-1', 'user-3'], shown, ['org-2', 'user-2'])).toEqual([
      'user-1',
      'user-2',
    ]);
    // Organisation keys the tree reports never enter the state.
    expect(mergeCheckedUsers([], tree, ['org-1', 'user-1'])).toEqual(['user-1']);
  });
});

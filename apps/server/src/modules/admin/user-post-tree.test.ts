import crypto from 'node:crypto';
import {
  entityCalls,
  sysPostEntity,
  sysUserPostEntity,
  USER_LINK_CALLS,
  type UserPostNode,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, userIdOf } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { addDemoUser } from '../../security/demo-user';

/**
 * User posts (spec §7 /api/admin/sysuserpost): the post tree of one user, posts they hold
 * checked with their user-post id, and the user-post rows listed, added, updated and deleted by
 * id through the entity's generic calls, as a post assignment screen uses them.
 */
describe.each(BACKENDS)('user-post tree by userId on $backend', ({ backend, available }) => {
  let server: TestServer;
  let admin: string;
  const test = it.skipIf(!available);
  const posts = entityCalls(sysPostEntity);
  const userPosts = entityCalls(sysUserPostEntity);

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
  });
  afterAll(async () => server?.close());

  const addPost = async (postName: string, postSequence: number, postParent?: string) => {
    const added = await call(server, 'POST', posts.add, {
      token: admin,
      body: {
        postCode: `p${crypto.randomBytes(4).toString('hex')}`,
        postName,
        postSequence,
        ...(postParent ? { postParent } : {}),
      },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    return String(added.body.data.id);
  };
  const treeOf = async (userId: string) => {
    const answer = await call(server, 'GET', USER_LINK_CALLS.postTree, {
      token: admin,
      query: { userId },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as UserPostNode[];
  };
  /** Every node of a tree by id. */
  const flatten = (nodes: UserPostNode[]): Map<string, UserPostNode> =>
    new Map(
      nodes.flatMap((node) => [[node.id, node] as const, ...flatten(node.children).entries()]),
    );

  test('the tree marks the user’s posts and follows add, update and delete by id', async () => {
    const user = await addDemoUser(server, admin, ['ROLE_OPERATOR']);
    const station = await addPost('Pump station', 1);
    const keeper = await addPost('Pump keeper', 2, station);
    const gauger = await addPost('Gauge reader', 1, station);

    let tree = flatten(await treeOf(user.id));
    // Nested under its parent, in sequence order, nothing checked yet.
    expect(tree.get(station)!.children.map((child) => child.id)).toEqual([gauger, keeper]);
    expect([...tree.values()].filter((node) => node.checked)).toEqual([]);

    const added = await call(server, 'POST', userPosts.add, {
      token: admin,
      body: { userId: user.id, postId: keeper },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const userPostId = String(added.body.data.id);
    tree = flatten(await treeOf(user.id));
    expect(tree.get(keeper)).toMatchObject({ checked: true, userPostId });
    expect(tree.get(gauger)).toMatchObject({ checked: false, userPostId: null });
    expect(tree.get(station)).toMatchObject({ checked: false, postName: 'Pump station' });

    // Listed by user, changed and deleted by id: the tree follows.
    const listed = await call(server, 'GET', userPosts.query, {
      token: admin,
      query: { userId: user.id },
    });
    expect((listed.body.data.list as Array<{ id: string }>).map((row) => String(row.id))).toEqual([
      userPostId,
    ]);
    const moved = await call(server, 'PUT', userPosts.update, {
      token: admin,
      body: { id: userPostId, postId: gauger },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    tree = flatten(await treeOf(user.id));
    expect(tree.get(gauger)).toMatchObject({ checked: true, userPostId });
    expect(tree.get(keeper)!.checked).toBe(false);

    const removed = await call(server, 'POST', userPosts.delete, {
      token: admin,
      body: { id: [userPostId] },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect([...flatten(await treeOf(user.id)).values()].some((node) => node.checked)).toBe(false);
  });

  test('the tree needs a user of the caller’s tenant: 400 naming userId, 404 for another’s', async () => {
    for (const userId of [undefined, 'abc']) {
      const refused = await call(server, 'GET', USER_LINK_CALLS.postTree, {
        token: admin,
        query: { userId },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].field).toBe('userId');
    }
    const acmeUser = await userIdOf(server, 'acme');
    const foreign = await call(server, 'GET', USER_LINK_CALLS.postTree, {
      token: admin,
      query: { userId: acmeUser },
    });
    expect(foreign.status).toBe(404);
  });
});

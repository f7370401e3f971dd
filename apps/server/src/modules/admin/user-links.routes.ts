import {
  bindUserProjectSchema,
  USER_LINK_CALLS,
  userIdQuerySchema,
  userPostNodeSchema,
  userProjectsSchema,
  type UserPostNode,
  type UserProjects,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database, Sql } from '../../db/database';
import { envelopeOf, ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import { replaceLinkSet, requireRow } from '../authority/link-set';
import { checkManageable, checkScopeGiven } from './scope-confinement';

const granted = { permission: 'granted' as const };

/** Every project of the tenant, marked where the user is bound to it. */
async function projectsOf(sql: Sql, userId: string): Promise<UserProjects> {
  const { rows } = await sql.query<UserProjects['projects'][number]>(
    `SELECT p.id::text AS id, p.project_no AS "projectNo", p.project_name AS "projectName",
            (up.user_id IS NOT NULL) AS bound
       FROM iot_project p
       LEFT JOIN sys_user_project up ON up.project_id = p.id AND up.user_id = $1
      ORDER BY p.project_no, p.id`,
    [userId],
  );
  return { projectIds: rows.filter((row) => row.bound).map((row) => row.id), projects: rows };
}

/** The tenant's post tree, each post marked with the user's user-post row when they hold it. */
async function postTreeOf(sql: Sql, userId: string): Promise<UserPostNode[]> {
  const { rows } = await sql.query<{
    id: string;
    post_code: string;
    post_name: string;
    post_sequence: number;
    post_parent: string | null;
    status: number | null;
    user_post_id: string | null;
  }>(
    `SELECT p.id::text AS id, p.post_code, p.post_name, p.post_sequence,
            p.post_parent::text AS post_parent, p.status, up.id::text AS user_post_id
       FROM sys_post p
       LEFT JOIN sys_user_post up ON up.post_id = p.id AND up.user_id = $1
      ORDER BY p.post_sequence, p.id`,
    [userId],
  );
  const nodes = new Map<string, UserPostNode>();
  for (const row of rows)
    nodes.set(row.id, {
      id: row.id,
      postCode: row.post_code,
      postName: row.post_name,
      postSequence: row.post_sequence,
      postParent: row.post_parent,
      status: row.status,
      checked: row.user_post_id !== null,
      userPostId: row.user_post_id,
      children: [],
    });
  const roots: UserPostNode[] = [];
  // Rows come in sequence order, so every level keeps it.
  for (const node of nodes.values()) {
    const parent = node.postParent ? nodes.get(node.postParent) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/**
 * What a user works on, beyond roles (spec §7): the IoT projects bound to them, which confine
 * the devices they see as zones do (tenancy.sql device_scope), and their posts as a tree. The
 * user-post rows themselves are the SysUserPost entity's generic calls.
 */
export async function userLinkRoutes(fastify: FastifyInstance, deps: { db: Database }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(USER_LINK_CALLS.queryProjects, {
    config: granted,
    schema: {
      tags: ['SysUser'],
      summary:
        'The projects a user is bound to (projectIds; none: not confined by project) and every project of the tenant marked `bound`, for a checklist',
      querystring: userIdQuerySchema,
      response: { 200: envelopeOf(userProjectsSchema) },
    },
    handler: async (request) => {
      const { userId } = request.query;
      return ok(
        await deps.db.tenant(authOf(request), async (sql) => {
          await requireRow(sql, 'sys_user', userId, 'userId');
          return projectsOf(sql, userId);
        }),
      );
    },
  });

  app.post(USER_LINK_CALLS.bindProjects, {
    config: granted,
    schema: {
      tags: ['SysUser'],
      summary:
        "Replaces a user's projects (data: userId, projectIds); bound to projects, the user sees only their devices, at once",
      body: bindUserProjectSchema,
      response: { 200: envelopeOf(z.null()) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const { userId, projectIds } = request.body;
      checkScopeGiven(auth, 'projectIds', userId, projectIds);
      await deps.db.tenant(auth, async (sql) => {
        await requireRow(sql, 'sys_user', userId, 'userId');
        await checkManageable(sql, auth, [userId], 'userId');
        // Another tenant's project (or none) breaks the link's (tenant_id, project_id) key: 400.
        await replaceLinkSet(sql, auth.tenantId, {
          table: 'sys_user_project',
          fixedColumn: 'user_id',
          fixedId: userId,
          listColumn: 'project_id',
          listIds: projectIds,
          field: 'projectIds',
        });
      });
      return ok(null);
    },
  });

  app.get(USER_LINK_CALLS.postTree, {
    config: granted,
    schema: {
      tags: ['SysUserPost'],
      summary:
        "The tenant's posts as a tree, the user's own checked (with their user-post id), for a post assignment screen",
      querystring: userIdQuerySchema,
      response: { 200: envelopeOf(z.array(userPostNodeSchema)) },
    },
    handler: async (request) => {
      const { userId } = request.query;
      return ok(
        await deps.db.tenant(authOf(request), async (sql) => {
          await requireRow(sql, 'sys_user', userId, 'userId');
          return postTreeOf(sql, userId);
        }),
      );
    },
  });
}

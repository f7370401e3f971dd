import { z } from 'zod';
import { idSchema } from '../entity-kit/schemas';

/** The calls of spec §7 about what a user works on: projects and posts (server and web). */
export const USER_LINK_CALLS = {
  queryProjects: '/api/admin/sysuser/queryUserProject',
  bindProjects: '/api/admin/sysuser/bindUserProject',
  postTree: '/api/admin/sysuserpost/querySysUserPostTree',
} as const;

/** The query of queryUserProject and querySysUserPostTree: the user asked about. */
export const userIdQuerySchema = z.object({
  userId: z.string().regex(/^\d{1,18}$/, { error: 'validation.invalid' }),
});

/** bindUserProject's body (spec "POST data"): the list replaces the user's projects. */
export const bindUserProjectSchema = z.strictObject({
  userId: idSchema,
  projectIds: z.array(idSchema, { error: 'validation.invalid' }).max(5000),
});

/** A project of the tenant, as a project checklist shows it: `bound` when the user works on it. */
export const userProjectSchema = z.object({
  id: z.string(),
  projectNo: z.string(),
  projectName: z.string(),
  bound: z.boolean(),
});
export type UserProject = z.infer<typeof userProjectSchema>;

/**
 * queryUserProject's answer: the ids of the user's projects (none: the user is not confined by
 * project) and every project of the tenant with its `bound` flag, for a checklist.
 */
export const userProjectsSchema = z.object({
  projectIds: z.array(z.string()),
  projects: z.array(userProjectSchema),
});
export type UserProjects = z.infer<typeof userProjectsSchema>;

/**
 * A post of the tenant's post tree, marked for one user (querySysUserPostTree): `checked` when
 * the user holds it, with `userPostId`, the user-post row to update or delete by id.
 */
export interface UserPostNode {
  id: string;
  postCode: string;
  postName: string;
  postSequence: number;
  postParent: string | null;
  status: number | null;
  checked: boolean;
  userPostId: string | null;
  children: UserPostNode[];
}
export const userPostNodeSchema: z.ZodType<UserPostNode> = z.lazy(() =>
  z.object({
    id: z.string(),
    postCode: z.string(),
    postName: z.string(),
    postSequence: z.number(),
    postParent: z.string().nullable(),
    status: z.number().nullable(),
    checked: z.boolean(),
    userPostId: z.string().nullable(),
    children: z.array(userPostNodeSchema),
  }),
);
